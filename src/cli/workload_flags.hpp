#pragma once
// The workload flags: each flag's name, the workload field it sets and its help, registered on
// every command that takes a workload and used to name a flag in place of its field.

#include "gpuplan/workload/reader.hpp"

#include <string_view>

namespace CLI {
class App;
} // namespace CLI

namespace gpuplan::cli {

// Registers the workload flags on `command`, each writing its value as typed into `overrides`.
void add_workload_flags(CLI::App* command, workload::WorkloadOverrides& overrides);

// The flag that sets the workload field at `path` (`/training/mfu` is `--mfu`); empty for a field
// no flag sets. A workload::FieldHint.
[[nodiscard]] std::string_view workload_flag_of(std::string_view path);

} // namespace gpuplan::cli
