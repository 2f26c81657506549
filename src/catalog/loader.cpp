#include "gpuplan/catalog/loader.hpp"

#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog {

namespace reading {

namespace {

constexpr std::int64_t k_schema_version = 1;

} // namespace

FileReader::FileReader(const TextFile& file, Catalog& catalog, DiagnosticSink& sink,
                       std::vector<PendingReference>& pending,
                       std::vector<PendingProductReference>& pending_products)
    : m_file(file), m_catalog(catalog), m_pending(pending), m_pending_products(pending_products) {
    m_context.file = file.name;
    m_context.sink = &sink;
}

void FileReader::read() {
    auto root = detail::parse_yaml_document(m_file.text, m_context);
    if (!root) {
        return;
    }
    if (!root->expect_map({"schema_version", "sources", "gpus", "providers", "products",
                           "self_built", "fx", "benchmarks"})) {
        return;
    }
    if (detail::read_schema_version(*root, "catalog", k_schema_version) ==
        detail::SchemaVersion::unsupported) {
        return;
    }
    if (auto sources = root->get("sources")) {
        read_sources(*sources);
    }
    if (auto gpus = root->get("gpus")) {
        read_list(*gpus, [this](const YamlNode& n) { read_gpu(n); });
    }
    if (auto providers = root->get("providers")) {
        read_list(*providers, [this](const YamlNode& n) { read_provider(n); });
    }
    if (auto products = root->get("products")) {
        read_list(*products, [this](const YamlNode& n) { read_product(n); });
    }
    if (auto self_built = root->get("self_built")) {
        read_self_built(*self_built);
    }
    if (auto fx = root->get("fx")) {
        read_fx(*fx);
    }
    if (auto benchmarks = root->get("benchmarks")) {
        read_list(*benchmarks, [this](const YamlNode& n) { read_benchmark(n); });
    }
}

} // namespace reading

namespace {

Catalog load_into(Catalog catalog, std::span<const TextFile> files, DiagnosticSink& sink) {
    std::vector<reading::PendingReference> pending;
    std::vector<reading::PendingProductReference> pending_products;
    for (const TextFile& file : files) {
        reading::FileReader(file, catalog, sink, pending, pending_products).read();
        catalog.files.push_back(file.name);
        catalog.digest = fnv1a64_hex(file.text, catalog.digest);
    }
    reading::check_references(catalog, pending, sink);
    reading::check_site(catalog, sink);
    reading::check_products(catalog, pending_products, sink);
    return catalog;
}

} // namespace

std::string register_source(Catalog& catalog, Source source, std::string_view origin) {
    std::string key = source.id;
    for (int attempt = 0;; ++attempt) {
        auto it = catalog.sources.find(key);
        if (it == catalog.sources.end()) {
            source.id = key;
            catalog.sources.emplace(key, std::move(source));
            return key;
        }
        Source candidate = source;
        candidate.id = key;
        if (it->second == candidate) {
            return key;
        }
        key = attempt == 0 ? fmt::format("{}@{}", source.id, origin)
                           : fmt::format("{}@{}#{}", source.id, origin, attempt);
    }
}

std::string fnv1a64_hex(std::string_view text, std::string_view seed) {
    constexpr std::uint64_t k_offset = 0xcbf29ce484222325ULL;
    constexpr std::uint64_t k_prime = 0x100000001b3ULL;
    std::uint64_t hash = k_offset;
    for (char c : seed) {
        hash = (hash ^ static_cast<unsigned char>(c)) * k_prime;
    }
    for (char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * k_prime;
    }
    return fmt::format("{:016x}", hash);
}

Catalog load_catalog(std::span<const TextFile> files) {
    DiagnosticSink sink;
    Catalog catalog = load_into(Catalog{}, files, sink);
    sink.throw_if_any();
    return catalog;
}

Catalog overlay_catalog(Catalog base, std::span<const TextFile> files) {
    DiagnosticSink sink;
    Catalog catalog = load_into(std::move(base), files, sink);
    sink.throw_if_any();
    return catalog;
}

std::vector<Diagnostic> validate_catalog(std::span<const TextFile> files) {
    DiagnosticSink sink;
    (void)load_into(Catalog{}, files, sink);
    return sink.diagnostics();
}

} // namespace gpuplan::catalog
