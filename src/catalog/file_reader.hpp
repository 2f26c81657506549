#pragma once
// Reading one catalog file into a partial catalog: the FileReader of the loader, whose sections
// are read in read_*.cpp, and the checks that run once every file is merged. Private to the
// loader (src/catalog/loader.cpp and its read_*.cpp, check_references.cpp).

#include "detail/sources.hpp"
#include "detail/yaml_reader.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/text_file.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuplan::catalog::reading {

using detail::k_fraction;
using detail::k_non_negative;
using detail::k_positive;
using detail::NumberRange;
using detail::YamlNode;

inline constexpr NumberRange k_price{0.0, limits::k_max_price_per_hour, false,
                                     "a non-negative price"};
// Spot interruptions per node-hour: published rates are below 0.2; above one an hour the spot
// model's restart arithmetic grows exponentially (docs/limits.md).
inline constexpr NumberRange k_interruption_rate{0.0, k_max_interruption_rate_per_node_hour, false,
                                                 "a non-negative number"};

// A name that must resolve once every file is merged: a GPU or a currency.
// A slice (kind `slice`) names its instance's GPU and is checked against it: its MIG profile
// must be one of the GPU's, its stated memory at most the GPU's.
struct PendingReference {
    enum class Kind { gpu, currency, slice } kind = Kind::gpu;
    std::string name;
    Diagnostic where;
    std::string mig_profile;
    std::optional<double> slice_memory_gib;
};

// A name in a `products` entry that must resolve once every file is merged: a provider, or an
// instance type of it (a published commitment price).
// Checks a name that becomes part of an option id (`provider/region/instance/purchase`): it may
// not be empty nor hold a `/`, or two options could share an id. Reports at `node`'s key.
void check_id_part(const YamlNode& node, std::string_view key, std::string_view value,
                   bool required);

struct PendingProductReference {
    std::string provider;
    std::string instance; // empty: the provider only
    Diagnostic where;
};

// The (region, zone) of every price row an instance has so far.
using PriceRowKeys = std::set<std::pair<std::string, std::string>>;

// Replaces the first of `items` that `same` matches with `item`, or appends `item`: a later file
// overrides an entity of an earlier one.
template <class T, class Same>
void replace_or_append(std::vector<T>& items, std::type_identity_t<T>&& item, Same same) {
    auto it = std::find_if(items.begin(), items.end(), same);
    if (it != items.end()) {
        *it = std::move(item);
    } else {
        items.push_back(std::move(item));
    }
}

// A commitment term (`1y`, `3y`); nullopt (reported) otherwise.
[[nodiscard]] std::optional<Term> read_term(const YamlNode& node);
// A payment option (`no_upfront`, `partial_upfront`, `all_upfront`); nullopt (reported) otherwise.
[[nodiscard]] std::optional<Payment> read_payment(const YamlNode& node);
// The share paid upfront: fixed by `payment` except for partial upfront (default one half).
[[nodiscard]] double read_upfront_fraction(const YamlNode& node, Payment payment);

// Reads one file into a partial catalog. Sources get catalog-wide ids as they are registered.
class FileReader {
public:
    FileReader(const TextFile& file, Catalog& catalog, DiagnosticSink& sink,
               std::vector<PendingReference>& pending,
               std::vector<PendingProductReference>& pending_products);

    // Parses the file and merges what it holds into the catalog.
    void read();

private:
    template <class Fn> void read_list(const YamlNode& node, Fn&& fn) {
        for (const YamlNode& item : node.items()) {
            fn(item);
        }
    }

    // Values every section reads (read_values.cpp).
    void defer(PendingReference::Kind kind, const std::string& name, const YamlNode& node);
    void read_sources(const YamlNode& node);
    std::string register_source(Source source);
    std::vector<std::string> read_source_refs(const YamlNode& node);
    std::vector<std::string> required_sources(const YamlNode& node);
    std::optional<Parameter> read_parameter(const YamlNode& node, const NumberRange& range);
    std::optional<Parameter> parameter_at(const YamlNode& parent, std::string_view key,
                                          bool required, const NumberRange& range);
    // An ISO 4217 code, deferred until the exchange rates are known; nullopt (reported) when the
    // node is not one.
    std::optional<std::string> read_currency(const YamlNode& node);
    // The GPU model named under the required key `gpu`, deferred until every file is read;
    // empty (reported) when there is none.
    std::string required_gpu(const YamlNode& node);

    // GPU models and benchmarks (read_gpus.cpp).
    void read_gpu(const YamlNode& node);
    [[nodiscard]] const Gpu* clashing_gpu(const Gpu& gpu) const;
    void read_benchmark(const YamlNode& node);

    // Providers (read_providers.cpp).
    void read_provider(const YamlNode& node);
    void read_provider_currency(const YamlNode& node, bool overlay, Provider& provider,
                                ProviderKeys& keys);
    void read_provider_defaults(const YamlNode& node, bool overlay, Provider& provider,
                                ProviderKeys& keys);
    bool read_billing(const YamlNode& node, Billing& billing);
    std::optional<SpotTerms> read_spot(const YamlNode& node);
    void read_reserved_discounts(const YamlNode& node, std::vector<ReservedDiscount>& discounts);
    void read_instances(const YamlNode& node, const Provider* existing, Provider& provider,
                        std::set<std::string>& price_overlays);

    // Instances and their prices (read_instances.cpp).
    std::optional<Instance> read_instance(const YamlNode& node, bool price_overlay,
                                          bool& price_rows_only);
    void read_gpu_share(const YamlNode& node, Instance& instance);
    void read_price_overlay(const YamlNode& node, Instance& instance);
    void read_price_rows(const YamlNode& node, Instance& instance);
    void read_price_row(const YamlNode& node, Instance& instance, PriceRowKeys& seen);
    void read_reserved_price(const YamlNode& node, Instance& instance);
    // A commitment price's fields (term, payment, price, upfront share, region, source, date).
    ReservedPrice read_reserved_fields(const YamlNode& node);

    // Product facts: clusters, capacity, start-up, commitments sold (read_products.cpp).
    void read_product(const YamlNode& node);
    // A product's clusters, commitments sold and published commitment prices.
    void read_product_lists(const YamlNode& node, const std::string& name, Product& product);
    std::optional<Cluster> read_cluster(const YamlNode& node);
    std::optional<CommitmentSale> read_commitment_sale(const YamlNode& node);
    void read_product_resells(const YamlNode& node, Product& product);
    std::optional<Resale> read_resale(const YamlNode& node);
    void read_product_spot_bands(const YamlNode& node, const std::string& name, Product& product);
    std::optional<SpotBand> read_spot_band(const YamlNode& node);

    // Self-built servers and their site (read_self_built.cpp).
    void read_self_built(const YamlNode& node);
    void read_site(const YamlNode& node, Site& site);
    void read_resale_curve(const YamlNode& node, Site& site);
    void read_builds(const YamlNode& node, std::vector<Build>& builds);
    bool read_build(const YamlNode& node, Build& build);

    // Exchange rates (read_fx.cpp).
    void read_fx(const YamlNode& node);

    const TextFile& m_file;
    Catalog& m_catalog;
    std::vector<PendingReference>& m_pending;
    std::vector<PendingProductReference>& m_pending_products;
    detail::YamlContext m_context;
    detail::SourceIds m_local_sources;
    std::vector<Gpu> m_file_gpus;
    std::set<std::string, std::less<>> m_file_providers;
};

// Reports every pending reference that does not resolve in the merged catalog, then gives every
// GPU reference its model's canonical name.
void check_references(Catalog& catalog, const std::vector<PendingReference>& pending,
                      DiagnosticSink& sink);

// Reports every `products` entry whose provider or instance type the merged catalog lacks.
void check_products(const Catalog& catalog, const std::vector<PendingProductReference>& pending,
                    DiagnosticSink& sink);

// Reports the site parameters self-built builds need and the merged catalog lacks.
void check_site(const Catalog& catalog, DiagnosticSink& sink);

} // namespace gpuplan::catalog::reading
