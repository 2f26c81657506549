#include "cli/app.hpp"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    gpuplan::cli::Io io{std::cout, std::cerr, ::isatty(STDOUT_FILENO) == 1,
                        std::getenv("NO_COLOR") != nullptr, std::nullopt};
    return gpuplan::cli::run(args, io);
}
