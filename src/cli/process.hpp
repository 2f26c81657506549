#pragma once

namespace gpuplan::cli {

// The process around `run`: standard descriptors a closed `>&-` left free are taken by
// /dev/null, the first heap block is backed by huge pages where the kernel allows, and the
// environment (XDG folders, settings variables, TERM, NO_COLOR, COLUMNS, the terminal's size)
// becomes the `Io` that `run` reads. Returns the exit code.
int run_process(int argc, char** argv);

} // namespace gpuplan::cli
