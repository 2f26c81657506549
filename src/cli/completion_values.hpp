#pragma once
// The values the shell completions offer after an option that takes one of a known set: output
// formats, colour modes, objectives, the bundled presets, and the GPU models and providers of the
// embedded catalog, and the named values of the workload fields (cli_doc.hpp renders them).

#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// The values of the option `name` ("--gpu") of the command at `path` ("recommend"; empty for
// gpuplan's own options), in the order --help or the catalog gives them; empty when its value
// is free (a number, a file, a new name). Only names a shell needs no quoting for are given.
[[nodiscard]] std::vector<std::string> option_values(std::string_view path, std::string_view name);

} // namespace gpuplan::cli
