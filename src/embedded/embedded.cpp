#include "gpuplan/embedded.hpp"

extern "C" {
extern const char gpuplan_embedded_bundle_begin[];
extern const char gpuplan_embedded_bundle_end[];
}

namespace gpuplan::embedded {

const catalog::BundleIndex& index() {
    static const catalog::BundleIndex indexed = catalog::index_bundle(std::string_view(
        gpuplan_embedded_bundle_begin,
        static_cast<std::size_t>(gpuplan_embedded_bundle_end - gpuplan_embedded_bundle_begin)));
    return indexed;
}

const catalog::Catalog& catalog() {
    static const catalog::Catalog decoded = decode_catalog();
    return decoded;
}

catalog::Catalog decode_catalog() {
    return catalog::read_bundle_catalog(index().catalog);
}

namespace {

std::optional<std::string_view> find(const std::vector<catalog::EmbeddedFile>& entries,
                                     std::string_view name) {
    for (const catalog::EmbeddedFile& entry : entries) {
        if (entry.name == name) {
            return entry.text;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string_view> file(std::string_view name) {
    return find(index().files, name);
}

std::optional<std::string_view> compiled(std::string_view name) {
    return find(index().compiled, name);
}

} // namespace gpuplan::embedded
