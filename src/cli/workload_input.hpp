#pragma once
// Where a command's workload comes from: a file, a bundled preset, flags, or a mix (flags win).

#include "cli/common.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/workload/reader.hpp"

#include <string>
#include <vector>

namespace gpuplan::cli {

struct WorkloadInput {
    std::string path;   // WORKLOAD.yaml; empty = none
    std::string preset; // --preset NAME; empty = none
    workload::WorkloadOverrides overrides;
};

// Reads the workload files another file names (a portfolio's entries, a runs file's runs), a
// relative path taken from the folder of `naming_file` ("-", standard input: the working
// folder): the file, or nullopt with `why` set when it cannot be read.
[[nodiscard]] workload::FileLoader relative_file_loader(const std::string& naming_file);

// Names of the bundled presets, sorted.
[[nodiscard]] std::vector<std::string> preset_names();

// The bundled preset `name`. Throws UsageError (with "did you mean" and the list) for an
// unknown name, InputError if the preset is invalid.
[[nodiscard]] workload::Workload read_preset(const std::string& name);

// The workload of a command: file or preset (not both), then the flags and --currency on top.
// Throws UsageError when nothing or too little is given (saying what is missing), InputError
// for an invalid or incomplete file, RuntimeError for an unreadable file. A budget or currency
// the catalog cannot convert is an error: UsageError for a flag, InputError in a file.
[[nodiscard]] workload::Workload resolve_workload(const WorkloadInput& input,
                                                  const CommonOptions& common,
                                                  const catalog::Catalog& catalog);

} // namespace gpuplan::cli
