#include "cost/planner.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuplan::cost::detail {

namespace {

// Bytes per parameter of an exported 16-bit model (the egress of a finished run).
constexpr double k_export_bytes_per_param = 2.0;

// The GPU-hours of useful work over the horizon: every run, or every month of a service.
double useful_gpu_hours(const Workload& w, const estimate::GpuEstimate& e) {
    if (w.task == Task::inference) {
        return e.gpu_hours * w.horizon_months;
    }
    return e.gpu_hours * std::max(1, w.schedule.runs);
}

} // namespace

Usage usage_of(const Workload& w, const estimate::GpuEstimate& e, int nodes) {
    Usage usage;
    usage.nodes = nodes;
    if (w.task == Task::inference) {
        // wall_hours is service hours per month; the service runs for the whole horizon and is
        // started and stopped once a day unless it runs around the clock.
        usage.busy_hours_per_run = e.wall_hours * w.horizon_months;
        usage.hours_per_day = w.inference.hours_per_day;
        usage.runs = 1;
        usage.session_hours = w.inference.hours_per_day >= k_hours_per_day
                                  ? usage.busy_hours_per_run
                                  : w.inference.hours_per_day;
    } else {
        usage.busy_hours_per_run = e.wall_hours;
        usage.runs = std::max(1, w.schedule.runs);
        usage.every_months = w.schedule.every_months;
    }
    return usage;
}

std::optional<double> Planner::fx(const std::string& currency) {
    const auto rate = catalog::fx_rate(m_catalog, currency, m_plan.currency);
    if (!rate) {
        return std::nullopt;
    }
    const bool known = std::any_of(m_plan.fx.begin(), m_plan.fx.end(),
                                   [&currency](const FxUse& use) { return use.from == currency; });
    if (!known && currency != m_plan.currency) {
        const catalog::FxRate* a = catalog::find_fx_rate(m_catalog, currency);
        const catalog::FxRate* b = catalog::find_fx_rate(m_catalog, m_plan.currency);
        const Date as_of =
            std::max(a != nullptr ? a->as_of : Date{}, b != nullptr ? b->as_of : Date{});
        m_plan.fx.push_back({currency, m_plan.currency, *rate, as_of.to_string()});
    }
    return rate;
}

const Planner::CommittedUsage& Planner::committed(const Usage& usage,
                                                  const Commitment& commitment) {
    const auto key = std::tuple{usage.nodes,
                                usage.busy_hours_per_run,
                                usage.hours_per_day,
                                usage.runs,
                                usage.every_months,
                                usage.session_hours,
                                commitment.term_months,
                                commitment.upfront_fraction,
                                commitment.horizon_months};
    auto it = m_committed.find(key);
    if (it == m_committed.end()) {
        Commitment unit = commitment;
        unit.effective_per_hour = 1.0;
        CommittedUsage value;
        value.flows = reserved_cash_flows(usage, unit);
        value.spill = commitment_spill(usage, unit);
        value.npv = finance::npv(m_plan.monthly_rate, value.flows.amounts());
        value.use = commitment_use(usage, unit);
        it = m_committed.emplace(key, std::move(value)).first;
    }
    return it->second;
}

Option Planner::base_option(const catalog::Gpu& gpu, const estimate::GpuEstimate& e, int per_node) {
    Option option;
    option.gpu = gpu.name;
    option.gpus_per_node = per_node;
    option.nodes = std::max(1, (e.gpu_count + per_node - 1) / per_node);
    option.gpu_count = option.nodes * per_node;
    option.fits = e.fits;
    option.gpu_hours = useful_gpu_hours(m_workload, e);
    constexpr double k_gb_per_gib = 1.073741824;
    option.state_gb =
        static_cast<float>(m_workload.task == workload::Task::inference
                               ? e.memory.weights_gib * e.model_parallel * k_gb_per_gib
                               : e.checkpoint_gb);
    return option;
}

CashFlows Planner::hidden_flows(const estimate::GpuEstimate& e, const Usage& usage,
                                const catalog::Provider& provider, double fx_rate) {
    // Storage for the dataset and checkpoints in every month the job works, and the finished
    // model exported once per run: both billed by the provider; storage priced in USD.
    CashFlows flows;
    if (m_workload.task == Task::inference) {
        return flows;
    }
    const double usd = fx("USD").value_or(1.0) / fx_rate;
    const Profile profile = usage_profile(usage, 0.0);
    const double gb =
        m_workload.data.dataset_gb.value_or(0.0) + k_checkpoints_kept * e.checkpoint_gb;
    for (std::size_t k = 1; k < profile.node_hours.size(); ++k) {
        if (profile.node_hours[k] > 0.0) {
            flows.add(static_cast<int>(k), Item::storage,
                      gb * m_settings.storage_per_gb_month_usd * usd);
        }
    }
    if (provider.egress_per_gb) {
        const double export_gb =
            m_workload.model.params * k_export_bytes_per_param / k_bytes_per_gb;
        const double runs = std::max(1, m_workload.schedule.runs);
        const int end_month =
            static_cast<int>(std::ceil(profile.end_hour / k_hours_per_month - 1e-9));
        flows.add(std::max(end_month, 1), Item::egress,
                  runs * export_gb * provider.egress_per_gb->value);
    }
    return flows;
}

void Planner::finish(Option& option, const Flows& flows, double price, const Discount* discount,
                     const Flows* spill, double spill_price) const {
    // Each amount is the unit flow at `price`, plus the hidden cost, less the negotiated
    // discount, converted to the output currency; the zero cells add nothing and are skipped.
    const auto horizon = static_cast<std::size_t>(std::ceil(m_workload.horizon_months - 1e-9));
    const std::size_t count =
        std::max({flows.months, spill != nullptr ? spill->months : 0, horizon + 1});
    const double keep = discount != nullptr ? 1.0 - discount->fraction : 1.0;
    if (discount != nullptr) {
        option.notes.push_back(discount->note);
    }
    option.amounts.assign(count, 0.0);
    option.item_totals = {};
    if (m_settings.itemise) {
        option.cash_flows.months.assign(count, {});
    }
    auto add = [&](const Flows& from, double at) {
        for (const Flows::Cell& cell : from.cells) {
            double amount = cell.unit * at;
            if (cell.hidden != 0.0) {
                amount += cell.hidden;
            }
            if (discount != nullptr) {
                amount *= keep;
            }
            amount *= option.fx_rate;
            option.amounts[cell.month] += amount;
            option.item_totals[cell.item] += amount;
            if (m_settings.itemise) {
                option.cash_flows.months[cell.month][cell.item] += amount;
            }
        }
    };
    add(flows, price);
    if (spill != nullptr) {
        add(*spill, spill_price);
    }
    option.npv = finance::npv(m_plan.monthly_rate, option.amounts);
    option.total = std::accumulate(option.amounts.begin(), option.amounts.end(), 0.0);
    option.max_monthly = option.amounts.empty()
                             ? 0.0
                             : *std::max_element(option.amounts.begin(), option.amounts.end());
    option.per_gpu_hour = option.gpu_hours > 0.0 ? option.total / option.gpu_hours : 0.0;
}

} // namespace gpuplan::cost::detail
