#pragma once
// A workload in the compact binary form of the embedded bundle: gpuplan_bundle stores every
// shipped preset this way (catalog::BundleIndex::compiled), so that `--preset` reads no YAML.

#include "gpuplan/workload/workload.hpp"

#include <string>
#include <string_view>

namespace gpuplan::workload {

// Serialises a workload.
[[nodiscard]] std::string write_workload_bundle(const Workload& workload);

// Decodes bytes written by write_workload_bundle. Throws RuntimeError when the bytes are not a
// workload of this build's format (truncated, corrupt, an enumerator out of range).
[[nodiscard]] Workload read_workload_bundle(std::string_view bytes);

} // namespace gpuplan::workload
