#pragma once
// The ways to commit in advance (reservations and prepaid subscriptions) and the payment plans a
// region offers for each, as the cash-flow model's Commitment.

#include "cost/regions.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/purchase.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <vector>

namespace gpuplan::cost::detail {

// One payment plan of a commitment kind, at its effective price per instance-hour.
struct CommitmentChoice {
    catalog::Payment payment = catalog::Payment::no_upfront;
    Commitment commitment;
    bool is_default = false;
    bool from_discount = false; // priced from a provider discount, not a published price
};

// Calls `fn` with each published commitment price of `instance`: its own, then those the
// provider's product facts (`products`, may be nullptr) publish for its type.
template <class Fn>
void for_each_reserved(const catalog::Product* product, const catalog::Instance& instance,
                       Fn&& fn) {
    for (const catalog::ReservedPrice& price : instance.reserved) {
        fn(price);
    }
    if (product == nullptr) {
        return;
    }
    struct ByInstance {
        bool operator()(const catalog::ProductReservedPrice& a, const std::string& b) const {
            return a.instance < b;
        }
        bool operator()(const std::string& a, const catalog::ProductReservedPrice& b) const {
            return a < b.instance;
        }
    };
    const auto [first, last] =
        std::equal_range(product->reserved_prices.begin(), product->reserved_prices.end(),
                         instance.type, ByInstance{});
    for (auto it = first; it != last; ++it) {
        fn(it->price);
    }
}

// The date of the instance's first dated commitment price for a term in a region.
[[nodiscard]] std::optional<Date> reserved_as_of(const catalog::Product* product,
                                                 const catalog::Instance& instance,
                                                 const Region& region, catalog::Term term);

// The ways to commit in advance: reservations and prepaid subscriptions.
constexpr std::array<PurchaseOption, 4> k_commitment_kinds{
    PurchaseOption::reserved_1y, PurchaseOption::reserved_3y, PurchaseOption::subscription_monthly,
    PurchaseOption::subscription_yearly};

// The catalog term of a reservation kind (reserved_1y or reserved_3y).
[[nodiscard]] inline catalog::Term reserved_term(PurchaseOption kind) {
    return kind == PurchaseOption::reserved_3y ? catalog::Term::three_years
                                               : catalog::Term::one_year;
}

// Whether `kind` is a reservation (priced per term from the catalog's reserved prices or the
// provider's discounts) rather than a prepaid subscription.
[[nodiscard]] inline bool is_reserved(PurchaseOption kind) {
    return kind == PurchaseOption::reserved_1y || kind == PurchaseOption::reserved_3y;
}

// Of the payment plans in `choices`, the first of the lowest `value(choice)` (lower by more than
// 1e-9); nullptr when there are none.
template <class Value>
[[nodiscard]] const CommitmentChoice* cheapest_choice(const std::vector<CommitmentChoice>& choices,
                                                      Value value) {
    const CommitmentChoice* best = nullptr;
    double best_value = std::numeric_limits<double>::infinity();
    for (const CommitmentChoice& choice : choices) {
        const double at = value(choice);
        if (at < best_value - 1e-9) {
            best_value = at;
            best = &choice;
        }
    }
    return best;
}

// Commitment prices of `kind` in a region, into `choices` (a buffer reused across regions). A
// subscription is prepaid for each whole period (a 730-hour month, or twelve of them). Terms
// after the first end within `horizon_months` when the region has an on-demand price to pay the
// spill with; else they are bought as needed.
void commitments_for(const catalog::Provider& provider, const catalog::Product* product,
                     const catalog::Instance& instance, const Region& region, PurchaseOption kind,
                     double horizon_months, std::vector<CommitmentChoice>& choices);

} // namespace gpuplan::cost::detail
