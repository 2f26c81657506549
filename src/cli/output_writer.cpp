#include "cli/output_writer.hpp"

#include "cli/common.hpp"
#include "cli/input_file.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <ostream>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace gpuplan::cli {

namespace fs = std::filesystem;

namespace {

// Temporary files alive at once: one per output file of a run (catalog import writes one per
// provider); the signal handler can only walk storage that needs no allocation.
constexpr std::size_t k_max_temporaries = 256;
// Symlinks followed from an output path to its final target, as the kernel's own limit.
constexpr int k_max_symlink_hops = 40;
constexpr int k_max_name_attempts = 100;
// Every catchable signal whose default action ends the process (the rest stop, continue or are
// ignored; SIGKILL cannot be caught): a temporary file must not outlive the run.
constexpr std::array<int, 12> k_cleanup_signals{SIGINT,  SIGTERM, SIGHUP,    SIGQUIT,
                                                SIGUSR1, SIGUSR2, SIGALRM,   SIGPIPE,
                                                SIGXFSZ, SIGXCPU, SIGVTALRM, SIGPROF};

std::array<std::atomic<const char*>, k_max_temporaries> g_temporaries{};
std::atomic<bool> g_handlers_installed{false};

extern "C" void remove_temporaries_and_reraise(int signal_number) {
    // Only async-signal-safe calls: unlink, then the default action (SA_RESETHAND restored it;
    // the raised signal is delivered when the handler returns).
    for (auto& slot : g_temporaries) {
        const char* path = slot.load();
        if (path != nullptr) {
            ::unlink(path);
        }
    }
    ::raise(signal_number);
}

void install_cleanup_handlers() {
    if (g_handlers_installed.exchange(true)) {
        return;
    }
    for (const int signal_number : k_cleanup_signals) {
        struct sigaction previous {};
        if (::sigaction(signal_number, nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN) {
            continue; // an ignored signal (nohup) stays ignored
        }
        struct sigaction action {};
        action.sa_handler = remove_temporaries_and_reraise;
        sigemptyset(&action.sa_mask);
        for (const int other : k_cleanup_signals) {
            sigaddset(&action.sa_mask, other);
        }
        action.sa_flags = static_cast<int>(SA_RESETHAND);
        ::sigaction(signal_number, &action, nullptr);
    }
}

// Blocks the cleanup signals for its lifetime, so a rename and the slot it frees happen as one.
class SignalBlock {
public:
    SignalBlock() {
        sigset_t set;
        sigemptyset(&set);
        for (const int signal_number : k_cleanup_signals) {
            sigaddset(&set, signal_number);
        }
        ::pthread_sigmask(SIG_BLOCK, &set, &m_previous);
    }
    ~SignalBlock() { ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr); }
    SignalBlock(const SignalBlock&) = delete;
    SignalBlock& operator=(const SignalBlock&) = delete;

private:
    sigset_t m_previous{};
};

std::string system_error(const std::string& path, std::string_view what, int error) {
    return fmt::format("{}: error: {}: {}", path, what, std::strerror(error));
}

// Where an output path lands: the final target of its symlinks, and that target's state.
struct Target {
    std::string given;
    fs::path path;
    fs::path folder;
    std::optional<struct stat> existing;
    std::string key; // the canonical folder and name, to find two outputs to one file
};

// The kernel's fs.protected_symlinks rule, which a writer that resolves links itself must apply:
// a link in a sticky, world-writable folder is followed only when it belongs to the follower or
// to the folder's owner, so one user cannot point another's output at a file of theirs.
void refuse_foreign_link(const std::string& given, const fs::path& link,
                         const struct stat& link_info) {
    const fs::path folder = link.has_parent_path() ? link.parent_path() : fs::path(".");
    struct stat folder_info {};
    if (::stat(folder.c_str(), &folder_info) != 0) {
        return; // reported when the folder is written
    }
    const bool shared =
        (folder_info.st_mode & S_ISVTX) != 0 && (folder_info.st_mode & S_IWOTH) != 0;
    if (shared && link_info.st_uid != folder_info.st_uid && link_info.st_uid != ::geteuid()) {
        throw RuntimeError(fmt::format("{}: error: refusing to follow a symlink that another user "
                                       "owns in the shared folder {} (as the kernel's "
                                       "fs.protected_symlinks does)",
                                       given, folder.string()));
    }
}

Target resolve(const std::string& given) {
    Target target{given, fs::path(given), {}, std::nullopt, {}};
    for (int hops = 0;; ++hops) {
        struct stat info {};
        if (::lstat(target.path.c_str(), &info) != 0) {
            const int error = errno;
            if (error != ENOENT) {
                throw RuntimeError(system_error(given, "cannot write file", error));
            }
            break;
        }
        if (!S_ISLNK(info.st_mode)) {
            target.existing = info;
            break;
        }
        if (hops == k_max_symlink_hops) {
            throw RuntimeError(system_error(given, "cannot write file", ELOOP));
        }
        refuse_foreign_link(given, target.path, info);
        std::error_code ec;
        const fs::path link = fs::read_symlink(target.path, ec);
        if (ec) {
            throw RuntimeError(
                fmt::format("{}: error: cannot write file: {}", given, ec.message()));
        }
        target.path = link.is_absolute() ? link : target.path.parent_path() / link;
    }
    if (target.existing && S_ISDIR(target.existing->st_mode)) {
        throw RuntimeError(fmt::format("{}: error: is a directory, expected a file", given));
    }
    if (target.existing && !S_ISREG(target.existing->st_mode)) {
        throw RuntimeError(fmt::format("{}: error: refusing to replace {}{}; gpuplan writes "
                                       "regular files only",
                                       given, describe_file_type(target.existing->st_mode),
                                       target.path == fs::path(given)
                                           ? std::string()
                                           : fmt::format(" ({})", target.path.string())));
    }
    target.folder = target.path.has_parent_path() ? target.path.parent_path() : fs::path(".");
    std::error_code ec;
    const fs::path folder = fs::weakly_canonical(target.folder, ec);
    target.key = ((ec ? target.folder : folder) / target.path.filename()).string();
    return target;
}

// Six random characters from the kernel, or from the clock and PID when it has none to give.
std::string random_suffix() {
    constexpr std::string_view k_alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::array<unsigned char, 6> bytes{};
    if (::getrandom(bytes.data(), bytes.size(), GRND_NONBLOCK) !=
        static_cast<ssize_t>(bytes.size())) {
        timespec now{};
        ::clock_gettime(CLOCK_MONOTONIC, &now);
        std::uint64_t mix =
            static_cast<std::uint64_t>(now.tv_nsec) * std::uint64_t{0x9E3779B97F4A7C15} ^
            static_cast<std::uint64_t>(::getpid());
        for (unsigned char& byte : bytes) {
            byte = static_cast<unsigned char>(mix >> 24U);
            mix = mix * std::uint64_t{6364136223846793005} + std::uint64_t{1442695040888963407};
        }
    }
    std::string out;
    for (const unsigned char byte : bytes) {
        out += k_alphabet[byte % k_alphabet.size()];
    }
    return out;
}

// The temporary files of one write_files call: registered for the signal handler, removed unless
// renamed.
class Temporaries {
public:
    Temporaries() = default;
    Temporaries(const Temporaries&) = delete;
    Temporaries& operator=(const Temporaries&) = delete;
    ~Temporaries() {
        for (std::size_t i = 0; i < m_paths.size(); ++i) {
            release(i, true);
        }
    }

    // Creates a new temporary file in target.folder; returns its descriptor.
    int create(const Target& target) {
        const mode_t mode = target.existing ? (target.existing->st_mode & 07777) : 0666;
        for (int attempt = 0; attempt < k_max_name_attempts; ++attempt) {
            std::string path = (target.folder / (".gpuplan-" + random_suffix())).string();
            m_paths.push_back(std::make_unique<std::string>(std::move(path)));
            const std::size_t slot = claim_slot(target.given, *m_paths.back());
            const int fd = ::open(m_paths.back()->c_str(),
                                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                  target.existing ? 0600 : mode);
            if (fd >= 0) {
                m_slots.push_back(slot);
                if (target.existing) {
                    // Best effort for the owner (works as root); the mode must hold.
                    if (::fchown(fd, target.existing->st_uid, target.existing->st_gid) != 0) {
                        errno = 0;
                    }
                    if (::fchmod(fd, mode) != 0) {
                        const int error = errno;
                        ::close(fd);
                        throw RuntimeError(system_error(target.given, "cannot write file", error));
                    }
                }
                return fd;
            }
            const int error = errno;
            g_temporaries.at(slot).store(nullptr);
            m_paths.pop_back();
            if (error != EEXIST) {
                throw RuntimeError(system_error(target.given, "cannot write file", error));
            }
        }
        throw RuntimeError(system_error(target.given, "cannot write file", EEXIST));
    }

    // Renames temporary `index` over `target` and forgets it.
    void commit(std::size_t index, const Target& target) {
        const SignalBlock block;
        if (::rename(m_paths.at(index)->c_str(), target.path.c_str()) != 0) {
            const int error = errno;
            throw RuntimeError(system_error(target.given, "cannot write file", error));
        }
        release(index, false);
    }

private:
    std::size_t claim_slot(const std::string& given, const std::string& path) {
        for (std::size_t slot = 0; slot < g_temporaries.size(); ++slot) {
            const char* expected = nullptr;
            if (g_temporaries.at(slot).compare_exchange_strong(expected, path.c_str())) {
                return slot;
            }
        }
        m_paths.pop_back();
        throw RuntimeError(
            fmt::format("{}: error: more than {} output files at once", given, k_max_temporaries));
    }

    void release(std::size_t index, bool remove) {
        if (index >= m_slots.size() || m_paths.at(index) == nullptr) {
            return;
        }
        if (remove) {
            ::unlink(m_paths.at(index)->c_str());
        }
        g_temporaries.at(m_slots.at(index)).store(nullptr);
        m_paths.at(index).reset();
    }

    std::vector<std::unique_ptr<std::string>> m_paths; // stable addresses for the handler
    std::vector<std::size_t> m_slots;
};

void write_all(int fd, std::string_view text, const std::string& given) {
    while (!text.empty()) {
        const ::ssize_t wrote = ::write(fd, text.data(), text.size());
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            const int error = wrote < 0 ? errno : EIO;
            ::close(fd);
            throw RuntimeError(system_error(given, "cannot write file", error));
        }
        text.remove_prefix(static_cast<std::size_t>(wrote));
    }
    if (::fsync(fd) != 0) {
        const int error = errno;
        ::close(fd);
        throw RuntimeError(system_error(given, "cannot write file", error));
    }
    if (::close(fd) != 0) {
        throw RuntimeError(system_error(given, "cannot write file", errno));
    }
}

void sync_folder(const fs::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd); // the rename is done; a folder that cannot sync loses nothing else
        ::close(fd);
    }
}

// The fault-injection tests (tests/fault/run.sh) stop a run here, with every temporary file
// written, by naming a FIFO that no one writes to: opening it blocks until a signal arrives.
void hold_for_fault_test() {
    const char* fifo = std::getenv("GPUPLAN_FAULT_HOLD_BEFORE_RENAME");
    if (fifo != nullptr) {
        const int fd = ::open(fifo, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ::close(fd);
        }
    }
}

} // namespace

void write_files(std::span<const OutputFile> files) {
    std::vector<Target> targets;
    targets.reserve(files.size());
    for (const OutputFile& file : files) {
        Target target = resolve(file.path);
        for (const Target& earlier : targets) {
            if (earlier.key == target.key) {
                throw UsageError(fmt::format("'{}' and '{}' name the same file; give each output "
                                             "its own path",
                                             earlier.given, target.given));
            }
        }
        targets.push_back(std::move(target));
    }
    install_cleanup_handlers();
    Temporaries temporaries;
    for (std::size_t i = 0; i < files.size(); ++i) {
        write_all(temporaries.create(targets[i]), files[i].text, targets[i].given);
    }
    hold_for_fault_test();
    for (std::size_t i = 0; i < files.size(); ++i) {
        temporaries.commit(i, targets[i]);
    }
    for (const Target& target : targets) {
        sync_folder(target.folder);
    }
}

void write_stream(std::ostream& out, std::string_view text) {
    errno = 0;
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    flush_stream(out);
}

void flush_stream(std::ostream& out) {
    if (out) {
        errno = 0;
        out.flush();
    }
    if (!out) {
        const int error = errno;
        throw OutputError(fmt::format("gpuplan: error: cannot write to standard output: {}",
                                      error != 0 ? std::strerror(error) : "write error"));
    }
}

} // namespace gpuplan::cli
