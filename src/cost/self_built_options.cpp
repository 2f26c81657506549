#include "cost/planner.hpp"
#include "gpuplan/cost/rates.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/units.hpp"

namespace gpuplan::cost::detail {

void Planner::add_self_built(const catalog::Build& build, const catalog::Gpu& gpu) {
    const catalog::SelfBuilt& sb = *m_catalog.self_built;
    const estimate::NodeShape shape{build.gpu_count, build.nvlink, build.network_gbps,
                                    std::nullopt,    std::nullopt, 0};
    const estimate::GpuEstimate& e = m_cache.get(gpu, shape);
    const auto rate = fx(sb.currency);

    Option proto = base_option(gpu, e, build.gpu_count);
    proto.provider = "self_built";
    proto.instance = build.name;
    proto.purchase = PurchaseOption::self_built;
    proto.price_currency = sb.currency;
    proto.prices_as_of = build.as_of;
    proto.nvlink = build.nvlink;
    proto.network_gbps = build.network_gbps;
    proto.nvlink_domain = build.nvlink ? build.gpu_count : 1;
    proto.sold_as = catalog::SoldAs::cluster;
    proto.capacity = catalog::Capacity::guaranteed;
    // Servers are bought on a vendor's quote; the catalog's capex is a market survey.
    proto.price_basis = PriceBasis::quote;
    proto.risks.push_back(add_risk(
        make_note(NoteKind::risk_quote, {static_cast<double>(build.gpu_count), 0.0}, "self_built",
                  "a server build priced from market surveys, bought on a vendor quote")));
    proto.fx_rate = rate.value_or(1.0);
    const Usage usage = usage_of(m_workload, e, proto.nodes);

    SelfBuiltPlan plan = self_built_plan(sb, build, proto.nodes, m_workload.horizon_months);

    const auto cheapest = m_cheapest_on_demand_per_gpu_hour.find(gpu.name);
    if (cheapest != m_cheapest_on_demand_per_gpu_hour.end() && rate) {
        const double node_hour = cheapest->second / proto.fx_rate * build.gpu_count;
        proto.break_even_utilisation = break_even_utilisation(plan, node_hour, m_plan.monthly_rate);
    }

    auto emit = [&](bool bridged) {
        Option option = proto;
        option.bridged = bridged;
        option.finishes = usage_end_hour(usage, 0.0) + plan.lead_time_hours <=
                          k_max_plan_months * k_hours_per_month;
        SelfBuiltPlan p = plan;
        if (bridged) {
            p.bridge_price_per_hour = cheapest->second / proto.fx_rate * option.gpu_count;
        }
        const double end = self_built_end_hour(usage, p);
        option.wall_hours = m_workload.task == Task::inference
                                ? e.wall_hours
                                : end - usage_end_hour(usage, 0.0) + e.wall_hours;
        if (m_workload.task == Task::inference && !bridged &&
            m_workload.constraints.deadline_hours &&
            p.lead_time_hours > *m_workload.constraints.deadline_hours) {
            option.meets_deadline = false;
        }
        option.notes.push_back(
            add_note(bridged ? make_note(NoteKind::lead_time_bridged,
                                         {build.lead_time_weeks, cheapest->second}, gpu.name,
                                         m_plan.currency)
                             : make_note(NoteKind::lead_time, {build.lead_time_weeks})));
        if (option.break_even_utilisation) {
            option.notes.push_back(add_note(
                make_note(NoteKind::break_even_utilisation, {*option.break_even_utilisation})));
        }
        finish(option,
               flows_of(option.finishes ? self_built_cash_flows(usage, p) : CashFlows{}, {}), 1.0,
               nullptr);
        judge(option, e, gpu, rate.has_value());
        options().push_back(std::move(option));
    };
    emit(false);
    if (m_settings.bridge && build.lead_time_weeks > 0.0 &&
        cheapest != m_cheapest_on_demand_per_gpu_hour.end()) {
        emit(true);
    }
}

// Break-even month of every self-built option against the best ranked cloud option of each
// purchase kind with the same GPU model.
void Planner::compare_self_built() {
    // The best feasible cloud option per (GPU model, purchase kind), found in one pass.
    std::map<std::pair<std::string, PurchaseOption>, const Option*> best;
    for (const Option& cloud : options()) {
        // A slice is no alternative to owning whole GPUs of the model.
        if (cloud.purchase == PurchaseOption::self_built || cloud.rejection ||
            !cloud.gpu_slice.empty()) {
            continue;
        }
        const Option*& slot = best[{cloud.gpu, cloud.purchase}];
        if (slot == nullptr || cloud.npv < slot->npv ||
            (cloud.npv == slot->npv && id_less(cloud, *slot))) {
            slot = &cloud;
        }
    }
    for (Option& own : options()) {
        if (own.purchase != PurchaseOption::self_built || own.rejection) {
            continue;
        }
        for (PurchaseOption kind : k_all_purchase_options) {
            const auto found = best.find({own.gpu, kind});
            if (found == best.end()) {
                continue;
            }
            const Option& cloud = *found->second;
            const auto month =
                finance::break_even_month(m_plan.monthly_rate, own.amounts, cloud.amounts);
            own.notes.push_back(add_note(make_note(
                NoteKind::break_even, {month ? static_cast<double>(*month) : -1.0}, cloud.id())));
        }
    }
}

} // namespace gpuplan::cost::detail
