#include "gpuplan/catalog/diff.hpp"

#include "gpuplan/enum_names.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace gpuplan::catalog {

namespace {

using OfferKey = std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>;

struct Located {
    const PriceRow* row = nullptr;
    const Provider* provider = nullptr;
};

std::map<OfferKey, Located> index_prices(const Catalog& catalog) {
    std::map<OfferKey, Located> out;
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            for (const PriceRow& row : instance.prices) {
                out.emplace(OfferKey{provider.name, instance.type, row.region, row.zone},
                            Located{&row, &provider});
            }
        }
    }
    return out;
}

constexpr std::array<std::pair<std::string_view, std::optional<double> PriceRow::*>, 4> k_fields{{
    {"on_demand", &PriceRow::on_demand},
    {"spot", &PriceRow::spot},
    {"monthly", &PriceRow::monthly},
    {"yearly", &PriceRow::yearly},
}};

} // namespace

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_change_kind_names{
    std::to_array<std::pair<std::string_view, ChangeKind>>({{"added", ChangeKind::added},
                                                            {"removed", ChangeKind::removed},
                                                            {"changed", ChangeKind::changed}})};

std::string_view to_string(ChangeKind kind) {
    return k_change_kind_names.name(kind);
}

namespace {

// Adds to `diff` each price field of one offer that differs between `old_side` and `new_side`
// (either may be null: the offer is only on one side).
void record_offer(CatalogDiff& diff, const OfferKey& key, const Located* old_side,
                  const Located* new_side) {
    const Located& any_side = old_side != nullptr ? *old_side : *new_side;
    const std::string& old_currency = any_side.provider->currency;
    const std::string& new_currency =
        new_side != nullptr ? new_side->provider->currency : old_currency;
    for (const auto& [field, member] : k_fields) {
        const std::optional<double> old_value =
            old_side != nullptr ? old_side->row->*member : std::nullopt;
        const std::optional<double> new_value =
            new_side != nullptr ? new_side->row->*member : std::nullopt;
        if (!old_value && !new_value) {
            continue;
        }
        if (old_value == new_value && old_currency == new_currency) {
            ++diff.unchanged;
            continue;
        }
        PriceChange change;
        change.provider = std::string(std::get<0>(key));
        change.instance = std::string(std::get<1>(key));
        change.region = std::string(std::get<2>(key));
        change.zone = std::string(std::get<3>(key));
        change.field = std::string(field);
        change.kind = !old_value   ? ChangeKind::added
                      : !new_value ? ChangeKind::removed
                                   : ChangeKind::changed;
        change.before = old_value;
        change.after = new_value;
        change.currency = new_currency;
        diff.changes.push_back(std::move(change));
    }
}

} // namespace

CatalogDiff diff_prices(const Catalog& a, const Catalog& b) {
    const auto before = index_prices(a);
    const auto after = index_prices(b);
    CatalogDiff diff;
    // Both maps are ordered by the same key: walk them together.
    auto old_it = before.begin();
    auto new_it = after.begin();
    while (old_it != before.end() || new_it != after.end()) {
        if (new_it == after.end() || (old_it != before.end() && old_it->first < new_it->first)) {
            record_offer(diff, old_it->first, &old_it->second, nullptr);
            ++old_it;
        } else if (old_it == before.end() || new_it->first < old_it->first) {
            record_offer(diff, new_it->first, nullptr, &new_it->second);
            ++new_it;
        } else {
            record_offer(diff, old_it->first, &old_it->second, &new_it->second);
            ++old_it;
            ++new_it;
        }
    }
    return diff;
}

} // namespace gpuplan::catalog
