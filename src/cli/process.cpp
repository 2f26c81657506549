#include "cli/process.hpp"

#include "cli/app.hpp"
#include "cli/price_cache.hpp"
#include "cli/progress.hpp"
#include "detail/large_buffer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <string_view>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <sys/ioctl.h>
#include <unistd.h>

namespace {

// A closed standard descriptor (`>&-`) would be reused by the first file the run opens, and
// output meant for the terminal would land in it: each closed one is taken by /dev/null opened
// read-only, so writes to it fail with EBADF and are reported.
void reserve_standard_descriptors() {
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
        if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            if (::open("/dev/null", O_RDONLY) != fd) {
                std::_Exit(1);
            }
        }
    }
}

// A run's first 16 MiB of heap are one block backed by 2 MiB pages where the kernel allows it
// (transparent huge pages in "madvise" mode, Debian's default). A recommend on the embedded
// catalog allocates about that much in many small blocks; in a virtual machine every first
// touch of a 4 KiB page is a fault costing microseconds, and those faults were half of its
// time (bench/README.md, "Where the time goes"). 16 MiB keeps the 100k-offer feed's peak
// memory where it was: a larger block rounds more of its holes up to whole huge pages.
void reserve_huge_page_heap() {
#if defined(__GLIBC__)
    constexpr std::size_t k_block = std::size_t{16} << 20;
    // Served from the heap (not a separate mapping), which keeps the block when it is freed.
    (void)::mallopt(M_MMAP_THRESHOLD, static_cast<int>(k_block + 4096));
    (void)::mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * k_block));
    void* block = std::malloc(k_block);
    if (block == nullptr) {
        return;
    }
    gpuplan::advise_huge_pages(block, k_block);
    std::free(block);
#endif
}

} // namespace

namespace gpuplan::cli {

int run_process(int argc, char** argv) {
    reserve_huge_page_heap();
    reserve_standard_descriptors();
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    gpuplan::cli::Io io{std::cout, std::cerr, ::isatty(STDOUT_FILENO) == 1,
                        std::getenv("NO_COLOR") != nullptr, std::nullopt};
    io.err_is_tty = ::isatty(STDERR_FILENO) == 1;
    io.exits_after_run = true;
    io.cache_dir = gpuplan::cli::cache_dir_from(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
    io.config_file =
        gpuplan::cli::config_file_from(std::getenv("XDG_CONFIG_HOME"), std::getenv("HOME"));
    for (const std::string& name : gpuplan::cli::setting_variables()) {
        if (const char* value = std::getenv(name.c_str())) {
            io.env[name] = value;
        }
    }
    if (const char* home = std::getenv("HOME")) {
        io.env["HOME"] = home;
    }
    const char* term = std::getenv("TERM");
    io.term_dumb = term != nullptr && std::string_view(term) == "dumb";
    // A run over a second on a terminal shows its phase on standard error (not with -q).
    const bool quiet = std::find(args.begin(), args.end(), "-q") != args.end() ||
                       std::find(args.begin(), args.end(), "--quiet") != args.end();
    const gpuplan::cli::Progress progress(STDERR_FILENO, io.err_is_tty && !quiet);
    winsize size{};
    const bool sized = io.out_is_tty && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0;
    io.columns = gpuplan::cli::terminal_columns(sized ? size.ws_col : 0, std::getenv("COLUMNS"));
    return gpuplan::cli::run(args, io);
}

} // namespace gpuplan::cli
