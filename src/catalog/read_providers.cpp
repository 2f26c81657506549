// Providers: their defaults, billing, spot and commitment terms, and their list of instances.

#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

namespace {

// A commitment discount below 100%: a free commitment would rank from garbage.
constexpr NumberRange k_discount{0.0, 0.99, false, "a fraction from 0 to 0.99"};

// Whether `node` is an instance whose type `existing` (the provider as the catalog has it so far)
// already has.
bool is_known_type(const Provider* existing, const YamlNode& node) {
    if (existing == nullptr || !node.is_map() || !node.raw()["type"].IsScalar()) {
        return false;
    }
    const std::string type = node.raw()["type"].Scalar();
    return std::any_of(existing->instances.begin(), existing->instances.end(),
                       [&](const Instance& i) { return i.type == type; });
}

} // namespace

void FileReader::read_provider(const YamlNode& node) {
    if (!node.expect_map({"name", "display_name", "currency", "as_of", "source", "billing", "spot",
                          "reserved_discounts", "egress_per_gb", "instances", "note"})) {
        return;
    }
    auto name = node.string_at("name", true);
    if (!name) {
        return;
    }
    check_id_part(node, "name", *name, true);
    if (!m_file_providers.insert(*name).second) {
        node.get("name")->error(fmt::format("duplicate provider '{}' in this file", *name));
        return;
    }
    const Provider* existing = find_provider(m_catalog, *name);
    const bool overlay = existing != nullptr;
    Provider provider;
    ProviderKeys keys;
    provider.name = *name;
    if (auto display = node.string_at("display_name", !overlay)) {
        provider.display_name = *display;
        keys.display_name = true;
    }
    read_provider_currency(node, overlay, provider, keys);
    read_provider_defaults(node, overlay, provider, keys);
    if (auto billing = node.get("billing")) {
        keys.billing = read_billing(*billing, provider.billing);
    }
    if (auto spot = node.get("spot")) {
        provider.spot = read_spot(*spot);
        keys.spot = provider.spot.has_value();
    }
    if (auto discounts = node.get("reserved_discounts")) {
        keys.reserved_discounts = true;
        read_reserved_discounts(*discounts, provider.reserved_discounts);
    }
    if (auto egress = node.get("egress_per_gb")) {
        provider.egress_per_gb = read_parameter(*egress, k_price);
        keys.egress_per_gb = true;
    }
    std::set<std::string> price_overlays;
    if (auto instances = overlay ? node.get("instances") : node.require("instances")) {
        read_instances(*instances, existing, provider, price_overlays);
    }
    if (auto note = node.string_at("note", false)) {
        provider.note = *note;
        keys.note = true;
    }
    merge_provider(m_catalog, ProviderOverlay{std::move(provider), keys, InstanceMerge::replace,
                                              std::move(price_overlays)});
}

// The provider's currency: required of a new provider, optional in an overlay.
void FileReader::read_provider_currency(const YamlNode& node, bool overlay, Provider& provider,
                                        ProviderKeys& keys) {
    if (auto currency = node.get("currency")) {
        if (auto code = read_currency(*currency)) {
            provider.currency = std::move(*code);
            keys.currency = true;
        }
    } else if (!overlay) {
        node.error("missing required key 'currency'");
    }
}

// The date and sources every price row of the provider inherits unless it states its own.
void FileReader::read_provider_defaults(const YamlNode& node, bool overlay, Provider& provider,
                                        ProviderKeys& keys) {
    if (auto as_of = overlay ? node.get("as_of") : node.require("as_of")) {
        if (auto date = as_of->as_date()) {
            provider.as_of = *date;
            keys.as_of = true;
        }
    }
    if (auto source = overlay ? node.get("source") : node.require("source")) {
        provider.sources = read_source_refs(*source);
        keys.sources = true;
    }
}

// Returns whether the billing section was a mapping (and so is stated).
bool FileReader::read_billing(const YamlNode& node, Billing& billing) {
    if (!node.expect_map({"granularity_seconds", "minimum_seconds", "source"})) {
        return false;
    }
    billing.granularity_seconds =
        node.number_at("granularity_seconds", true, k_positive).value_or(3600.0);
    billing.minimum_seconds =
        node.number_at("minimum_seconds", false, k_non_negative).value_or(0.0);
    billing.sources = required_sources(node);
    return true;
}

// The spot terms; nullopt unless all three parameters read.
std::optional<SpotTerms> FileReader::read_spot(const YamlNode& node) {
    if (!node.expect_map(
            {"interruption_rate_per_node_hour", "notice_seconds", "restart_minutes"})) {
        return std::nullopt;
    }
    auto rate = parameter_at(node, "interruption_rate_per_node_hour", true, k_interruption_rate);
    auto notice = parameter_at(node, "notice_seconds", true, k_non_negative);
    auto restart = parameter_at(node, "restart_minutes", true, k_non_negative);
    if (rate && notice && restart) {
        return SpotTerms{std::move(*rate), std::move(*notice), std::move(*restart)};
    }
    return std::nullopt;
}

void FileReader::read_reserved_discounts(const YamlNode& node,
                                         std::vector<ReservedDiscount>& discounts) {
    for (const YamlNode& item : node.items()) {
        if (!item.expect_map(
                {"term", "payment", "discount", "upfront_fraction", "default", "source"})) {
            continue;
        }
        ReservedDiscount discount;
        if (auto term = item.require("term")) {
            discount.term = read_term(*term).value_or(Term::one_year);
        }
        if (auto payment = item.require("payment")) {
            discount.payment = read_payment(*payment).value_or(Payment::no_upfront);
        }
        discount.discount = item.number_at("discount", true, k_discount).value_or(0.0);
        discount.upfront_fraction = read_upfront_fraction(item, discount.payment);
        if (auto is_default = item.get("default")) {
            discount.is_default = is_default->as_bool().value_or(false);
        }
        discount.sources = required_sources(item);
        discounts.push_back(std::move(discount));
    }
}

// Reads the provider's instances, each type once; `price_overlays` gets the types stated as price
// overlays of `existing`'s instances.
void FileReader::read_instances(const YamlNode& node, const Provider* existing, Provider& provider,
                                std::set<std::string>& price_overlays) {
    std::set<std::string, std::less<>> seen;
    for (const YamlNode& item : node.items()) {
        // A type the catalog already has may come as a price overlay.
        bool price_rows_only = false;
        auto instance = read_instance(item, is_known_type(existing, item), price_rows_only);
        if (!instance || instance->type.empty()) {
            continue;
        }
        if (!seen.insert(instance->type).second) {
            item.get("type")->error(fmt::format("duplicate instance type '{}' in provider '{}'",
                                                instance->type, provider.name));
            continue;
        }
        if (price_rows_only) {
            price_overlays.insert(instance->type);
        }
        provider.instances.push_back(std::move(*instance));
    }
}

} // namespace gpuplan::catalog::reading
