#pragma once
// The recommendation pipeline: the one place where the stages meet. From a workload, a catalog
// and a decision tree it estimates each configuration once, walks the tree, prices every option
// with the tree's verdict as a filter, ranks, and returns one value that carries everything the
// renderers show (docs/architecture.md, "Pipeline"). Pure: no I/O, no clock, no logging.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/decide/decide.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/generator.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/rank/view.hpp"
#include "gpuplan/recommend/purchase_curves.hpp"
#include "gpuplan/recommend/sensitivity.hpp"
#include "gpuplan/recommend/uncertainty.hpp"
#include "gpuplan/workload/workload.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::recommend {

// How the decision tree shapes the answer.
enum class RuleUse {
    apply,   // options a rule excludes leave the plan
    explain, // they stay priced, rejected as excluded_by_rule with the rule and its why
    none,    // no tree: every option is judged on its own figures (--no-rules)
};

// What a run asks of the pipeline.
struct Settings {
    cost::Settings cost;
    rank::Objective objective = rank::Objective::cost;
    RuleUse rules = RuleUse::apply;
    int top = 10;                // options shown; 0 = all
    bool sensitivity = false;    // also re-price with each sensitivity input moved (report)
    bool expand_regions = false; // one row per option: identical offers are not grouped
    // Soft answers (undated or outlier prices, derived commitments, marketplace capacity for
    // long runs, quotes) rank among the firm ones instead of after them.
    bool accept_soft = false;
    // The date prices are aged to (the CLI's clock, UTC); nullopt = no age check. The best
    // option's prices older than `max_price_age_days` (or of unknown date) are flagged.
    std::optional<Date> today;
    double max_price_age_days = 90.0; // k_default_max_price_age_days, or --max-catalog-age
    // The Monte Carlo over the uncertain inputs (--uncertainty); draws 0 = none.
    UncertaintySettings uncertainty;
};

// The age past which the best option's prices are flagged by default (docs/methodology.md,
// "Price dates"): a quarter, the cadence at which the public GPU price lists move.
inline constexpr double k_default_max_price_age_days = 90.0;

// Prices downloaded by `gpuplan catalog update` and overlaid on the catalog from the user's
// cache. The pipeline never sets it: the caller that applied the cache does.
struct PriceCache {
    std::string file;                   // the cache file
    std::string downloaded_at;          // UTC, `2026-12-02T10:00:00Z`
    std::string source;                 // the root the feeds came from
    std::vector<std::string> providers; // the providers whose prices it holds

    bool operator==(const PriceCache&) const = default;
};

// What the output says about the catalog it priced from.
struct CatalogInfo {
    std::string oldest; // oldest date of the prices used; empty without prices
    std::string newest; // newest date of the prices used
    std::string digest;
    std::size_t offers = 0;
    std::optional<PriceCache> cache; // set when the price cache was overlaid

    bool operator==(const CatalogInfo&) const = default;
};

// The digest and offer count of `catalog` and the as_of range of all its prices.
[[nodiscard]] CatalogInfo catalog_info(const catalog::Catalog& catalog);

// catalog_info() with the as_of range of the prices `priced` were priced from: provenance names
// the dates behind the answer, not the whole catalog's.
[[nodiscard]] CatalogInfo catalog_info(const catalog::Catalog& catalog,
                                       std::span<const cost::Option> priced);

// catalog_info() for `gpuplan estimate`, which uses no prices: the as_of range is that of the
// GPU specs `estimates` were made from.
[[nodiscard]] CatalogInfo estimate_catalog_info(const catalog::Catalog& catalog,
                                                std::span<const estimate::GpuEstimate> estimates);

// Options a rule left out that would otherwise rank among the first k_left_out_rank: the default
// output names them, so a rule never hides a cheaper answer silently.
inline constexpr std::size_t k_left_out_rank = 10;
struct LeftOut {
    cost::Option option;        // as priced; its reason names the rule
    std::size_t would_rank = 0; // 1-based place among the feasible options without the rules

    bool operator==(const LeftOut&) const = default;
};

// When the best option is priced from a default rather than a published price (a provider-wide
// commitment discount marked default, a placeholder spot interruption rate), what the default is
// and the best option priced without any default, so the reader sees what the default decides.
struct DefaultDecides {
    cost::NoteKind kind = cost::NoteKind::default_commitment_price; // or spot_risk
    std::optional<std::size_t> best_without_defaults; // index into plan.options(); nullopt = none

    bool operator==(const DefaultDecides&) const = default;
};

// When the best option's prices are older than the limit, or of unknown date: the reader is told
// to refresh (`gpuplan catalog update`) before signing.
struct StalePrices {
    std::optional<Date> as_of; // the date of the prices the best option was priced from
    double age_days = 0.0;     // to Settings::today; 0 when as_of is unknown
    double limit_days = 0.0;

    bool operator==(const StalePrices&) const = default;
};

// Whether `option` is priced from a default (DefaultDecides::kind, or nullopt when it is not).
[[nodiscard]] std::optional<cost::NoteKind> default_price(const cost::Plan& plan,
                                                          const cost::Option& option);

// A stated target of a service and what the best option achieves (inference only).
struct ServiceTarget {
    std::string what;      // `requests/s`, `latency`, `TTFT`, `TPOT`
    double target = 0.0;   // requests/s asked, or a time in ms at Service::percentile
    double achieved = 0.0; // requests/s capacity, or the modelled time in ms
    bool met = false;      // capacity >= asked, or time <= target

    bool operator==(const ServiceTarget&) const = default;
};

// What the best option of an inference workload serves and costs, month by month.
struct Service {
    double hours_per_month = 0.0; // service hours a month (hours_per_day x 365/12)
    double hours_per_day = 0.0;
    double cost_per_month = 0.0; // undiscounted total over the horizon's months
    int percentile = 50;         // the percentile the time targets hold at
    std::vector<ServiceTarget> targets;
    // MoE: GPUs per replica the routed experts are spread over, attention data-parallel
    // (methodology E7.4); 1 for a tensor-parallel replica.
    int expert_parallel = 1;

    bool operator==(const Service&) const = default;
};

// The answer for one workload, as every renderer of recommend, report and check shows it.
struct Recommendation {
    GeneratorInfo generator;
    CatalogInfo catalog; // the as_of range is that of the prices the options were priced from
    workload::Workload workload;
    cost::Settings settings;
    rank::Objective objective = rank::Objective::cost;
    cost::Plan plan;
    std::vector<std::size_t> ranked;   // indices into plan.options(), best first (all of them)
    std::vector<std::size_t> rejected; // indices into plan.options()
    // How many options each reason rejected, by reason code (cost::to_string(Rejection)).
    std::map<std::string, std::size_t> rejection_counts;
    int top = 10;                             // options shown; 0 = all
    std::optional<decide::Decision> decision; // the decision tree's verdict; nullopt = no rules
    std::string rules_file;                   // the tree applied
    std::vector<LeftOut> left_out; // RuleUse::apply: excluded options that would rank high
    std::optional<DefaultDecides> default_decides; // the best option rests on a default price
    std::optional<StalePrices> stale_prices;       // the best option's prices are old or undated
    bool explain = false; // full trace and every rejected option, rule exclusions included
    std::optional<Sensitivity> sensitivity; // with Settings::sensitivity
    std::optional<Confidence> confidence;   // with Settings::uncertainty.draws > 0
    // The decision view (rank/view.hpp): the ranked options grouped (one group per option with
    // Settings::expand_regions), and indices into `groups` of the best per purchase option, the
    // best per GPU model, and the cost/time frontier (empty for inference: a service runs the
    // same hours on every option).
    std::vector<rank::Group> groups;
    bool expand_regions = false;
    std::vector<std::size_t> best_per_purchase;
    std::vector<std::size_t> best_per_gpu;
    std::vector<std::size_t> frontier;
    std::optional<Service> service; // inference with a feasible option: the best one's service
    // Unit costs of the groups shown (shown_count()), in ranked order, of each one's first member.
    std::vector<cost::UnitCosts> unit_costs;
    // The best option of each purchase option, its cumulative cost and break-even month (report).
    PurchaseCurves purchase_curves;

    // The option a group shows: its best ranked member.
    [[nodiscard]] const cost::Option& shown(std::size_t group) const {
        return plan.options()[groups[group].members.front()];
    }
};

// How many ranked groups the renderers show: the first `top`, or all of them with top 0.
[[nodiscard]] std::size_t shown_count(const Recommendation& recommendation);

// Estimates, decides, prices and ranks `workload` on `catalog`. `tree` may be null only with
// RuleUse::none. Throws UsageError for a GPU model name the catalog lacks; "nothing fits" is an
// empty ranking with `rejected` filled in.
[[nodiscard]] Recommendation recommend(const workload::Workload& workload,
                                       const catalog::Catalog& catalog, const decide::Tree* tree,
                                       const Settings& settings, GeneratorInfo generator);

// The priced plan recommend ranks (estimate, decide, cost), without ranking it: what the
// sensitivity analysis re-prices. `decision`, when given, receives the tree's verdict.
[[nodiscard]] cost::Plan plan(const workload::Workload& workload, const catalog::Catalog& catalog,
                              const decide::Tree* tree, RuleUse rules,
                              const cost::Settings& settings,
                              std::optional<decide::Decision>* decision = nullptr);

} // namespace gpuplan::recommend
