#pragma once
// Reading a workload from a mapping inside another document (a portfolio's inline workload), with
// the diagnostics of read_workload at their places in that document. Private to the readers.

#include "detail/yaml_reader.hpp"
#include "gpuplan/workload/reader.hpp"
#include "gpuplan/workload/workload.hpp"

#include <span>
#include <string>

namespace gpuplan::workload {

// Reads the workload mapping `root` into `workload` (its name stays unless the mapping names
// one), recording every problem in root's sink; `currencies` and `places` as read_workload
// takes them.
void read_workload_node(const detail::YamlNode& root, Workload& workload,
                        std::span<const std::string> currencies, const KnownPlaces& places = {},
                        const FileLoader& load = {});

// Records "incomplete workload: missing ..." at `root`'s data or model section for each field
// `workload` still lacks, each field with `hint`'s name for it.
void report_missing(const detail::YamlNode& root, const Workload& workload,
                    FieldHint hint = nullptr);

} // namespace gpuplan::workload
