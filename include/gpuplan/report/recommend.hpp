#pragma once
// The reports of `gpuplan recommend` and `gpuplan tco`: one value built once from the cost
// engine's plan, then formatted by table, JSON (docs/schema/recommend.schema.json,
// docs/schema/tco.schema.json) and markdown writers that only format it.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/decide/decide.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/format.hpp"
#include "gpuplan/workload/workload.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::report {

// What the output says about the catalog it priced from.
struct CatalogInfo {
    std::string oldest; // oldest date of the prices used; empty without prices
    std::string newest; // newest date of the prices used
    std::string digest;
    std::size_t offers = 0;

    bool operator==(const CatalogInfo&) const = default;
};
[[nodiscard]] CatalogInfo catalog_info(const catalog::Catalog& catalog);

struct RecommendReport {
    GeneratorInfo generator;
    CatalogInfo catalog;
    workload::Workload workload;
    cost::Settings settings;
    rank::Objective objective = rank::Objective::cost;
    cost::Plan plan;
    std::vector<std::size_t> ranked;          // indices into plan.options, best first (all of them)
    std::vector<std::size_t> rejected;        // indices into plan.options
    int top = 10;                             // options shown; 0 = all
    std::optional<decide::Decision> decision; // the decision tree's verdict; nullopt = --no-rules
    std::string rules_file;                   // the tree applied
    bool explain = false; // full trace and every rejected option, rule exclusions included
};

// Ranks the plan and keeps everything the writers need.
[[nodiscard]] RecommendReport
make_recommend_report(GeneratorInfo generator, const catalog::Catalog& catalog,
                      workload::Workload workload, cost::Settings settings,
                      rank::Objective objective, cost::Plan plan, int top);

// `wide` adds total, per GPU-hour, deadline and budget columns to the table (markdown has them).
[[nodiscard]] std::string render_recommend(const RecommendReport& report, Format format,
                                           bool wide = false);

// One purchase option of the configuration `gpuplan tco` looks at.
struct TcoOption {
    cost::Option option;
    std::optional<int> break_even_month; // vs on_demand; nullopt for on_demand or never
    std::string reason;                  // why it is rejected; empty when it is not
};

struct TcoReport {
    GeneratorInfo generator;
    CatalogInfo catalog;
    workload::Workload workload;
    std::string currency;
    double discount_rate = 0.0;
    double monthly_rate = 0.0;
    double horizon_months = 0.0;
    std::vector<cost::FxUse> fx;
    std::string gpu;
    int gpu_count = 0;
    std::string provider;           // empty = every provider
    std::vector<TcoOption> options; // one per purchase option, in the published order
};

// For each purchase option, the plan's best option (feasible first, then lowest NPV, then id);
// break-even months against on-demand.
[[nodiscard]] TcoReport make_tco_report(GeneratorInfo generator, const catalog::Catalog& catalog,
                                        workload::Workload workload, const cost::Plan& plan,
                                        std::string gpu, std::string provider);

[[nodiscard]] std::string render_tco(const TcoReport& report, Format format);

} // namespace gpuplan::report
