#pragma once
// The state of one cost::plan call: the options priced so far, the notes they share and the
// memos that keep each estimate, commitment and exchange-rate check to one computation.

#include "cost/estimate_cache.hpp"
#include "cost/flows.hpp"
#include "cost/option_buffer.hpp"
#include "cost/regions.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/cost/note.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/workload/workload.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace gpuplan::cost::detail {

using workload::Task;
using workload::Workload;

// Whether `list` holds `value`.
inline bool contains(const std::vector<std::string>& list, std::string_view value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

// Whether `option` is among the purchase options `list` plans.
inline bool allowed(const std::vector<PurchaseOption>& list, PurchaseOption option) {
    return std::find(list.begin(), list.end(), option) != list.end();
}

// The machine usage of the workload on `nodes` nodes given its estimate.
[[nodiscard]] Usage usage_of(const Workload& w, const estimate::GpuEstimate& e, int nodes);

// Prices every option of one workload against one catalog (cost::plan).
class Planner {
public:
    Planner(const Workload& w, const catalog::Catalog& c, const Settings& s, const Estimator& e,
            RuleFilter rules)
        : m_workload(w), m_catalog(c), m_settings(s), m_cache(e, w), m_rules(rules) {}

    Plan run();

private:
    // The plan's currency, rates, budget, purchase options and candidate GPU models; throws
    // InputError for a budget in a currency that does not convert.
    void start_plan();
    // The options of one instance type of a provider, if its GPU model is a candidate.
    void add_instance(const catalog::Provider& provider, const catalog::Instance& instance);
    // The self-built options of the catalog's site, unless `purchase` leaves them out.
    void add_self_built_options();
    // What the plan leaves out, said among its assumptions.
    void add_assumptions();
    // Output-currency units per unit of `currency`, recorded for the report.
    std::optional<double> fx(const std::string& currency);
    // Prices an instance type at the estimator's count, or at `gpu_count` GPUs when given;
    // `slice`: the part of `gpu` the instance sells, nullptr for whole GPUs.
    void add_cloud(const catalog::Provider& provider, const catalog::Instance& instance,
                   const catalog::Gpu& gpu, const catalog::GpuSlice* slice = nullptr,
                   std::optional<int> gpu_count = std::nullopt);
    // What every region of an instance type shares (add_cloud), and a commitment's flows in it.
    struct CloudOffer;
    struct SpotPlan;
    struct UnitCommitment;
    // The spot plan of `offer` in `region` (one per interruption band its regions state): its
    // prototype's interruption overhead, notes, simulation and flows, made on first use.
    const SpotPlan& plan_spot(CloudOffer& offer, const Region& region);
    // The options of `offer` in one region, in purchase-option order.
    void add_region(CloudOffer& offer, const Region& region);
    // The cheapest payment plan of a commitment kind in a region, if the region offers one.
    void add_commitment(CloudOffer& offer, const Region& region, PurchaseOption kind);
    // The spot option of a region whose spot price is usable.
    void add_spot(CloudOffer& offer, const Region& region);
    // The start-up time of the provider's machines (training and fine-tuning runs), and its note.
    void add_startup(Option& proto, const catalog::Product* product);
    // The risks every option of `offer` shares (an undated price; marketplace capacity for a
    // long run, many GPUs or a service), each noted once for the offer.
    void note_offer_risks(CloudOffer& offer);
    // The price basis of a cloud option and what a soft answer rests on: an undated price,
    // marketplace capacity for a long run, many GPUs or a service (Option::risks).
    static void assess_offer(const CloudOffer& offer, Option& option);
    // A reservation's basis (published, derived or a quote) and its risks; `own_date`: the
    // published price states its date.
    void assess_commitment(const CloudOffer& offer, Option& option, bool published, bool is_default,
                           bool own_date);
    // A spot price far below the instance type's other zones (NoteKind::risk_spot_outlier).
    void assess_spot(const CloudOffer& offer, Option& option, const Region& region);
    // `commitment` at a price of 1 for the offer's usage, computed once per term, upfront share
    // and horizon.
    const UnitCommitment& unit_commitment(CloudOffer& offer, const Commitment& commitment);
    // Prices an option of `offer` from `unit` at `price` (finish), then judges it.
    void price_and_judge(const CloudOffer& offer, Option& option, const Flows& unit, double price,
                         const Flows* spill = nullptr, double spill_price = 0.0);
    // The larger GPU counts an instance type is also priced at (Settings::counts).
    std::vector<int> larger_counts(const catalog::Instance& instance, const catalog::Gpu& gpu);
    // A slice instance, or counts it as not planned (a count above one that is not whole).
    void add_slice(const catalog::Provider& provider, const catalog::Instance& instance,
                   const catalog::Gpu& gpu);
    void add_self_built(const catalog::Build& build, const catalog::Gpu& gpu);
    Option base_option(const catalog::Gpu& gpu, const estimate::GpuEstimate& e, int per_node);
    CashFlows hidden_flows(const estimate::GpuEstimate& e, const Usage& usage,
                           const catalog::Provider& provider, double fx_rate);
    // A provider's negotiated discount and the note that says so.
    struct Discount {
        double fraction = 0.0;
        NoteIndex note = 0;
    };
    // Prices `option` from `flows` at `price` (and `spill` at `spill_price`, when given), less
    // `discount`, in the output currency.
    void finish(Option& option, const Flows& flows, double price, const Discount* discount,
                const Flows* spill = nullptr, double spill_price = 0.0) const;
    // A commitment at a price of 1 for `usage`: its flows, their present value and the hours it
    // leaves unused. Instance types that the workload uses alike share it.
    struct CommittedUsage {
        CashFlows flows;
        CashFlows spill; // node-hours outside the terms, paid on demand
        double npv = 0.0;
        CommitmentUse use;
    };
    const CommittedUsage& committed(const Usage& usage, const Commitment& commitment);
    // Sets the option's feasibility flags and its first rejection; `has_rate`: its price
    // currency converts to the output currency.
    void judge(Option& option, const estimate::GpuEstimate& e, const catalog::Gpu& gpu,
               bool has_rate);
    void compare_self_built();
    // Flags a price converted at a rate dated far from the price (NoteKind::fx_date_gap).
    void note_fx_gap(Option& option);
    // The take-or-pay and spill notes of a commitment used as `use` says; `payment` names how.
    void add_commitment_notes(Option& option, const CommitmentUse& use,
                              const Commitment& commitment, std::string payment);
    // The plan's options as the cost stage fills them.
    [[nodiscard]] std::vector<Option, LargeBufferAllocator<Option>>& options() {
        return m_plan.option_list.buffer().options;
    }
    // Keeps a risk note in the plan's table once: options that share a risk share its note.
    NoteIndex add_risk(Note note) {
        auto key = std::tuple{note.kind, note.figures, note.subject, note.detail};
        auto it = m_risk_notes.find(key);
        if (it == m_risk_notes.end()) {
            it = m_risk_notes.emplace(std::move(key), add_note(std::move(note))).first;
        }
        return it->second;
    }
    // Keeps `note` in the plan's table; its index for Option::notes.
    NoteIndex add_note(Note note) {
        m_plan.notes.push_back(std::move(note));
        return static_cast<NoteIndex>(m_plan.notes.size() - 1);
    }

    const Workload& m_workload;
    const catalog::Catalog& m_catalog;
    const Settings& m_settings;
    EstimateCache m_cache;
    RuleFilter m_rules;
    Plan m_plan;
    std::optional<double> m_budget_rate; // output currency per unit of the budget's currency
    // committed(): by nodes, busy hours per run, hours per day, runs, months between runs,
    // session hours, term months, upfront share and horizon.
    std::map<std::tuple<int, double, double, int, double, double, int, double, double>,
             CommittedUsage>
        m_committed;
    std::map<std::string, double> m_cheapest_on_demand_per_gpu_hour; // GPU -> output currency
    std::size_t m_unusable_spot = 0;    // spot prices at or above on-demand, not offered
    std::size_t m_unplanned_counts = 0; // instance types with a count like 1.5 GPUs
    // add_risk(): each risk note once.
    std::map<std::tuple<NoteKind, std::array<double, 7>, std::string, std::string>, NoteIndex>
        m_risk_notes;
    // note_fx_gap(): by price currency and price date.
    std::map<std::pair<std::string, Date>, std::optional<NoteIndex>> m_fx_gaps;
};

} // namespace gpuplan::cost::detail
