// Product facts: how a provider sells nodes together and links them, how it holds capacity,
// how long a machine takes to start, where it sells commitments and their published prices.

#include "detail/strings.hpp"
#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

namespace {

// Node counts of a cluster product: whole, at least one.
constexpr NumberRange k_node_count{1.0, 100'000.0, false, "a whole number of nodes from 1"};
// Start-up minutes: a machine that takes more than a day to start is a lead time, not a start.
constexpr NumberRange k_startup_minutes{0.0, 1'440.0, false, "minutes from 0 to 1440"};
// Scale-out bandwidth per node, Gbps: 0 to 100 Tbps.
constexpr NumberRange k_gbps{0.0, 100'000.0, true, "a positive number of Gbps up to 100000"};
// A price's maximum age: a day to ten years.
constexpr NumberRange k_age_days{1.0, 3'650.0, false, "days from 1 to 3650"};

std::optional<int> whole_count(const YamlNode& node, std::string_view key) {
    auto value = node.number_at(key, false, k_node_count);
    if (!value) {
        return std::nullopt;
    }
    if (*value != std::floor(*value)) {
        node.get(key)->error(fmt::format("expected a whole number, got {:g}", *value));
        return std::nullopt;
    }
    return static_cast<int>(*value);
}

std::vector<std::string> instance_patterns(const YamlNode& node) {
    auto instances = node.require("instances");
    if (!instances) {
        return {};
    }
    auto names = instances->as_string_list();
    if (names && names->empty()) {
        instances->error("expected at least one instance type");
    }
    return names.value_or(std::vector<std::string>{});
}

// One of `names` but the first (`unknown`, which a file never states), as its enumerator.
template <class E, std::size_t N>
std::optional<E> stated_choice(const YamlNode& node, const std::array<std::string_view, N>& names) {
    if (auto index =
            node.as_choice(std::vector<std::string_view>(names.begin() + 1, names.end()))) {
        return static_cast<E>(*index + 1);
    }
    return std::nullopt;
}

} // namespace

void FileReader::read_product(const YamlNode& node) {
    if (!node.expect_map({"provider", "capacity", "capacity_source", "startup_minutes", "clusters",
                          "commitments", "reserved_prices", "max_price_age_days", "resells",
                          "spot_bands"})) {
        return;
    }
    auto name = node.string_at("provider", true);
    if (!name) {
        return;
    }
    m_pending_products.push_back({*name, {}, node.get("provider")->diagnostic("")});
    Product* product = nullptr;
    for (Product& p : m_catalog.products) {
        if (detail::iequals(p.provider, *name)) {
            product = &p;
        }
    }
    if (product == nullptr) {
        product = &m_catalog.products.emplace_back();
        product->provider = *name;
    }
    if (auto capacity = node.get("capacity")) {
        product->capacity =
            stated_choice<Capacity>(*capacity, k_capacity_names).value_or(Capacity::unknown);
        if (auto source = node.require("capacity_source")) {
            product->capacity_sources = read_source_refs(*source);
        }
    }
    if (node.get("startup_minutes")) {
        product->startup_minutes = parameter_at(node, "startup_minutes", false, k_startup_minutes);
    }
    if (node.get("max_price_age_days")) {
        product->max_price_age_days = parameter_at(node, "max_price_age_days", false, k_age_days);
    }
    read_product_lists(node, *name, *product);
    // Sorted by instance type (stable: a later price of the same type stays later), so a type's
    // published prices are one equal_range away (cost's for_each_reserved).
    std::stable_sort(product->reserved_prices.begin(), product->reserved_prices.end(),
                     [](const ProductReservedPrice& a, const ProductReservedPrice& b) {
                         return a.instance < b.instance;
                     });
}

void FileReader::read_product_lists(const YamlNode& node, const std::string& name,
                                    Product& product) {
    if (auto clusters = node.get("clusters")) {
        for (const YamlNode& item : clusters->items()) {
            if (auto cluster = read_cluster(item)) {
                product.clusters.push_back(std::move(*cluster));
            }
        }
    }
    if (auto commitments = node.get("commitments")) {
        if (!product.commitments) {
            product.commitments.emplace();
        }
        for (const YamlNode& item : commitments->items()) {
            if (auto sale = read_commitment_sale(item)) {
                product.commitments->push_back(std::move(*sale));
            }
        }
    }
    read_product_resells(node, product);
    read_product_spot_bands(node, name, product);
    if (auto prices = node.get("reserved_prices")) {
        for (const YamlNode& item : prices->items()) {
            if (!item.expect_map({"instance", "term", "payment", "effective_per_hour",
                                  "upfront_fraction", "region", "source", "as_of"})) {
                continue;
            }
            auto instance = item.string_at("instance", true);
            ReservedPrice price = read_reserved_fields(item);
            if (instance) {
                m_pending_products.push_back(
                    {name, *instance, item.get("instance")->diagnostic("")});
                product.reserved_prices.push_back({*instance, std::move(price)});
            }
        }
    }
}

std::optional<Cluster> FileReader::read_cluster(const YamlNode& node) {
    if (!node.expect_map({"instances", "fabric", "gbps_per_node", "sold_as", "min_nodes",
                          "max_nodes", "nvlink_domain", "source", "note"})) {
        return std::nullopt;
    }
    Cluster cluster;
    cluster.instances = instance_patterns(node);
    if (auto fabric = node.require("fabric")) {
        cluster.fabric = stated_choice<Fabric>(*fabric, k_fabric_names).value_or(Fabric::unknown);
    }
    cluster.gbps_per_node = node.number_at("gbps_per_node", false, k_gbps);
    if (cluster.fabric != Fabric::none && cluster.fabric != Fabric::unknown &&
        !cluster.gbps_per_node && node.get("fabric")) {
        node.error("missing required key 'gbps_per_node' (a fabric's bandwidth per node)");
    }
    if (auto sold_as = node.require("sold_as")) {
        cluster.sold_as =
            stated_choice<SoldAs>(*sold_as, k_sold_as_names).value_or(SoldAs::unknown);
    }
    cluster.min_nodes = whole_count(node, "min_nodes");
    cluster.max_nodes = whole_count(node, "max_nodes");
    if (cluster.min_nodes && cluster.max_nodes && *cluster.min_nodes > *cluster.max_nodes) {
        node.get("max_nodes")
            ->error(fmt::format("max_nodes {} is below min_nodes {}", *cluster.max_nodes,
                                *cluster.min_nodes));
    }
    cluster.nvlink_domain = whole_count(node, "nvlink_domain");
    cluster.sources = required_sources(node);
    cluster.note = node.string_at("note", false).value_or("");
    return cluster;
}

void FileReader::read_product_resells(const YamlNode& node, Product& product) {
    if (auto resells = node.get("resells")) {
        for (const YamlNode& item : resells->items()) {
            if (auto resale = read_resale(item)) {
                m_pending_products.push_back(
                    {resale->origin, {}, item.get("origin")->diagnostic("")});
                product.resells.push_back(std::move(*resale));
            }
        }
    }
}

void FileReader::read_product_spot_bands(const YamlNode& node, const std::string& name,
                                         Product& product) {
    if (auto bands = node.get("spot_bands")) {
        for (const YamlNode& item : bands->items()) {
            if (auto band = read_spot_band(item)) {
                m_pending_products.push_back(
                    {name, band->instance, item.get("instance")->diagnostic("")});
                product.spot_bands.push_back(std::move(*band));
            }
        }
    }
}

std::optional<SpotBand> FileReader::read_spot_band(const YamlNode& node) {
    if (!node.expect_map({"instance", "band", "regions", "source", "as_of"})) {
        return std::nullopt;
    }
    SpotBand band;
    auto instance = node.string_at("instance", true);
    auto stated = node.require("band");
    if (!instance || !stated) {
        return std::nullopt;
    }
    band.instance = *instance;
    const auto index = stated->as_choice(
        std::vector<std::string_view>(k_spot_band_names.begin(), k_spot_band_names.end()));
    if (!index) {
        return std::nullopt;
    }
    band.band = static_cast<int>(*index);
    if (auto regions = node.require("regions")) {
        band.regions = regions->as_string_list().value_or(std::vector<std::string>{});
        if (band.regions.empty()) {
            regions->error("expected at least one region");
        }
    }
    band.sources = required_sources(node);
    if (auto as_of = node.get("as_of")) {
        band.as_of = as_of->as_date();
    }
    return band;
}

std::optional<Resale> FileReader::read_resale(const YamlNode& node) {
    if (!node.expect_map({"instances", "origin", "source", "note"})) {
        return std::nullopt;
    }
    Resale resale;
    resale.instances = instance_patterns(node);
    auto origin = node.string_at("origin", true);
    if (!origin) {
        return std::nullopt;
    }
    resale.origin = *origin;
    resale.sources = required_sources(node);
    resale.note = node.string_at("note", false).value_or("");
    return resale;
}

std::optional<CommitmentSale> FileReader::read_commitment_sale(const YamlNode& node) {
    if (!node.expect_map({"instances", "terms", "min_gpus", "source", "note"})) {
        return std::nullopt;
    }
    CommitmentSale sale;
    sale.instances = instance_patterns(node);
    if (auto terms = node.require("terms")) {
        for (const YamlNode& item : terms->items()) {
            if (auto term = read_term(item)) {
                sale.terms.push_back(*term);
            }
        }
    }
    sale.min_gpus = whole_count(node, "min_gpus");
    sale.sources = required_sources(node);
    sale.note = node.string_at("note", false).value_or("");
    return sale;
}

void check_products(const Catalog& catalog, const std::vector<PendingProductReference>& pending,
                    DiagnosticSink& sink) {
    for (const PendingProductReference& ref : pending) {
        const Provider* provider = find_provider(catalog, ref.provider);
        if (provider == nullptr) {
            Diagnostic d = ref.where;
            d.message =
                fmt::format("unknown provider '{}': no such provider in `providers`", ref.provider);
            sink.add(std::move(d));
            continue;
        }
        if (!ref.instance.empty() &&
            std::none_of(provider->instances.begin(), provider->instances.end(),
                         [&](const Instance& i) { return i.type == ref.instance; })) {
            Diagnostic d = ref.where;
            d.message = fmt::format("unknown instance type '{}' of provider '{}'", ref.instance,
                                    ref.provider);
            sink.add(std::move(d));
        }
    }
}

} // namespace gpuplan::catalog::reading
