#pragma once
// The cost engine: enumerates every way to run a workload (provider x region x instance x
// purchase option, plus self-built builds), prices each as monthly cash flows in the output
// currency, and judges feasibility (docs/methodology.md, "Cost engine"). Pure: the estimator is
// passed in, so each (GPU, node shape, GPU count) is estimated once and tests can inject values.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/cost/note.hpp"
#include "gpuplan/decide/decide.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/purchase.hpp"
#include "gpuplan/workload/workload.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::cost {

// Defaults of the cost engine; each is documented with its source in docs/methodology.md.
// Checkpoint write bandwidth per node: the estimator's (Llama 3, 2 TB/s over 2,048 nodes).
inline constexpr double k_checkpoint_gb_per_s_per_node = estimate::k_checkpoint_gb_per_s_per_node;
// Object storage, USD per GB-month (S3 Standard first tier, us-east-1; UNVERIFIED snapshot).
inline constexpr double k_storage_per_gb_month_usd = 0.023;
// Spot interruptions per node-hour when neither the instance nor the provider gives one.
inline constexpr double k_default_interruption_rate_per_node_hour = 0.05;
// Spot restart delay when the provider gives none, minutes.
inline constexpr double k_default_restart_minutes = 15.0;
// Checkpoints kept in storage while a job runs (the last complete one and the one being written).
inline constexpr double k_checkpoints_kept = 2.0;
// A price converted at an exchange rate dated more than this many days from the price is flagged
// with the rate of the price's own date (gpuplan's threshold: a year).
inline constexpr long k_fx_date_gap_days = 365;
// A spot gang of several nodes running longer than this gets a capacity caveat: providers do not
// guarantee spot capacity, and a gang needs all its nodes at once (gpuplan's threshold, a day).
inline constexpr double k_spot_gang_caveat_hours = 24.0;

// Estimates the workload on a GPU model in a node shape with an optional GPU count.
using Estimator = estimate::Estimator;

// Which GPU counts each cloud instance type is priced at: the estimator's minimum count only, or
// also larger ones (doubling the nodes up to max_gpus while the wall time still falls; training
// and fine-tuning only, docs/methodology.md "Larger GPU counts").
enum class GpuCounts { minimum, larger };

// Command-line settings of the cost engine.
struct Settings {
    std::string currency; // output currency; empty = the workload's finance.currency
    std::map<std::string, double> provider_discounts;      // provider -> negotiated fraction off
    std::optional<double> interruption_rate_per_node_hour; // overrides the catalog for spot
    // Multiplies the rate each spot option is priced with (after the override): the sensitivity
    // analysis moves the rates actually used, whatever their source.
    double interruption_rate_factor = 1.0;
    double checkpoint_gb_per_s_per_node = k_checkpoint_gb_per_s_per_node;
    double storage_per_gb_month_usd = k_storage_per_gb_month_usd;
    bool bridge = false;    // also price self-built bridged on cloud on-demand
    bool itemise = false;   // keep every option's itemised monthly cash flows (tco)
    int simulate = 0;       // Monte Carlo samples for spot (0 = none)
    std::uint64_t seed = 1; // Monte Carlo seed
    GpuCounts counts = GpuCounts::minimum;
    // The date prices are aged to; nullopt = no age check. A price older than
    // k_max_firm_price_age_days is a risk (NoteKind::risk_stale_price).
    std::optional<Date> today;
    // Fleet planning: also commit to soft offers (derived or unsold commitment terms, servers
    // bought on a quote); by default a fleet commits only to firm ones.
    bool accept_soft = false;
};

// How firm an option's price is (docs/methodology.md, "Firm and soft answers"): list (a
// published price), snapshot (a third party's copy of one), derived (a default discount or a
// market survey), negotiated (the user's own), quote (priced, but not sold in this form
// without a quote).
enum class PriceBasis { list, snapshot, derived, negotiated, quote };
[[nodiscard]] std::string_view to_string(PriceBasis basis);

// A marketplace offer (hosts come and go) is a risk past this many GPUs (one 8-GPU node)...
inline constexpr int k_marketplace_max_gpus = 8;
// ...or past this many machine-hours of one run, a week (gpuplan's threshold).
inline constexpr double k_marketplace_max_hours = 168.0;
// A spot price is an outlier when its share of on-demand is below this fraction of the median
// share of the instance type's other zones and regions (gpuplan's threshold: the AWS case of 10%
// against 21-31% is 0.4 of the median).
inline constexpr double k_spot_outlier_fraction = 0.6;
// A dated price older than this many days is no firm answer (gpuplan's threshold: a year; the
// public GPU lists moved by 20-45% within a year in 2025-2026, docs/methodology.md).
inline constexpr double k_max_firm_price_age_days = 365.0;
// Start-up minutes when neither the provider nor the catalog states any (a PLACEHOLDER).
inline constexpr double k_default_startup_minutes = 10.0;

// Why an option cannot be ranked.
enum class Rejection {
    does_not_fit,
    exceeds_max_gpus,
    gpu_count_mismatch,
    not_interruptible,
    never_finishes,
    misses_deadline,
    misses_latency_target, // inference: the service misses a latency target or the request rate
    over_budget,
    no_exchange_rate,
    excluded_by_rule, // the decision tree rules it out (docs/decision-rules.md)
    needs_cluster,    // several nodes of a type not sold as a cluster with a known fabric
};
// The published reason code, e.g. `misses_deadline`.
[[nodiscard]] std::string_view to_string(Rejection rejection);

// Costs per unit of work (undiscounted totals in the output currency); nullopt when not
// meaningful for the task.
// Inference: per_million_tokens counts input and output tokens together; the input and output
// figures each charge the whole total to that kind of token (docs/methodology.md C10).
struct UnitCosts {
    std::optional<double> per_run;
    std::optional<double> per_epoch;
    std::optional<double> per_million_tokens;
    std::optional<double> per_thousand_images;
    std::optional<double> per_million_input_tokens;
    std::optional<double> per_million_output_tokens;
    std::optional<double> per_thousand_requests;

    bool operator==(const UnitCosts&) const = default;
};

// The unit costs of `total` for the work of `workload`.
[[nodiscard]] UnitCosts unit_costs(const workload::Workload& workload, double total);

// Monte Carlo quantiles of a spot option.
struct SpotQuantiles {
    int samples = 0;
    std::uint64_t seed = 0;
    double p50_wall_hours = 0.0;
    double p90_wall_hours = 0.0;
    double p50_cost = 0.0;
    double p90_cost = 0.0;

    bool operator==(const SpotQuantiles&) const = default;
};

// The figures a rejection's sentence quotes, kept as numbers so that only the sentences shown
// are ever put into words (see reason()); the currencies are the plan's.
struct RejectionDetail {
    double value = 0.0;   // GiB per GPU needed, wall hours, or the total cost
    double limit = 0.0;   // GiB on the GPU model, a GPU count, the deadline or the budget
    int gpu_count = 0;    // does_not_fit: the GPUs the memory is spread over
    bool service = false; // misses_deadline: an inference service (lead time, not runs)
    // needs_cluster: the price per GPU-hour of one node (output currency) is `value`, the
    // nodes `limit`.

    bool at_p90 = false; // misses_deadline: `value` is the P90 wall time (spot)

    bool operator==(const RejectionDetail&) const = default;
};

// An option's risks (what a soft answer rests on): indices into Plan::notes, kept inline, since
// a plan prices hundreds of thousands of options. No option has more than five kinds of risk.
struct RiskList {
    std::array<NoteIndex, 7> items{};
    std::uint8_t count = 0;

    void push_back(NoteIndex index) {
        if (count < items.size()) {
            items.at(count++) = index;
        }
    }
    [[nodiscard]] bool empty() const { return count == 0; }
    [[nodiscard]] std::size_t size() const { return count; }
    [[nodiscard]] NoteIndex front() const { return items.front(); }
    [[nodiscard]] const NoteIndex* begin() const { return items.data(); }
    [[nodiscard]] const NoteIndex* end() const { return items.data() + count; }
    bool operator==(const RiskList& other) const {
        return std::equal(begin(), end(), other.begin(), other.end());
    }
};

// One priced way to run the workload.
struct Option {
    std::string provider; // `self_built` for owned hardware
    std::string region;
    std::string zone;      // spot: the cheapest zone of the region; else empty
    std::string instance;  // instance type or build name
    std::string gpu;       // the GPU model; for a slice, the model it is part of
    std::string gpu_slice; // what part of one GPU it runs on ("1/8 L4"); empty = whole GPUs
    int gpus_per_node = 0;
    int nodes = 0;
    int gpu_count = 0;
    // A larger count than the estimator's minimum (GpuCounts::larger): its id ends in @gpu_count.
    bool larger_count = false;
    bool nvlink = false;                // the node's GPUs are NVLink-connected
    std::optional<double> network_gbps; // node-to-node bandwidth; nullopt = unknown
    // The scale-out facts of the instance type (catalog `products`): the fabric, how nodes are
    // sold together, the GPUs of one NVLink domain and the sources; unknown when none states it.
    catalog::Fabric fabric = catalog::Fabric::unknown;
    catalog::SoldAs sold_as = catalog::SoldAs::unknown;
    int nvlink_domain = 1;
    std::optional<int> cluster_max_nodes; // the largest cluster sold, nodes
    // What a node's disk holds besides the data: one checkpoint (training) or the weights
    // (inference), GB (a launch file's disk size). A float fills the padding after the optional.
    float state_gb = 0.0F;
    std::vector<std::string> interconnect_sources;
    catalog::Capacity capacity = catalog::Capacity::unknown;
    PriceBasis price_basis = PriceBasis::snapshot;
    double startup_hours = 0.0; // per run: provisioning, boot and image, in wall_hours
    // What a soft answer rests on (undated or outlier prices, derived commitments, marketplace
    // capacity, quotes): indices into Plan::notes. Empty = a firm answer.
    RiskList risks;
    PurchaseOption purchase = PurchaseOption::on_demand;
    std::optional<catalog::Payment> payment; // reserved: how the commitment is paid
    bool bridged = false;
    std::string price_currency;       // currency of the catalog prices
    std::optional<Date> prices_as_of; // date of the catalog prices it was priced from
    double fx_rate = 1.0;             // output currency per price currency
    double wall_hours = 0.0; // now until the first run ends; inference: service hours/month
    // Spot training: the P90 of wall_hours (the Monte Carlo's with --simulate, else the compound
    // Poisson approximation of methodology C5); the deadline is checked against it.
    std::optional<double> p90_wall_hours;
    double gpu_hours = 0.0; // useful GPU-hours over the whole plan
    bool fits = true;
    bool meets_deadline = true;
    bool within_budget = true;
    bool finishes = true;        // false when the work would outlast k_max_plan_months (not priced)
    std::vector<double> amounts; // net cash flow per month, output currency; [0] is now
    std::array<double, k_item_count> item_totals{}; // undiscounted, per item
    CashFlows cash_flows; // the itemised months; only with Settings::itemise (tco)
    double npv = 0.0;
    double total = 0.0;
    double max_monthly = 0.0;  // the largest net cash flow of one month (check --max-monthly)
    double per_gpu_hour = 0.0; // total / useful GPU-hours
    std::optional<double> break_even_utilisation; // self-built vs cheapest on-demand
    std::optional<SpotQuantiles> simulation;
    std::optional<std::size_t> rule_preference; // rank of its GPU among the rules' preferred
    std::optional<Rejection> rejection;
    RejectionDetail detail;       // the figures of the rejection's sentence
    std::string reason;           // the sentence itself when no figures make it (excluded_by_rule)
    std::vector<NoteIndex> notes; // into Plan::notes, in order

    // provider/region/instance/purchase, or self_built/BUILD[/bridge], then @GPU_COUNT for a
    // larger count: unique within a plan.
    [[nodiscard]] std::string id() const;
    // Whether the option can be bought as described at a dated published price (no risks).
    [[nodiscard]] bool firm() const { return risks.empty(); }
    bool operator==(const Option&) const = default;
};

// What the option runs on in words: "2 x H100", or the slice ("1/8 L4").
[[nodiscard]] std::string gpus_text(const Option& option);

// Whether a's id sorts before b's, without building either.
[[nodiscard]] bool id_less(const Option& a, const Option& b);

namespace detail {
struct OptionBuffer;
} // namespace detail

// The options of a plan, in the order the cost stage enumerated them: often megabytes, filled
// once. The cost stage keeps them in a buffer of its own (src/cost/option_buffer.hpp); everyone
// else reads them as a span.
class OptionList {
public:
    OptionList() noexcept;
    // Options priced elsewhere (a test's), in this order.
    explicit OptionList(std::vector<Option> options);
    OptionList(const OptionList& other);
    OptionList(OptionList&& other) noexcept;
    OptionList& operator=(const OptionList& other);
    OptionList& operator=(OptionList&& other) noexcept;
    ~OptionList();

    [[nodiscard]] std::span<const Option> view() const noexcept;
    [[nodiscard]] std::span<Option> view() noexcept;
    // Removes the options `drop` holds for; the others keep their order.
    void erase_if(bool (*drop)(const Option&));
    bool operator==(const OptionList& other) const;

    // The buffer, for the cost stage that fills it (a complete type only there).
    [[nodiscard]] detail::OptionBuffer& buffer();

private:
    std::unique_ptr<detail::OptionBuffer> m_buffer; // nullptr = no options
};

// Everything the engine assumed, for the report.
struct FxUse {
    std::string from;
    std::string to;
    double rate = 1.0;
    std::string as_of; // empty for identity
    bool operator==(const FxUse&) const = default;
};

// The money conventions options are priced under: what JSON outputs state in their assumptions.
struct Conventions {
    double discount_rate = 0.0; // per year
    double monthly_rate = 0.0;  // the monthly rate derived from discount_rate
    double horizon_months = 0.0;
    std::string currency;
    std::vector<FxUse> fx; // rates used, by currency

    bool operator==(const Conventions&) const = default;
};

struct Plan {
    std::string currency;
    double discount_rate = 0.0;
    double monthly_rate = 0.0;
    double horizon_months = 0.0;
    OptionList option_list;  // feasible and rejected, in enumeration order: see options()
    std::vector<Note> notes; // every note its options refer to (Option::notes)
    std::vector<FxUse> fx;   // rates used, by currency
    std::vector<std::string> candidate_gpus;
    std::vector<PurchaseOption> purchase_options;
    std::size_t estimates = 0; // distinct estimator calls
    std::vector<std::string> assumptions;
    std::optional<Money> budget; // the workload's, for the words of over_budget

    [[nodiscard]] std::span<const Option> options() const noexcept { return option_list.view(); }
    [[nodiscard]] std::span<Option> options() noexcept { return option_list.view(); }
    // The plan's rates, horizon, currency and exchange rates as one value.
    [[nodiscard]] Conventions conventions() const {
        return {discount_rate, monthly_rate, horizon_months, currency, fx};
    }

    bool operator==(const Plan&) const = default;
};

// Why `option` of `plan` is rejected, in words; empty when it is not.
[[nodiscard]] std::string reason(const Plan& plan, const Option& option);

// Whether options a rule excludes stay in the plan (priced, with their reason) or leave it.
enum class ExcludedOptions { keep, drop };

// The decision tree's verdict as the cost stage consumes it (docs/decision-rules.md).
struct RuleFilter {
    const decide::Decision* decision = nullptr; // nullptr = no rules
    ExcludedOptions excluded = ExcludedOptions::drop;
};

// Prices every option for `workload` (its constraints filter providers, regions, GPU models and
// purchase options), flags the infeasible ones and applies `rules` (apply_decision). Never
// throws for "nothing fits"; throws InputError for a budget in a currency it cannot convert.
[[nodiscard]] Plan plan(const workload::Workload& workload, const catalog::Catalog& catalog,
                        const Settings& settings, const Estimator& estimator,
                        RuleFilter rules = {});

} // namespace gpuplan::cost
