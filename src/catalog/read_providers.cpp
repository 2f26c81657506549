// Providers: their defaults, billing, spot and commitment terms, and their list of instances.

#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

namespace {

// A commitment discount below 100%: a free commitment would rank from garbage.
constexpr NumberRange k_discount{0.0, 0.99, false, "a fraction from 0 to 0.99"};

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
    if (!m_file_providers.insert(*name).second) {
        node.get("name")->error(fmt::format("duplicate provider '{}' in this file", *name));
        return;
    }
    const bool overlay = find_provider(m_catalog, *name) != nullptr;
    Provider provider;
    ProviderKeys keys;
    provider.name = *name;
    if (auto display = node.string_at("display_name", !overlay)) {
        provider.display_name = *display;
        keys.display_name = true;
    }
    if (auto currency = node.get("currency")) {
        if (auto code = currency->as_string()) {
            if (!is_currency_code(*code)) {
                currency->error(fmt::format(
                    "expected an ISO 4217 currency code such as USD, got \"{}\"", *code));
            } else {
                provider.currency = *code;
                keys.currency = true;
                defer(PendingReference::Kind::currency, *code, *currency);
            }
        }
    } else if (!overlay) {
        node.error("missing required key 'currency'");
    }
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
    if (auto billing = node.get("billing")) {
        if (billing->expect_map({"granularity_seconds", "minimum_seconds", "source"})) {
            provider.billing.granularity_seconds =
                billing->number_at("granularity_seconds", true, k_positive).value_or(3600.0);
            provider.billing.minimum_seconds =
                billing->number_at("minimum_seconds", false, k_non_negative).value_or(0.0);
            provider.billing.sources = required_sources(*billing);
            keys.billing = true;
        }
    }
    if (auto spot = node.get("spot")) {
        if (spot->expect_map(
                {"interruption_rate_per_node_hour", "notice_seconds", "restart_minutes"})) {
            auto rate =
                parameter_at(*spot, "interruption_rate_per_node_hour", true, k_interruption_rate);
            auto notice = parameter_at(*spot, "notice_seconds", true, k_non_negative);
            auto restart = parameter_at(*spot, "restart_minutes", true, k_non_negative);
            if (rate && notice && restart) {
                provider.spot = SpotTerms{*rate, *notice, *restart};
                keys.spot = true;
            }
        }
    }
    if (auto discounts = node.get("reserved_discounts")) {
        keys.reserved_discounts = true;
        for (const YamlNode& item : discounts->items()) {
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
            provider.reserved_discounts.push_back(std::move(discount));
        }
    }
    if (auto egress = node.get("egress_per_gb")) {
        provider.egress_per_gb = read_parameter(*egress, k_price);
        keys.egress_per_gb = true;
    }
    std::set<std::string> price_overlays;
    if (auto instances = overlay ? node.get("instances") : node.require("instances")) {
        std::set<std::string, std::less<>> seen;
        const Provider* existing = find_provider(m_catalog, *name);
        for (const YamlNode& item : instances->items()) {
            // A type the catalog already has may come as a price overlay.
            bool known_type = false;
            if (existing != nullptr && item.is_map() && item.raw()["type"].IsScalar()) {
                const std::string type = item.raw()["type"].Scalar();
                known_type = std::any_of(existing->instances.begin(), existing->instances.end(),
                                         [&](const Instance& i) { return i.type == type; });
            }
            bool price_rows_only = false;
            auto instance = read_instance(item, known_type, price_rows_only);
            if (!instance || instance->type.empty()) {
                continue;
            }
            if (!seen.insert(instance->type).second) {
                item.get("type")->error(fmt::format("duplicate instance type '{}' in provider '{}'",
                                                    instance->type, *name));
                continue;
            }
            if (price_rows_only) {
                price_overlays.insert(instance->type);
            }
            provider.instances.push_back(std::move(*instance));
        }
    }
    if (auto note = node.string_at("note", false)) {
        provider.note = *note;
        keys.note = true;
    }
    merge_provider(m_catalog, ProviderOverlay{std::move(provider), keys, InstanceMerge::replace,
                                              std::move(price_overlays)});
}

} // namespace gpuplan::catalog::reading
