// Reading input files so that no path can hang or flood a run: every path other than `-` is
// opened non-blocking and must be a regular file no larger than k_max_input_bytes.

#include "cli/input_file.hpp"

#include "gpuplan/error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpuplan::cli {

namespace {

InputError too_large(const std::string& path, const std::string& size,
                     std::size_t limit = k_max_input_bytes) {
    return InputError(
        {Diagnostic{path, 0, 0, "",
                    fmt::format("file too large: {} bytes (the limit is {} bytes)", size, limit)}});
}

// One read(2) of at most `capacity` bytes, retried when a signal interrupts it; 0 at the end.
std::size_t read_chunk(int fd, char* buffer, std::size_t capacity, const std::string& path) {
    for (;;) {
        const ::ssize_t got = ::read(fd, buffer, capacity);
        if (got >= 0) {
            return static_cast<std::size_t>(got);
        }
        if (errno != EINTR) {
            throw RuntimeError(
                fmt::format("{}: error: cannot read file: {}", path, std::strerror(errno)));
        }
    }
}

// Reads `fd` to its end, at most one chunk past the limit, so that standard input cannot grow
// memory forever.
std::string read_stream(int fd, const std::string& path, std::size_t max_bytes) {
    std::string text;
    constexpr std::size_t k_chunk_bytes = 1U << 16U;
    std::string chunk(k_chunk_bytes, '\0');
    while (text.size() <= max_bytes) {
        const std::size_t got = read_chunk(fd, chunk.data(), chunk.size(), path);
        if (got == 0) {
            return text;
        }
        text.append(chunk.data(), got);
    }
    throw too_large(path, fmt::format("more than {}", max_bytes), max_bytes);
}

} // namespace

std::string describe_file_type(unsigned mode) {
    if (S_ISCHR(mode)) {
        return "a character device";
    }
    if (S_ISBLK(mode)) {
        return "a block device";
    }
    if (S_ISFIFO(mode)) {
        return "a FIFO";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "not a regular file";
}

InputFd open_input(const std::string& path) {
    // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for ever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        throw RuntimeError(
            fmt::format("{}: error: cannot read file: {}", path, std::strerror(errno)));
    }
    InputFd input(fd);
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        throw RuntimeError(
            fmt::format("{}: error: cannot read file: {}", path, std::strerror(errno)));
    }
    if (S_ISDIR(info.st_mode)) {
        throw RuntimeError(fmt::format("{}: error: is a directory, expected a file", path));
    }
    if (!S_ISREG(info.st_mode)) {
        throw RuntimeError(fmt::format("{}: error: {}, not a regular file; gpuplan reads regular "
                                       "files, or standard input given as '-'",
                                       path, describe_file_type(info.st_mode)));
    }
    const auto size = static_cast<std::uintmax_t>(info.st_size);
    if (size > k_max_input_bytes) {
        throw too_large(path, std::to_string(size));
    }
    input.size = static_cast<std::size_t>(size);
    input.modified = info.st_mtime;
    return input;
}

InputFd::~InputFd() {
    if (fd >= 0) {
        ::close(fd);
    }
}

std::size_t read_input(const InputFd& input, char* buffer, std::size_t capacity,
                       const std::string& path) {
    std::size_t filled = 0;
    while (filled < capacity) {
        const std::size_t got = read_chunk(input.fd, buffer + filled, capacity - filled, path);
        if (got == 0) {
            break; // the end of a file that shrank since its size was taken
        }
        filled += got;
    }
    return filled;
}

TextFile read_text_file(const std::string& path, std::size_t max_bytes) {
    if (path == "-") {
        return {path, read_stream(STDIN_FILENO, "<stdin>", max_bytes)};
    }
    const InputFd input = open_input(path);
    if (input.size > max_bytes) {
        throw too_large(path, std::to_string(input.size), max_bytes);
    }
    std::string text(input.size, '\0');
    text.resize(read_input(input, text.data(), text.size(), path));
    return {path, std::move(text)};
}

} // namespace gpuplan::cli
