#include "gpuplan/cost/rates.hpp"

#include "cost/commitments.hpp"
#include "cost/firmness.hpp"
#include "cost/regions.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace gpuplan::cost {

using detail::cheapest_choice;
using detail::CommitmentChoice;
using detail::commitments_for;
using detail::is_reserved;
using detail::k_commitment_kinds;
using detail::Region;
using detail::regions_of;
using detail::reserved_as_of;
using detail::reserved_term;
using detail::usable_spot;

SelfBuiltPlan self_built_plan(const catalog::SelfBuilt& self_built, const catalog::Build& build,
                              int nodes, double horizon_months) {
    const catalog::Site& site = self_built.site;
    auto value = [](const std::optional<catalog::Parameter>& p, double fallback) {
        return p ? p->value : fallback;
    };
    return {.nodes = nodes,
            .capex_per_node = build.capex,
            .network_capex_per_node = build.network_capex_per_node,
            .node_kw = build.node_kw,
            .lead_time_hours = build.lead_time_weeks * 7.0 * k_hours_per_day,
            .electricity_per_kwh = value(site.electricity_per_kwh, 0.0),
            .pue = value(site.pue, 1.0),
            .colocation_per_kw_month = value(site.colocation_per_kw_month, 0.0),
            .staff_fte_per_node = value(site.staff_fte_per_node, 0.0),
            .staff_cost_per_fte_year = value(site.staff_cost_per_fte_year, 0.0),
            .maintenance_rate_per_year = value(site.maintenance_rate_per_year, 0.0),
            .utilisation = value(site.utilisation, 1.0),
            .resale_curve = site.resale_curve,
            .horizon_months = horizon_months,
            .bridge_price_per_hour = std::nullopt};
}

namespace {

// The sources of the instance's price rows in `region` (the provider's when a row names none).
std::vector<std::string> price_sources(const catalog::Provider& provider,
                                       const catalog::Instance& instance, std::string_view region) {
    for (const catalog::PriceRow& row : instance.prices) {
        if (row.region == region && !row.sources.empty()) {
            return row.sources;
        }
    }
    return provider.sources;
}

// The sources of the reservation price (or the provider's discount) of a term and payment.
std::vector<std::string> reserved_sources(const catalog::Provider& provider,
                                          const catalog::Product* product,
                                          const catalog::Instance& instance,
                                          std::string_view region, catalog::Term term,
                                          catalog::Payment payment) {
    std::vector<std::string> found;
    detail::for_each_reserved(product, instance, [&](const catalog::ReservedPrice& price) {
        if (found.empty() && price.term == term && price.payment == payment &&
            (price.region.empty() || price.region == region) && !price.sources.empty()) {
            found = price.sources;
        }
    });
    if (!found.empty()) {
        return found;
    }
    for (const catalog::ReservedDiscount& discount : provider.reserved_discounts) {
        if (discount.term == term && discount.payment == payment && !discount.sources.empty()) {
            return discount.sources;
        }
    }
    return provider.sources;
}

// The present value of one whole term of `commitment` at a price of 1 per instance-hour.
double term_npv(Commitment commitment, double monthly_rate) {
    const Usage usage{.nodes = 1, .busy_hours_per_run = 1.0};
    commitment.effective_per_hour = 1.0;
    return finance::npv(monthly_rate, reserved_cash_flows(usage, commitment).amounts());
}

// The commitment of `kind` a region offers with the lowest present value over a whole term, if
// it offers one; `choices` is a buffer, `sources` the instance's price sources.
std::optional<CommitmentRate>
commitment_rate(const catalog::Provider& provider, const catalog::Product* product,
                const catalog::Instance& instance, const Region& region, PurchaseOption kind,
                double monthly_rate, std::vector<CommitmentChoice>& choices,
                const std::vector<std::string>& sources, bool undated) {
    commitments_for(provider, product, instance, region, kind, 0.0, choices);
    const CommitmentChoice* best =
        cheapest_choice(choices, [monthly_rate](const CommitmentChoice& choice) {
            return choice.commitment.effective_per_hour * term_npv(choice.commitment, monthly_rate);
        });
    if (best == nullptr) {
        return std::nullopt;
    }
    if (!is_reserved(kind)) {
        return CommitmentRate{kind,         best->payment, best->commitment, best->is_default,
                              region.as_of, sources,       !undated};
    }
    const auto own_date = reserved_as_of(product, instance, region, reserved_term(kind));
    int min_gpus = 0;
    const bool sold = !best->from_discount ||
                      detail::unsold_commitment(product, instance.type, reserved_term(kind),
                                                static_cast<int>(instance.gpu_count), min_gpus)
                          .empty();
    // Firm: a published or provider-stated price, sold for this type, with a date of its own.
    const bool firm = sold && !best->is_default && (own_date.has_value() || !undated);
    return CommitmentRate{kind,
                          best->payment,
                          best->commitment,
                          best->is_default,
                          own_date.value_or(region.as_of.value_or(Date{})),
                          reserved_sources(provider, product, instance, region.name,
                                           reserved_term(kind), best->payment),
                          firm};
}

} // namespace

std::optional<OfferRates> offer_rates(const catalog::Catalog& catalog, const Option& option,
                                      double monthly_rate) {
    const catalog::Provider* provider = catalog::find_provider(catalog, option.provider);
    if (provider == nullptr) {
        return std::nullopt;
    }
    const auto instance =
        std::find_if(provider->instances.begin(), provider->instances.end(),
                     [&option](const catalog::Instance& i) { return i.type == option.instance; });
    if (instance == provider->instances.end()) {
        return std::nullopt;
    }
    const std::vector<Region> regions = regions_of(*provider, *instance);
    const auto region = std::find_if(regions.begin(), regions.end(), [&option](const Region& r) {
        return r.name == option.region;
    });
    if (region == regions.end()) {
        return std::nullopt;
    }
    OfferRates rates;
    rates.fx_rate = option.fx_rate;
    rates.gpus_per_node = option.gpus_per_node;
    rates.on_demand = region->on_demand;
    rates.spot = usable_spot(*region) ? region->spot : std::nullopt;
    rates.sources = price_sources(*provider, *instance, region->name);
    rates.as_of = region->as_of;
    std::vector<CommitmentChoice> choices;
    for (const PurchaseOption kind : k_commitment_kinds) {
        if (auto rate =
                commitment_rate(*provider, catalog::find_product(catalog, provider->name),
                                *instance, *region, kind, monthly_rate, choices, rates.sources,
                                catalog::is_undated(catalog, provider->sources))) {
            rates.commitments.push_back(std::move(*rate));
        }
    }
    return rates;
}

} // namespace gpuplan::cost
