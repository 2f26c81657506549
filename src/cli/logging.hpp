#pragma once
// gpuplan's log: spdlog's default logger replaced by one that writes to the run's error stream.

#include "cli/common.hpp"

namespace gpuplan::cli {

// Makes spdlog's default logger write "gpuplan: LEVEL: message" lines to `io.err`, flushed each,
// control characters escaped: errors only below 0, warnings at 0, info at 1, debug above.
void set_up_logging(Io& io, int verbosity);

} // namespace gpuplan::cli
