#pragma once
// A workload in the compact binary form of the embedded bundle: gpuplan_bundle stores every
// shipped preset this way (BundleIndex::compiled, bundle.hpp), so that `--preset` reads no YAML.

#include "gpuplan/workload/workload.hpp"

#include <string>
#include <string_view>

namespace gpuplan::codecs {

// Serialises a workload.
[[nodiscard]] std::string write_workload_bundle(const workload::Workload& workload);

// Decodes bytes written by write_workload_bundle. Throws RuntimeError when the bytes are not a
// workload of this build's format (truncated, corrupt, an enumerator out of range).
[[nodiscard]] workload::Workload read_workload_bundle(std::string_view bytes);

} // namespace gpuplan::codecs
