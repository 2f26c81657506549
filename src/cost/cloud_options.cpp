#include "cost/commitments.hpp"
#include "cost/planner.hpp"
#include "cost/regions.hpp"
#include "gpuplan/units.hpp"

#include <cmath>
#include <limits>

namespace gpuplan::cost::detail {

namespace {

// The spot risk of an instance: the rate from the flag, the instance, the provider or the
// default, in that order, and the provider's restart time.
std::pair<SpotRisk, std::string> spot_risk(const Settings& settings,
                                           const catalog::Provider& provider,
                                           const catalog::Instance& instance) {
    SpotRisk risk;
    std::string source(k_rate_from_instance);
    if (settings.interruption_rate_per_node_hour) {
        risk.interruption_rate_per_node_hour = *settings.interruption_rate_per_node_hour;
        source = k_rate_from_settings;
    } else if (instance.spot_interruption_rate_per_node_hour) {
        risk.interruption_rate_per_node_hour = instance.spot_interruption_rate_per_node_hour->value;
    } else if (provider.spot) {
        risk.interruption_rate_per_node_hour = provider.spot->interruption_rate_per_node_hour.value;
        source = k_rate_from_provider;
    } else {
        risk.interruption_rate_per_node_hour = k_default_interruption_rate_per_node_hour;
        source = k_rate_from_gpuplan;
    }
    risk.interruption_rate_per_node_hour *= settings.interruption_rate_factor;
    risk.restart_hours =
        (provider.spot ? provider.spot->restart_minutes.value : k_default_restart_minutes) / 60.0;
    return {risk, source};
}

} // namespace

void Planner::add_cloud(const catalog::Provider& provider, const catalog::Instance& instance,
                        const catalog::Gpu& gpu, const catalog::GpuSlice* slice,
                        std::optional<int> gpu_count) {
    // A slice is one GPU of its own figures (gpu is already slice_gpu's): the workload runs on
    // one slice or not at all, never across several.
    const int per_node = slice != nullptr ? 1 : static_cast<int>(instance.gpu_count);
    const estimate::NodeShape shape = estimate::node_shape(instance);
    const estimate::GpuEstimate& e = slice != nullptr ? m_cache.get_one(gpu, shape)
                                     : gpu_count      ? m_cache.at(gpu, shape, *gpu_count)
                                                      : m_cache.get(gpu, shape);
    const auto rate = fx(provider.currency);
    const std::vector<PurchaseOption>& purchase = m_plan.purchase_options;
    const catalog::Billing& billing = provider.billing;

    Option proto = base_option(gpu, e, per_node);
    proto.larger_count = gpu_count.has_value();
    if (slice != nullptr) {
        proto.gpu = instance.gpu;
        proto.gpu_slice = slice->label;
    }
    proto.provider = provider.name;
    proto.instance = instance.type;
    proto.price_currency = provider.currency;
    proto.nvlink = instance.nvlink;
    proto.network_gbps = instance.network_gbps;
    proto.fx_rate = rate.value_or(1.0);
    proto.wall_hours = e.wall_hours;
    const Usage usage = usage_of(m_workload, e, proto.nodes);
    const double max_hours = k_max_plan_months * k_hours_per_month;
    const bool endless = usage_end_hour(usage, 0.0) > max_hours;
    const CashFlows hidden =
        endless ? CashFlows{} : hidden_flows(e, usage, provider, proto.fx_rate);

    // Every region runs the same work: cash flows are linear in the price, so each purchase
    // option's flows at a price of 1 are computed once per instance type and scaled per region.
    const Flows unit_on_demand =
        flows_of(endless ? CashFlows{} : on_demand_cash_flows(usage, 1.0, billing), hidden);
    struct UnitCommitment {
        Flows flows;
        Flows spill;
        double npv = 0.0;
        CommitmentUse use;
    };
    // By term, upfront share and horizon.
    std::map<std::tuple<int, double, double>, UnitCommitment> unit_reserved;
    auto reserved_unit = [&](const Commitment& c) -> const UnitCommitment& {
        const auto key = std::tuple{c.term_months, c.upfront_fraction, c.horizon_months};
        auto it = unit_reserved.find(key);
        if (it == unit_reserved.end()) {
            const CommittedUsage none;
            const CommittedUsage& unit = endless ? none : committed(usage, c);
            it = unit_reserved
                     .emplace(key, UnitCommitment{flows_of(unit.flows, hidden),
                                                  flows_of(unit.spill, {}), unit.npv, unit.use})
                     .first;
        }
        return it->second;
    };
    const auto risk = spot_risk(m_settings, provider, instance);
    SpotRisk spot = risk.first;
    const std::string& risk_source = risk.second;
    SpotOverhead overhead;
    Option spot_proto = proto;
    spot_proto.purchase = PurchaseOption::spot;
    if (m_workload.task == Task::inference) {
        // A service has no lost work to redo, only replacement time to pay for.
        overhead.interruption_rate_per_hour = proto.nodes * spot.interruption_rate_per_node_hour;
        overhead.wall_factor = 1.0 + overhead.interruption_rate_per_hour * spot.restart_hours;
    } else {
        spot.checkpoint_hours = e.checkpoint_gb /
                                (proto.nodes * m_settings.checkpoint_gb_per_s_per_node) /
                                k_seconds_per_hour;
        overhead = spot_overhead(proto.nodes, spot);
        spot_proto.wall_hours = e.wall_hours * overhead.wall_factor;
        // Interruptions arrive as a Poisson process at lambda over the wall time; each costs the
        // work since the last checkpoint (uniform over tau) plus the restart, so the overhead is
        // compound Poisson with variance lambda W E[L^2], E[L^2] = (tau/2 + R)^2 + tau^2/12.
        const double tau = overhead.checkpoint_interval_hours;
        const double loss = tau / 2.0 + spot.restart_hours;
        const double variance = overhead.interruption_rate_per_hour * spot_proto.wall_hours *
                                (loss * loss + tau * tau / 12.0);
        spot_proto.p90_wall_hours = spot_proto.wall_hours + k_z90 * std::sqrt(variance);
    }
    if (m_workload.task != Task::inference && proto.nodes > 1 &&
        spot_proto.wall_hours > k_spot_gang_caveat_hours) {
        spot_proto.notes.push_back(add_note(make_note(
            NoteKind::spot_capacity, {static_cast<double>(proto.nodes), spot_proto.wall_hours})));
    }
    spot_proto.notes.push_back(add_note(
        make_note(NoteKind::spot_risk,
                  {spot.interruption_rate_per_node_hour, static_cast<double>(proto.nodes),
                   e.checkpoint_gb, spot.checkpoint_hours, overhead.checkpoint_interval_hours,
                   spot.restart_hours, overhead.wall_factor},
                  risk_source)));

    std::optional<SpotSimulation> simulation;
    Usage stretched = usage;
    stretched.busy_hours_per_run *= overhead.wall_factor;
    const bool spot_endless = endless || usage_end_hour(stretched, 0.0) > max_hours;
    if (m_settings.simulate > 0 && m_workload.task != Task::inference &&
        allowed(purchase, PurchaseOption::spot) && !spot_endless) {
        simulation = simulate_spot(e.wall_hours, usage.runs, overhead, spot, m_settings.simulate,
                                   m_settings.seed);
    }

    const Flows unit_spot =
        flows_of(spot_endless ? CashFlows{} : spot_cash_flows(usage, 1.0, overhead), hidden);
    proto.finishes = !endless;
    Option on_demand_proto = proto;
    on_demand_proto.purchase = PurchaseOption::on_demand;
    if (billing.granularity_seconds > 1.0 || billing.minimum_seconds > 0.0) {
        on_demand_proto.notes.push_back(add_note(
            make_note(NoteKind::billing, {billing.granularity_seconds, billing.minimum_seconds})));
    }
    spot_proto.finishes = !spot_endless;
    std::optional<Discount> discount;
    if (const auto found = m_settings.provider_discounts.find(provider.name);
        found != m_settings.provider_discounts.end()) {
        discount = Discount{found->second,
                            add_note(make_note(NoteKind::negotiated_discount, {found->second}))};
    }
    const Discount* const discount_used = discount ? &*discount : nullptr;

    // Options are built in place in the plan from a prototype, then priced and judged.
    auto emit = [&](Option& option, const Flows& unit, double price, const Flows* spill = nullptr,
                    double spill_price = 0.0) {
        finish(option, unit, price, discount_used, spill, spill_price);
        judge(option, e, gpu, rate.has_value());
    };
    std::vector<CommitmentChoice> choices;
    for (const Region& region : regions_of(provider, instance)) {
        if (!m_workload.constraints.regions.empty() &&
            !contains(m_workload.constraints.regions, region.name)) {
            continue;
        }
        if (region.on_demand && rate && slice == nullptr) {
            const double per_gpu_hour = *region.on_demand * proto.fx_rate *
                                        (1.0 - (discount ? discount->fraction : 0.0)) /
                                        instance.gpu_count;
            auto [it, inserted] = m_cheapest_on_demand_per_gpu_hour.emplace(gpu.name, per_gpu_hour);
            if (!inserted) {
                it->second = std::min(it->second, per_gpu_hour);
            }
        }
        if (region.on_demand && allowed(purchase, PurchaseOption::on_demand)) {
            Option& option = m_plan.options.emplace_back(on_demand_proto);
            option.region = region.name;
            option.prices_as_of = region.as_of;
            emit(option, unit_on_demand, *region.on_demand);
        }
        for (const PurchaseOption kind : k_commitment_kinds) {
            if (!allowed(purchase, kind)) {
                continue;
            }
            commitments_for(provider, instance, region, kind, m_workload.horizon_months, choices);
            if (choices.empty()) {
                continue;
            }
            // Of the payment plans offered, the one with the lowest present value.
            const CommitmentChoice* best = nullptr;
            double best_npv = std::numeric_limits<double>::infinity();
            for (const CommitmentChoice& choice : choices) {
                const double value =
                    choice.commitment.effective_per_hour * reserved_unit(choice.commitment).npv;
                if (value < best_npv - 1e-9) {
                    best_npv = value;
                    best = &choice;
                }
            }
            Option& option = m_plan.options.emplace_back(proto);
            option.region = region.name;
            option.purchase = kind;
            option.payment = best->payment;
            const bool reserved =
                kind == PurchaseOption::reserved_1y || kind == PurchaseOption::reserved_3y;
            option.prices_as_of =
                reserved
                    ? reserved_as_of(instance, region, reserved_term(kind)).value_or(*region.as_of)
                    : region.as_of;
            const UnitCommitment& unit = reserved_unit(best->commitment);
            add_commitment_notes(option, unit.use, best->commitment,
                                 reserved ? std::string(catalog::to_string(best->payment))
                                          : std::string("prepaid"));
            if (best->is_default) {
                option.notes.push_back(add_note(make_note(NoteKind::default_commitment_price)));
            }
            // A spill exists only where the region has an on-demand price (commitments_for).
            emit(option, unit.flows, best->commitment.effective_per_hour,
                 unit.spill.cells.empty() ? nullptr : &unit.spill, region.on_demand.value_or(0.0));
        }
        // A spot price at or above the region's on-demand price is no discount to gamble on.
        const bool usable_spot =
            region.spot && (!region.on_demand || *region.spot < *region.on_demand);
        if (region.spot && !usable_spot && allowed(purchase, PurchaseOption::spot)) {
            ++m_unusable_spot;
        }
        if (usable_spot && allowed(purchase, PurchaseOption::spot)) {
            Option& option = m_plan.options.emplace_back(spot_proto);
            option.region = region.name;
            option.zone = region.spot_zone;
            option.prices_as_of = region.spot_as_of;
            if (simulation) {
                option.p90_wall_hours = simulation->p90_wall_hours;
                const double per_hour = *region.spot * proto.nodes * proto.fx_rate;
                option.simulation = SpotQuantiles{simulation->samples,
                                                  m_settings.seed,
                                                  simulation->p50_wall_hours,
                                                  simulation->p90_wall_hours,
                                                  simulation->p50_wall_hours * per_hour,
                                                  simulation->p90_wall_hours * per_hour};
                option.notes.push_back(
                    add_note(make_note(NoteKind::spot_simulation,
                                       {static_cast<double>(simulation->samples),
                                        simulation->p50_wall_hours, simulation->p90_wall_hours,
                                        option.simulation->p50_cost, option.simulation->p90_cost},
                                       m_plan.currency, std::to_string(m_settings.seed))));
            }
            emit(option, unit_spot, *region.spot);
        }
    }
}

} // namespace gpuplan::cost::detail
