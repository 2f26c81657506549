#pragma once
// Reading catalog files: YAML text in, a merged and cross-checked Catalog out.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/text_file.hpp"

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::catalog {

// Loads `files` in order, later entities overriding earlier ones (docs/catalog-format.md,
// "Overlays"), and checks references across all of them. Throws InputError with every problem.
[[nodiscard]] Catalog load_catalog(std::span<const TextFile> files);

// Applies overlay files on top of an already loaded catalog; throws InputError.
[[nodiscard]] Catalog overlay_catalog(Catalog base, std::span<const TextFile> files);

// Every problem in `files` (empty when they form a valid catalog); never throws.
[[nodiscard]] std::vector<Diagnostic> validate_catalog(std::span<const TextFile> files);

// The provider-level keys a later catalog file or feed states; keys it does not state keep the
// earlier provider's values.
struct ProviderKeys {
    bool display_name = false;
    bool currency = false;
    bool as_of = false;
    bool sources = false;
    bool billing = false;
    bool spot = false;
    bool reserved_discounts = false;
    bool egress_per_gb = false;
    bool note = false;
};

// How a later instance merges with an earlier one of the same type: a catalog file replaces it
// whole; a price feed replaces its specs (gpu, gpu_count, vcpus, memory_gib) and its price rows
// and keeps what a feed cannot know (network, NVLink, local disk, reserved prices, note).
enum class InstanceMerge { replace, specs_and_prices };

// A provider as a later file or feed states it.
struct ProviderOverlay {
    Provider provider;
    ProviderKeys keys;
    InstanceMerge instances = InstanceMerge::replace;
    // Instance types stated as price overlays (type and prices only): their rows replace the
    // existing rows of the same (region, zone) and add the others; everything else stays.
    std::set<std::string> price_rows_only;
};

// Merges `later` into `catalog` by the overlay rules of docs/catalog-format.md: a new provider
// is added whole; an existing one takes the stated keys and merges instances by type.
void merge_provider(Catalog& catalog, ProviderOverlay later);

// Adds `source` to catalog.sources under its own id, or under `id@origin` when a different source
// already has the id; returns the id it was registered under.
[[nodiscard]] std::string register_source(Catalog& catalog, Source source, std::string_view origin);

// Providers read from one price feed (gpuplan catalog import, --catalog FILE.csv), the sources
// they cite (by the ids used in the providers) and the GPU models they need that `base` may
// lack (taken from the embedded catalog, so a feed can stand alone).
struct FeedOverlay {
    std::vector<std::string> names;      // file names, for Catalog::files
    std::vector<std::string_view> texts; // the files' bytes, chained into Catalog::digest
    // The base catalog's digest chained over `texts` when the reader computed it already (beside
    // the parse, see cli::apply_catalog_paths); overlay_feed chains the texts itself otherwise.
    std::optional<std::string> digest;
    std::vector<Provider> providers;
    std::vector<Source> sources;
    std::vector<Gpu> gpus;
};

// Applies a feed on top of `base`: its GPU models are added when `base` lacks them (with the
// sources they cite), its sources registered, and each provider merged with
// InstanceMerge::specs_and_prices. Throws InputError when a provider's currency has no rate.
[[nodiscard]] Catalog overlay_feed(Catalog base, FeedOverlay feed,
                                   const std::map<std::string, Source>& gpu_sources = {});

// FNV-1a 64-bit hash, as 16 lower-case hex digits; chained over files for the catalog digest.
[[nodiscard]] std::string fnv1a64_hex(std::string_view text, std::string_view seed = {});

} // namespace gpuplan::catalog
