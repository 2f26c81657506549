#pragma once
// The catalog prices behind a priced option, as rates: what fleet planning (docs/methodology.md,
// "Fleet planning") buys in units of a node-month rather than for one job. The same region
// grouping, commitment choice and self-built site parameters as cost::plan.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/purchase.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cost {

// One commitment kind's offer: the payment plan with the lowest present value for a whole term.
struct CommitmentRate {
    PurchaseOption kind = PurchaseOption::reserved_1y;
    catalog::Payment payment = catalog::Payment::no_upfront;
    Commitment commitment;   // per instance-hour, in the price currency; horizon_months 0
    bool is_default = false; // priced from a provider-wide default discount
    std::optional<Date> as_of;
    std::vector<std::string> sources;
    // Sold as priced, at a published or provider-stated price with a date of its own: what
    // fleet planning may commit to (docs/methodology.md, "Firm and soft answers").
    bool firm = false;
};

// The prices of the option's provider, region and instance type (price currency, per
// instance-hour) and what converts them.
struct OfferRates {
    double fx_rate = 1.0; // output currency per price currency (the option's)
    int gpus_per_node = 0;
    std::optional<double> on_demand;
    std::optional<double> spot;
    std::vector<CommitmentRate> commitments; // k_commitment_kinds order, those offered
    std::vector<std::string> sources;        // the instance's price sources
    std::optional<Date> as_of;
};

// The rates behind a cloud option of a plan (nullopt for self-built or an option whose
// provider, instance or region the catalog lacks). `monthly_rate` ranks payment plans.
[[nodiscard]] std::optional<OfferRates> offer_rates(const catalog::Catalog& catalog,
                                                    const Option& option, double monthly_rate);

// The site's parameters and a build's prices as the self-built cash-flow model takes them, for
// `nodes` nodes over `horizon_months` (no bridge).
[[nodiscard]] SelfBuiltPlan self_built_plan(const catalog::SelfBuilt& self_built,
                                            const catalog::Build& build, int nodes,
                                            double horizon_months);

} // namespace gpuplan::cost
