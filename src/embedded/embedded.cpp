#include "gpuplan/embedded.hpp"

#include "codecs/bundle.hpp"
#include "codecs/tree_bundle.hpp"
#include "codecs/workload_bundle.hpp"
#include "gpuplan/error.hpp"

#include <vector>

extern "C" {
extern const char gpuplan_embedded_bundle_begin[];
extern const char gpuplan_embedded_bundle_end[];
}

namespace gpuplan::embedded {

namespace {

constexpr std::string_view k_decision_tree = "decision_tree.yaml";

// The bundle's files and compiled forms, indexed on first use; its catalog is not decoded.
const codecs::BundleIndex& index() {
    static const codecs::BundleIndex indexed = codecs::index_bundle(std::string_view(
        gpuplan_embedded_bundle_begin,
        static_cast<std::size_t>(gpuplan_embedded_bundle_end - gpuplan_embedded_bundle_begin)));
    return indexed;
}

std::optional<std::string_view> find(const std::vector<codecs::EmbeddedFile>& entries,
                                     std::string_view name) {
    for (const codecs::EmbeddedFile& entry : entries) {
        if (entry.name == name) {
            return entry.text;
        }
    }
    return std::nullopt;
}

} // namespace

std::span<const File> files() {
    static const std::vector<File> listed = [] {
        std::vector<File> out;
        out.reserve(index().files.size());
        for (const codecs::EmbeddedFile& entry : index().files) {
            out.push_back({entry.name, entry.text});
        }
        return out;
    }();
    return listed;
}

std::optional<std::string_view> file(std::string_view name) {
    return find(index().files, name);
}

const catalog::Catalog& catalog() {
    static const catalog::Catalog decoded = decode_catalog();
    return decoded;
}

catalog::Catalog decode_catalog() {
    return codecs::read_bundle_catalog(index().catalog);
}

decide::Tree decision_tree(const catalog::Catalog& catalog) {
    const auto bytes = compiled(k_decision_tree);
    if (!bytes) {
        throw RuntimeError("gpuplan: internal error: this build ships no decision tree");
    }
    return decide::resolve_tree(codecs::read_tree_bundle(*bytes), &catalog);
}

std::optional<workload::Workload> compiled_preset(std::string_view name) {
    if (const auto bytes = compiled(name)) {
        return codecs::read_workload_bundle(*bytes);
    }
    return std::nullopt;
}

std::optional<std::string_view> compiled(std::string_view name) {
    return find(index().compiled, name);
}

} // namespace gpuplan::embedded
