#pragma once
// Reading a service's load curve and autoscaling policy (docs/workload-format.md
// `inference.load`, `inference.autoscaling`). Private to the workload stage.

#include "detail/yaml_reader.hpp"
#include "gpuplan/workload/reader.hpp"
#include "gpuplan/workload/workload.hpp"

namespace gpuplan::workload {

// Reads `inference.load` into `inference.load`; a CSV file is read through `load` (relative to
// the workload file's folder) and its peak becomes requests_per_second. `rate_given` says whether
// the mapping also states requests_per_second (an error with a CSV).
void read_load(const detail::YamlNode& node, Inference& inference, bool rate_given,
               const FileLoader& load);

// Reads `inference.autoscaling`.
void read_autoscaling(const detail::YamlNode& node, Inference& inference);

// The hourly rates of a CSV file: one rate in requests/s a row, in its last comma-separated
// field; blank lines, `#` comments and a first row that is not a number (a header) are skipped.
// 24 rows are one day repeated, 168 a week, a multiple of 168 several weeks folded into one by
// the largest rate of each hour of the week. Problems go to `sink` at the file's line and
// column, under `path`.
[[nodiscard]] std::vector<double> read_load_csv(const TextFile& file, std::string_view path,
                                                DiagnosticSink& sink);

} // namespace gpuplan::workload
