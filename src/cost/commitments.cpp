#include "cost/commitments.hpp"

#include "gpuplan/units.hpp"

namespace gpuplan::cost::detail {

// The date of the instance's first dated commitment price for a term in a region.
std::optional<Date> reserved_as_of(const catalog::Product* product,
                                   const catalog::Instance& instance, const Region& region,
                                   catalog::Term term) {
    std::optional<Date> out;
    for_each_reserved(product, instance, [&](const catalog::ReservedPrice& price) {
        if (!out && price.term == term && (price.region.empty() || price.region == region.name) &&
            price.as_of) {
            out = price.as_of;
        }
    });
    return out;
}

namespace {

// Reservation prices for a term in a region, into `choices`: the instance's explicit prices,
// else the provider's discounts applied to the on-demand price.
void reserved_for(const catalog::Provider& provider, const catalog::Product* product,
                  const catalog::Instance& instance, const Region& region, catalog::Term term,
                  std::vector<CommitmentChoice>& choices) {
    const int months = catalog::term_months(term);
    for_each_reserved(product, instance, [&](const catalog::ReservedPrice& price) {
        if (price.term == term && (price.region.empty() || price.region == region.name)) {
            choices.push_back(
                {price.payment, {months, price.effective_per_hour, price.upfront_fraction}, false});
        }
    });
    if (!choices.empty() || !region.on_demand) {
        return;
    }
    for (const catalog::ReservedDiscount& discount : provider.reserved_discounts) {
        if (discount.term == term) {
            const double upfront = discount.payment == catalog::Payment::all_upfront ? 1.0
                                   : discount.payment == catalog::Payment::no_upfront
                                       ? 0.0
                                       : discount.upfront_fraction;
            choices.push_back({discount.payment,
                               {months, *region.on_demand * (1.0 - discount.discount), upfront},
                               discount.is_default,
                               true});
        }
    }
}

} // namespace

void commitments_for(const catalog::Provider& provider, const catalog::Product* product,
                     const catalog::Instance& instance, const Region& region, PurchaseOption kind,
                     double horizon_months, std::vector<CommitmentChoice>& choices) {
    choices.clear();
    if (kind == PurchaseOption::subscription_monthly && region.monthly) {
        choices.push_back(
            {catalog::Payment::all_upfront, {1, *region.monthly / k_hours_per_month, 1.0}, false});
    } else if (kind == PurchaseOption::subscription_yearly && region.yearly) {
        choices.push_back({catalog::Payment::all_upfront,
                           {12, *region.yearly / (12.0 * k_hours_per_month), 1.0},
                           false});
    } else if (is_reserved(kind)) {
        reserved_for(provider, product, instance, region, reserved_term(kind), choices);
    }
    for (CommitmentChoice& choice : choices) {
        choice.commitment.horizon_months = region.on_demand ? horizon_months : 0.0;
    }
}

} // namespace gpuplan::cost::detail
