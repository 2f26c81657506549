#pragma once
// `gpuplan config show`: the resolved settings and where each came from (docs/config.md).

#include "cli/common.hpp"

namespace gpuplan::cli {

// Prints every setting of config.hpp with its value and origin, and the configuration file.
[[nodiscard]] Exit run_config_show(const CommonOptions& common, Io& io);

} // namespace gpuplan::cli
