// Fuzzes the embedded-bundle decoders: bytes that are not a bundle of this build's format must be
// refused with RuntimeError, never read out of bounds or allocate without limit. A decoded bundle
// must survive a write/read round trip. Each compiled entry goes through the parsed decision tree
// decoder too, and a tree it accepts through resolve_tree against the decoded catalog and a
// round trip of its own.

#include "gpuplan/catalog/bundle.hpp"
#include "gpuplan/decide/tree_bundle.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/workload/workload_bundle.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

using NamedBytes = std::vector<std::pair<std::string, std::string>>;

NamedBytes copy(const std::vector<gpuplan::catalog::EmbeddedFile>& entries) {
    NamedBytes out;
    for (const auto& entry : entries) {
        out.emplace_back(std::string(entry.name), std::string(entry.text));
    }
    return out;
}

void check_tree(std::string_view bytes, const gpuplan::catalog::Catalog& catalog) {
    try {
        const gpuplan::decide::ParsedTree parsed = gpuplan::decide::read_tree_bundle(bytes);
        if (gpuplan::decide::read_tree_bundle(gpuplan::decide::write_tree_bundle(parsed)) !=
            parsed) {
            std::abort();
        }
        (void)gpuplan::decide::resolve_tree(parsed, &catalog, gpuplan::decide::UnknownGpus::error);
    } catch (const gpuplan::RuntimeError&) {
    } catch (const gpuplan::InputError&) {
    }
}

// A compiled workload preset decodes, or is refused, and re-encodes to the same value.
void check_workload(std::string_view bytes) {
    try {
        const gpuplan::workload::Workload w = gpuplan::workload::read_workload_bundle(bytes);
        if (gpuplan::workload::read_workload_bundle(gpuplan::workload::write_workload_bundle(w)) !=
            w) {
            std::abort();
        }
    } catch (const gpuplan::RuntimeError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const gpuplan::catalog::BundleView view = gpuplan::catalog::read_bundle(bytes);
        const std::string again =
            gpuplan::catalog::write_bundle(view.catalog, copy(view.files), copy(view.compiled));
        const gpuplan::catalog::BundleView reread = gpuplan::catalog::read_bundle(again);
        if (reread.files.size() != view.files.size() ||
            reread.compiled.size() != view.compiled.size()) {
            std::abort();
        }
        for (const auto& entry : view.compiled) {
            check_tree(entry.text, view.catalog);
            check_workload(entry.text);
        }
    } catch (const gpuplan::RuntimeError&) {
    }
    return 0;
}
