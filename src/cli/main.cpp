#include "cli/app.hpp"
#include "cli/price_cache.hpp"
#include "cli/progress.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <string_view>
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

} // namespace

int main(int argc, char** argv) {
    reserve_standard_descriptors();
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    gpuplan::cli::Io io{std::cout, std::cerr, ::isatty(STDOUT_FILENO) == 1,
                        std::getenv("NO_COLOR") != nullptr, std::nullopt};
    io.err_is_tty = ::isatty(STDERR_FILENO) == 1;
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
