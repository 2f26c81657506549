// Fuzzes the embedded-bundle decoders: bytes that are not a bundle of this build's format must be
// refused with RuntimeError, never read out of bounds or allocate without limit. A decoded bundle
// must survive a write/read round trip. Each compiled entry goes through the parsed decision tree
// decoder too, and a tree it accepts through resolve_tree against the decoded catalog and a
// round trip of its own.

#include "codecs/bundle.hpp"
#include "codecs/tree_bundle.hpp"
#include "codecs/workload_bundle.hpp"
#include "gpuplan/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

using NamedBytes = std::vector<std::pair<std::string, std::string>>;

NamedBytes copy(const std::vector<gpuplan::codecs::EmbeddedFile>& entries) {
    NamedBytes out;
    for (const auto& entry : entries) {
        out.emplace_back(std::string(entry.name), std::string(entry.text));
    }
    return out;
}

void check_tree(std::string_view bytes, const gpuplan::catalog::Catalog& catalog) {
    try {
        const gpuplan::decide::ParsedTree parsed = gpuplan::codecs::read_tree_bundle(bytes);
        if (gpuplan::codecs::read_tree_bundle(gpuplan::codecs::write_tree_bundle(parsed)) !=
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
        const gpuplan::workload::Workload w = gpuplan::codecs::read_workload_bundle(bytes);
        if (gpuplan::codecs::read_workload_bundle(gpuplan::codecs::write_workload_bundle(w)) != w) {
            std::abort();
        }
    } catch (const gpuplan::RuntimeError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const gpuplan::codecs::BundleView view = gpuplan::codecs::read_bundle(bytes);
        const std::string again =
            gpuplan::codecs::write_bundle(view.catalog, copy(view.files), copy(view.compiled));
        const gpuplan::codecs::BundleView reread = gpuplan::codecs::read_bundle(again);
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
