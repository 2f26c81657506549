#pragma once
// The workload flags: each flag's name, the workload field it sets and its help, registered on
// every command that takes a workload and used to name a flag in place of its field.

#include "gpuplan/workload/reader.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// How a workload flag takes its value.
enum class FlagKind {
    text,   // one value, kept as typed
    list,   // repeatable, one value each time
    toggle, // no value
    shared, // registered elsewhere: a common option, or a flag another row registers
};

struct WorkloadFlag {
    std::string_view name;
    std::string_view path; // the field it sets, as workload diagnostics print it
    FlagKind kind = FlagKind::text;
    std::optional<std::string> workload::WorkloadOverrides::*text = nullptr;
    std::vector<std::string> workload::WorkloadOverrides::*list = nullptr;
    std::string_view help;
    std::string_view type; // CLI11's type name in the help
};

// The workload flags in the order of `--help`; app.cpp registers them.
[[nodiscard]] std::span<const WorkloadFlag> workload_flags();

// The flag that sets the workload field at `path` (`/training/mfu` is `--mfu`); empty for a field
// no flag sets. A workload::FieldHint.
[[nodiscard]] std::string_view workload_flag_of(std::string_view path);

} // namespace gpuplan::cli
