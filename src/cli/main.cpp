#include "cli/process.hpp"

int main(int argc, char** argv) {
    return gpuplan::cli::run_process(argc, argv);
}
