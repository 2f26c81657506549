#include "codecs/bundle.hpp"

#include "codecs/binary_codec.hpp"
#include "codecs/catalog_members.hpp"
#include "gpuplan/error.hpp"

namespace gpuplan::codecs {

namespace {

// Bumped whenever a serialised type changes shape; the bundle is rebuilt with the binary, so a
// mismatch means a stale build directory.
constexpr Header k_bundle_header{0x47505531, 8}; // "GPU1", format 8

using NamedBytes = std::vector<std::pair<std::string, std::string>>;

void write_named(BinaryWriter& writer, const NamedBytes& entries) {
    writer(static_cast<std::uint64_t>(entries.size()));
    for (const auto& [name, bytes] : entries) {
        writer(name);
        writer(bytes);
    }
}

std::vector<EmbeddedFile> read_named(BinaryReader& reader) {
    std::vector<EmbeddedFile> out;
    std::uint64_t count = 0;
    reader(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t size = 0;
        reader(size);
        std::string_view name = reader.view(size);
        reader(size);
        std::string_view text = reader.view(size);
        out.push_back({name, text});
    }
    return out;
}

} // namespace

std::string write_bundle(const catalog::Catalog& catalog, const NamedBytes& files,
                         const NamedBytes& compiled) {
    BinaryWriter writer;
    write_header(writer, k_bundle_header);
    // The files first and the catalog last, so that the files are found without decoding it.
    write_named(writer, files);
    write_named(writer, compiled);
    writer(catalog);
    return writer.take();
}

BundleIndex index_bundle(std::string_view bytes) {
    BinaryReader reader(bytes, "embedded catalog bundle");
    read_header(reader, k_bundle_header);
    BundleIndex out;
    out.files = read_named(reader);
    out.compiled = read_named(reader);
    out.catalog = reader.rest();
    return out;
}

catalog::Catalog read_bundle_catalog(std::string_view encoded) {
    BinaryReader reader(encoded, "embedded catalog bundle");
    catalog::Catalog catalog;
    reader(catalog);
    if (!reader.at_end()) {
        reader.corrupt();
    }
    return catalog;
}

BundleView read_bundle(std::string_view bytes) {
    BundleIndex index = index_bundle(bytes);
    return {read_bundle_catalog(index.catalog), std::move(index.files), std::move(index.compiled)};
}

} // namespace gpuplan::codecs
