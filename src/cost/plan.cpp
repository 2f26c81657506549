#include "gpuplan/cost/plan.hpp"

#include "gpuplan/finance/finance.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <utility>

namespace gpuplan::cost {

std::string_view to_string(Rejection rejection) {
    switch (rejection) {
    case Rejection::does_not_fit:
        return "does_not_fit";
    case Rejection::exceeds_max_gpus:
        return "exceeds_max_gpus";
    case Rejection::gpu_count_mismatch:
        return "gpu_count_mismatch";
    case Rejection::not_interruptible:
        return "not_interruptible";
    case Rejection::misses_deadline:
        return "misses_deadline";
    case Rejection::over_budget:
        return "over_budget";
    case Rejection::no_exchange_rate:
        return "no_exchange_rate";
    }
    return "?";
}

namespace {

using workload::Task;
using workload::Workload;

// Bytes per parameter of an exported 16-bit model (the egress of a finished run).
constexpr double k_export_bytes_per_param = 2.0;

bool contains(const std::vector<std::string>& list, std::string_view value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool allowed(const std::vector<PurchaseOption>& list, PurchaseOption option) {
    return std::find(list.begin(), list.end(), option) != list.end();
}

// A workload's estimate on one GPU model and node shape, with the count rounded up to whole
// nodes; every distinct (GPU, shape, count) is estimated once.
class EstimateCache {
public:
    EstimateCache(const Estimator& estimator) : m_estimator(estimator) {}

    const estimate::GpuEstimate& get(const catalog::Gpu& gpu, const estimate::NodeShape& shape) {
        const estimate::GpuEstimate& chosen = lookup(gpu, shape, std::nullopt);
        const int per_node = std::max(shape.gpus_per_node, 1);
        const int nodes = std::max(1, (chosen.gpu_count + per_node - 1) / per_node);
        if (nodes * per_node == chosen.gpu_count) {
            return chosen;
        }
        return lookup(gpu, shape, nodes * per_node);
    }
    [[nodiscard]] std::size_t calls() const { return m_cache.size(); }

private:
    const estimate::GpuEstimate& lookup(const catalog::Gpu& gpu, const estimate::NodeShape& shape,
                                        std::optional<int> count) {
        const std::string key = fmt::format("{}|{}|{}|{}|{}|{}", gpu.name, shape.gpus_per_node,
                                            shape.nvlink, shape.network_gbps.value_or(-1.0),
                                            shape.local_nvme_gb.value_or(-1.0), count.value_or(-1));
        auto it = m_cache.find(key);
        if (it == m_cache.end()) {
            it = m_cache.emplace(key, m_estimator(gpu, shape, count)).first;
        }
        return it->second;
    }

    const Estimator& m_estimator;
    std::map<std::string, estimate::GpuEstimate> m_cache;
};

// The machine usage of the workload on `nodes` nodes given its estimate.
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

double useful_gpu_hours(const Workload& w, const estimate::GpuEstimate& e) {
    if (w.task == Task::inference) {
        return e.gpu_hours * w.horizon_months;
    }
    return e.gpu_hours * std::max(1, w.schedule.runs);
}

UnitCosts unit_costs(const Workload& w, double total) {
    UnitCosts units;
    const bool transformer = w.model.family == workload::Family::transformer;
    const double runs = std::max(1, w.schedule.runs);
    if (w.task == Task::inference) {
        const double requests = w.inference.requests_per_second * k_seconds_per_hour *
                                w.inference.hours_per_day * (k_days_per_year / k_months_per_year) *
                                w.horizon_months;
        if (requests <= 0.0) {
            return units;
        }
        if (transformer && w.inference.output_tokens > 0.0) {
            units.per_million_tokens = total / (requests * w.inference.output_tokens / 1e6);
        } else if (!transformer) {
            units.per_thousand_images = total / (requests / 1000.0);
        }
        return units;
    }
    units.per_run = total / runs;
    if (w.data.epochs > 0.0) {
        units.per_epoch = *units.per_run / w.data.epochs;
    }
    if (transformer && w.data.tokens && *w.data.tokens > 0.0) {
        units.per_million_tokens = total / (*w.data.tokens * runs / 1e6);
    }
    if (!transformer && w.data.samples && *w.data.samples > 0.0) {
        units.per_thousand_images = total / (*w.data.samples * w.data.epochs * runs / 1000.0);
    }
    return units;
}

struct Region {
    std::string name;
    std::optional<double> on_demand;
    std::optional<double> spot;
    std::string spot_zone;
};

// Price rows grouped by region in catalog order: the cheapest zone's on-demand and spot price.
std::vector<Region> regions_of(const catalog::Instance& instance) {
    std::vector<Region> regions;
    for (const catalog::PriceRow& row : instance.prices) {
        auto it = std::find_if(regions.begin(), regions.end(),
                               [&row](const Region& r) { return r.name == row.region; });
        if (it == regions.end()) {
            regions.push_back({row.region, std::nullopt, std::nullopt, {}});
            it = std::prev(regions.end());
        }
        if (row.on_demand && (!it->on_demand || *row.on_demand < *it->on_demand)) {
            it->on_demand = row.on_demand;
        }
        if (row.spot && (!it->spot || *row.spot < *it->spot)) {
            it->spot = row.spot;
            it->spot_zone = row.zone;
        }
    }
    return regions;
}

struct CommitmentChoice {
    catalog::Payment payment = catalog::Payment::no_upfront;
    Commitment commitment;
    bool is_default = false;
};

// Commitment prices for a term in a region: the instance's explicit prices, else the provider's
// discounts applied to the on-demand price.
std::vector<CommitmentChoice> commitments_for(const catalog::Provider& provider,
                                              const catalog::Instance& instance,
                                              const Region& region, catalog::Term term) {
    std::vector<CommitmentChoice> choices;
    const int months = catalog::term_months(term);
    for (const catalog::ReservedPrice& price : instance.reserved) {
        if (price.term == term && (price.region.empty() || price.region == region.name)) {
            choices.push_back(
                {price.payment, {months, price.effective_per_hour, price.upfront_fraction}, false});
        }
    }
    if (!choices.empty() || !region.on_demand) {
        return choices;
    }
    for (const catalog::ReservedDiscount& discount : provider.reserved_discounts) {
        if (discount.term == term) {
            const double upfront = discount.payment == catalog::Payment::all_upfront ? 1.0
                                   : discount.payment == catalog::Payment::no_upfront
                                       ? 0.0
                                       : discount.upfront_fraction;
            choices.push_back({discount.payment,
                               {months, *region.on_demand * (1.0 - discount.discount), upfront},
                               discount.is_default});
        }
    }
    return choices;
}

class Planner {
public:
    Planner(const Workload& w, const catalog::Catalog& c, const Settings& s, const Estimator& e)
        : m_workload(w), m_catalog(c), m_settings(s), m_cache(e) {}

    Plan run();

private:
    // Output-currency units per unit of `currency`, recorded for the report.
    std::optional<double> fx(const std::string& currency);
    void add_cloud(const catalog::Provider& provider, const catalog::Instance& instance,
                   const catalog::Gpu& gpu);
    void add_self_built(const catalog::Build& build, const catalog::Gpu& gpu);
    Option base_option(const catalog::Gpu& gpu, const estimate::GpuEstimate& e, int per_node);
    void finish(Option& option, CashFlows flows, const estimate::GpuEstimate& e, const Usage& usage,
                const catalog::Provider* provider);
    void judge(Option& option, const estimate::GpuEstimate& e, const catalog::Gpu& gpu);
    void compare_self_built();

    const Workload& m_workload;
    const catalog::Catalog& m_catalog;
    const Settings& m_settings;
    EstimateCache m_cache;
    Plan m_plan;
    std::map<std::string, double> m_cheapest_on_demand_per_gpu_hour; // GPU -> output currency
    std::vector<std::string> m_candidates;
};

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
        const Date as_of = std::max(a ? a->as_of : Date{}, b ? b->as_of : Date{});
        m_plan.fx.push_back({currency, m_plan.currency, *rate, as_of.to_string()});
    }
    return rate;
}

Option Planner::base_option(const catalog::Gpu& gpu, const estimate::GpuEstimate& e, int per_node) {
    Option option;
    option.gpu = gpu.name;
    option.gpus_per_node = per_node;
    option.nodes = std::max(1, (e.gpu_count + per_node - 1) / per_node);
    option.gpu_count = option.nodes * per_node;
    option.fits = e.fits;
    option.gpu_hours = useful_gpu_hours(m_workload, e);
    return option;
}

void Planner::finish(Option& option, CashFlows flows, const estimate::GpuEstimate& e,
                     const Usage& usage, const catalog::Provider* provider) {
    const int horizon = static_cast<int>(std::ceil(m_workload.horizon_months - 1e-9));
    if (provider) {
        // Storage for the dataset and checkpoints in every month the job works, and the finished
        // model exported once per run: both billed by the provider, in USD list prices here.
        const double usd = fx("USD").value_or(1.0) / option.fx_rate;
        const Profile profile = usage_profile(usage, 0.0);
        if (m_workload.task != Task::inference) {
            const double gb =
                m_workload.data.dataset_gb.value_or(0.0) + k_checkpoints_kept * e.checkpoint_gb;
            for (std::size_t k = 1; k < profile.node_hours.size(); ++k) {
                if (profile.node_hours[k] > 0.0) {
                    flows.add(static_cast<int>(k), Item::storage,
                              gb * m_settings.storage_per_gb_month_usd * usd);
                }
            }
            if (provider->egress_per_gb) {
                const double export_gb =
                    m_workload.model.params * k_export_bytes_per_param / k_bytes_per_gb;
                const double runs = std::max(1, m_workload.schedule.runs);
                const int end_month =
                    static_cast<int>(std::ceil(profile.end_hour / k_hours_per_month - 1e-9));
                flows.add(std::max(end_month, 1), Item::egress,
                          runs * export_gb * provider->egress_per_gb->value);
            }
        }
        const auto discount = m_settings.provider_discounts.find(provider->name);
        if (discount != m_settings.provider_discounts.end()) {
            flows.scale(1.0 - discount->second);
            option.notes.push_back(fmt::format("negotiated discount {}% applied to every charge",
                                               discount->second * 100.0));
        }
    }
    flows.scale(option.fx_rate);
    flows.pad_to(horizon + 1);
    option.cash_flows = std::move(flows);
    const std::vector<double> amounts = option.cash_flows.amounts();
    option.npv = finance::npv(m_plan.monthly_rate, amounts);
    option.total = option.cash_flows.total();
    option.per_gpu_hour = option.gpu_hours > 0.0 ? option.total / option.gpu_hours : 0.0;
    option.units = unit_costs(m_workload, option.total);
}

void Planner::judge(Option& option, const estimate::GpuEstimate& e, const catalog::Gpu& gpu) {
    const workload::Constraints& c = m_workload.constraints;
    if (c.deadline_hours && m_workload.task != Task::inference) {
        option.meets_deadline = option.wall_hours <= *c.deadline_hours + 1e-9;
    }
    if (c.deadline_hours && m_workload.task == Task::inference && option.wall_hours > 0.0 &&
        option.purchase == PurchaseOption::self_built && !option.bridged) {
        // A service must be up by the deadline: self-built waits out its lead time.
        option.meets_deadline = true;
    }
    if (c.budget) {
        const auto rate = catalog::fx_rate(m_catalog, c.budget->currency, m_plan.currency);
        if (rate) {
            option.within_budget = option.total <= c.budget->amount * *rate + 0.005;
        }
    }
    auto reject = [&option](Rejection code, std::string reason) {
        if (!option.rejection) {
            option.rejection = code;
            option.reason = std::move(reason);
        }
    };
    if (!option.fits) {
        reject(Rejection::does_not_fit,
               fmt::format("needs {:.1f} GiB per GPU on {} GPUs; {} has {:.0f} GiB",
                           e.memory_per_gpu_gib, e.gpu_count, gpu.name, gpu.memory_gib));
    }
    if (c.max_gpus && option.gpu_count > *c.max_gpus) {
        reject(Rejection::exceeds_max_gpus,
               fmt::format("{} GPUs in whole instances; max_gpus is {}", option.gpu_count,
                           *c.max_gpus));
    }
    if (c.gpu_count && option.gpu_count != *c.gpu_count) {
        reject(Rejection::gpu_count_mismatch,
               fmt::format("{} GPUs per node cannot make exactly {} GPUs", option.gpus_per_node,
                           *c.gpu_count));
    }
    if (option.purchase == PurchaseOption::spot && !c.interruptible) {
        reject(Rejection::not_interruptible,
               "spot needs an interruptible workload (constraints.interruptible: true)");
    }
    if (!catalog::fx_rate(m_catalog, option.price_currency, m_plan.currency)) {
        reject(Rejection::no_exchange_rate,
               fmt::format("no exchange rate from {} to {} in the catalog", option.price_currency,
                           m_plan.currency));
    }
    if (!option.meets_deadline) {
        reject(Rejection::misses_deadline,
               fmt::format("finishes after {:.1f} h; deadline is {:.1f} h", option.wall_hours,
                           *c.deadline_hours));
    }
    if (!option.within_budget) {
        reject(Rejection::over_budget,
               fmt::format("costs {:.2f} {}; budget is {:.2f} {}", option.total, m_plan.currency,
                           c.budget->amount, c.budget->currency));
    }
}

void Planner::add_cloud(const catalog::Provider& provider, const catalog::Instance& instance,
                        const catalog::Gpu& gpu) {
    const int per_node = static_cast<int>(instance.gpu_count);
    const estimate::NodeShape shape{per_node, instance.nvlink, instance.network_gbps,
                                    instance.local_nvme_gb};
    const estimate::GpuEstimate& e = m_cache.get(gpu, shape);
    const auto rate = fx(provider.currency);
    const std::vector<PurchaseOption>& purchase = m_plan.purchase_options;
    const catalog::Billing& billing = provider.billing;

    for (const Region& region : regions_of(instance)) {
        if (!m_workload.constraints.regions.empty() &&
            !contains(m_workload.constraints.regions, region.name)) {
            continue;
        }
        Option proto = base_option(gpu, e, per_node);
        proto.provider = provider.name;
        proto.region = region.name;
        proto.instance = instance.type;
        proto.price_currency = provider.currency;
        proto.fx_rate = rate.value_or(1.0);
        proto.wall_hours = e.wall_hours;
        const Usage usage = usage_of(m_workload, e, proto.nodes);
        auto emit = [&](Option option, CashFlows flows) {
            option.id = fmt::format("{}/{}/{}/{}", provider.name, region.name, instance.type,
                                    gpuplan::to_string(option.purchase));
            finish(option, std::move(flows), e, usage, &provider);
            judge(option, e, gpu);
            m_plan.options.push_back(std::move(option));
        };

        if (region.on_demand) {
            const double discount = m_settings.provider_discounts.count(provider.name)
                                        ? m_settings.provider_discounts.at(provider.name)
                                        : 0.0;
            const double per_gpu_hour =
                *region.on_demand * proto.fx_rate * (1.0 - discount) / instance.gpu_count;
            if (rate) {
                auto [it, inserted] =
                    m_cheapest_on_demand_per_gpu_hour.emplace(gpu.name, per_gpu_hour);
                if (!inserted) {
                    it->second = std::min(it->second, per_gpu_hour);
                }
            }
        }
        if (region.on_demand && allowed(purchase, PurchaseOption::on_demand)) {
            Option option = proto;
            option.purchase = PurchaseOption::on_demand;
            if (billing.granularity_seconds > 1.0 || billing.minimum_seconds > 0.0) {
                option.notes.push_back(fmt::format("billed per {:g} s, minimum {:g} s",
                                                   billing.granularity_seconds,
                                                   billing.minimum_seconds));
            }
            emit(std::move(option), on_demand_cash_flows(usage, *region.on_demand, billing));
        }
        for (const auto& [kind, term] :
             {std::pair{PurchaseOption::reserved_1y, catalog::Term::one_year},
              std::pair{PurchaseOption::reserved_3y, catalog::Term::three_years}}) {
            if (!allowed(purchase, kind)) {
                continue;
            }
            const auto choices = commitments_for(provider, instance, region, term);
            if (choices.empty()) {
                continue;
            }
            // Of the payment plans offered, the one with the lowest present value.
            const CommitmentChoice* best = nullptr;
            double best_npv = std::numeric_limits<double>::infinity();
            for (const CommitmentChoice& choice : choices) {
                const double value = finance::npv(
                    m_plan.monthly_rate, reserved_cash_flows(usage, choice.commitment).amounts());
                if (value < best_npv - 1e-9) {
                    best_npv = value;
                    best = &choice;
                }
            }
            Option option = proto;
            option.purchase = kind;
            option.payment = std::string(catalog::to_string(best->payment));
            const CommitmentUse use = commitment_use(usage, best->commitment);
            option.notes.push_back(
                fmt::format("{} term{} of {} months, {}, take-or-pay: {:.0f} of {:.0f} committed "
                            "instance-hours unused ({:.0f}%)",
                            use.terms, use.terms == 1 ? "" : "s", best->commitment.term_months,
                            option.payment, use.unused_node_hours(), use.committed_node_hours,
                            100.0 * use.unused_node_hours() / use.committed_node_hours));
            if (best->is_default) {
                option.notes.push_back(
                    "commitment price is the provider's default discount (market survey), not a "
                    "published price for this instance");
            }
            emit(std::move(option), reserved_cash_flows(usage, best->commitment));
        }
        if (region.spot && allowed(purchase, PurchaseOption::spot)) {
            Option option = proto;
            option.purchase = PurchaseOption::spot;
            option.zone = region.spot_zone;
            SpotRisk risk;
            std::string rate_source = "instance";
            if (m_settings.interruption_rate_per_node_hour) {
                risk.interruption_rate_per_node_hour = *m_settings.interruption_rate_per_node_hour;
                rate_source = "--interruption-rate";
            } else if (instance.spot_interruption_rate_per_node_hour) {
                risk.interruption_rate_per_node_hour =
                    instance.spot_interruption_rate_per_node_hour->value;
            } else if (provider.spot) {
                risk.interruption_rate_per_node_hour =
                    provider.spot->interruption_rate_per_node_hour.value;
                rate_source = "provider default";
            } else {
                risk.interruption_rate_per_node_hour = k_default_interruption_rate_per_node_hour;
                rate_source = "gpuplan default";
            }
            risk.restart_hours =
                (provider.spot ? provider.spot->restart_minutes.value : k_default_restart_minutes) /
                60.0;
            SpotOverhead overhead;
            if (m_workload.task == Task::inference) {
                // A service has no lost work to redo, only replacement time to pay for.
                overhead.interruption_rate_per_hour =
                    proto.nodes * risk.interruption_rate_per_node_hour;
                overhead.wall_factor =
                    1.0 + overhead.interruption_rate_per_hour * risk.restart_hours;
            } else {
                risk.checkpoint_hours = e.checkpoint_gb /
                                        (proto.nodes * m_settings.checkpoint_gb_per_s_per_node) /
                                        k_seconds_per_hour;
                overhead = spot_overhead(proto.nodes, risk);
                option.wall_hours = e.wall_hours * overhead.wall_factor;
            }
            option.notes.push_back(fmt::format(
                "spot: {:.6g} interruptions/node-hour ({}) x {} node{}; checkpoint {:.1f} GB "
                "in {:.1f} min every {:.2f} h; restart {:.0f} min; wall x{:.4f}",
                risk.interruption_rate_per_node_hour, rate_source, proto.nodes,
                proto.nodes == 1 ? "" : "s", e.checkpoint_gb, risk.checkpoint_hours * 60.0,
                overhead.checkpoint_interval_hours, risk.restart_hours * 60.0,
                overhead.wall_factor));
            if (m_settings.simulate > 0 && m_workload.task != Task::inference) {
                const SpotSimulation sim = simulate_spot(e.wall_hours, usage.runs, overhead, risk,
                                                         m_settings.simulate, m_settings.seed);
                const double per_hour = *region.spot * proto.nodes * proto.fx_rate;
                option.simulation = SpotQuantiles{sim.samples,
                                                  m_settings.seed,
                                                  sim.p50_wall_hours,
                                                  sim.p90_wall_hours,
                                                  sim.p50_wall_hours * per_hour,
                                                  sim.p90_wall_hours * per_hour};
                option.notes.push_back(fmt::format(
                    "Monte Carlo ({} samples, seed {}): wall P50 {:.2f} h, P90 {:.2f} h; spot "
                    "compute "
                    "P50 {:.2f}, P90 {:.2f} {}",
                    sim.samples, m_settings.seed, sim.p50_wall_hours, sim.p90_wall_hours,
                    sim.p50_wall_hours * per_hour, sim.p90_wall_hours * per_hour, m_plan.currency));
            }
            emit(std::move(option), spot_cash_flows(usage, *region.spot, overhead));
        }
    }
}

void Planner::add_self_built(const catalog::Build& build, const catalog::Gpu& gpu) {
    const catalog::SelfBuilt& sb = *m_catalog.self_built;
    const estimate::NodeShape shape{build.gpu_count, build.nvlink, build.network_gbps,
                                    std::nullopt};
    const estimate::GpuEstimate& e = m_cache.get(gpu, shape);
    const auto rate = fx(sb.currency);
    const catalog::Site& site = sb.site;
    auto value = [](const std::optional<catalog::Parameter>& p, double fallback) {
        return p ? p->value : fallback;
    };

    Option proto = base_option(gpu, e, build.gpu_count);
    proto.provider = "self_built";
    proto.instance = build.name;
    proto.purchase = PurchaseOption::self_built;
    proto.price_currency = sb.currency;
    proto.fx_rate = rate.value_or(1.0);
    const Usage usage = usage_of(m_workload, e, proto.nodes);

    SelfBuiltPlan plan{.nodes = proto.nodes,
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
                       .horizon_months = m_workload.horizon_months,
                       .bridge_price_per_hour = std::nullopt};

    const auto cheapest = m_cheapest_on_demand_per_gpu_hour.find(gpu.name);
    if (cheapest != m_cheapest_on_demand_per_gpu_hour.end() && rate) {
        const double node_hour = cheapest->second / proto.fx_rate * build.gpu_count;
        proto.break_even_utilisation = break_even_utilisation(plan, node_hour, m_plan.monthly_rate);
    }

    auto emit = [&](bool bridged) {
        Option option = proto;
        option.bridged = bridged;
        option.id = fmt::format("self_built/{}{}", build.name, bridged ? "/bridge" : "");
        SelfBuiltPlan p = plan;
        if (bridged) {
            p.bridge_price_per_hour = cheapest->second / proto.fx_rate * option.gpu_count;
        }
        const double end = self_built_end_hour(usage, p);
        option.wall_hours = m_workload.task == Task::inference
                                ? e.wall_hours
                                : end - usage_profile(usage, 0.0).end_hour + e.wall_hours;
        if (m_workload.task == Task::inference && !bridged &&
            m_workload.constraints.deadline_hours &&
            p.lead_time_hours > *m_workload.constraints.deadline_hours) {
            option.meets_deadline = false;
        }
        option.notes.push_back(fmt::format(
            "lead time {:g} weeks: {}", build.lead_time_weeks,
            bridged ? fmt::format("bridged on the cheapest cloud on-demand {} ({:.4f} {}/GPU-hour)",
                                  gpu.name, cheapest->second, m_plan.currency)
                    : std::string("the job waits for the hardware")));
        if (option.break_even_utilisation) {
            option.notes.push_back(fmt::format(
                "break-even utilisation vs the cheapest on-demand: {:.1f}% of hours from delivery "
                "to the horizon",
                *option.break_even_utilisation * 100.0));
        }
        finish(option, self_built_cash_flows(usage, p), e, usage, nullptr);
        judge(option, e, gpu);
        m_plan.options.push_back(std::move(option));
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
    for (Option& own : m_plan.options) {
        if (own.purchase != PurchaseOption::self_built || own.rejection) {
            continue;
        }
        for (PurchaseOption kind : k_all_purchase_options) {
            const Option* best = nullptr;
            for (const Option& cloud : m_plan.options) {
                if (cloud.purchase == kind && kind != PurchaseOption::self_built &&
                    !cloud.rejection && cloud.gpu == own.gpu &&
                    (!best || cloud.npv < best->npv ||
                     (cloud.npv == best->npv && cloud.id < best->id))) {
                    best = &cloud;
                }
            }
            if (!best) {
                continue;
            }
            const auto month = finance::break_even_month(
                m_plan.monthly_rate, own.cash_flows.amounts(), best->cash_flows.amounts());
            own.notes.push_back(
                month ? fmt::format("break-even vs {}: month {}", best->id, *month)
                      : fmt::format("break-even vs {}: none within the cash flows", best->id));
        }
    }
}

Plan Planner::run() {
    const Workload& w = m_workload;
    m_plan.currency = !m_settings.currency.empty()  ? m_settings.currency
                      : !w.finance.currency.empty() ? w.finance.currency
                                                    : "USD";
    m_plan.discount_rate = w.finance.discount_rate;
    m_plan.monthly_rate = finance::monthly_rate(w.finance.discount_rate);
    m_plan.horizon_months = w.horizon_months;
    m_plan.purchase_options = w.constraints.purchase.empty()
                                  ? std::vector<PurchaseOption>(k_all_purchase_options.begin(),
                                                                k_all_purchase_options.end())
                                  : w.constraints.purchase;
    for (const catalog::Gpu& gpu : m_catalog.gpus) {
        const bool wanted =
            w.constraints.gpu_models.empty() ||
            std::any_of(w.constraints.gpu_models.begin(), w.constraints.gpu_models.end(),
                        [&](const std::string& name) {
                            const catalog::Gpu* found = catalog::find_gpu(m_catalog, name);
                            return found && found->name == gpu.name;
                        });
        if (wanted) {
            m_plan.candidate_gpus.push_back(gpu.name);
        }
    }
    std::size_t fractional = 0;
    for (const catalog::Provider& provider : m_catalog.providers) {
        if (!w.constraints.providers.empty() && !contains(w.constraints.providers, provider.name)) {
            continue;
        }
        for (const catalog::Instance& instance : provider.instances) {
            const catalog::Gpu* gpu = catalog::find_gpu(m_catalog, instance.gpu);
            if (!gpu || !contains(m_plan.candidate_gpus, gpu->name)) {
                continue;
            }
            if (instance.gpu_count < 1.0 || std::floor(instance.gpu_count) != instance.gpu_count) {
                ++fractional;
                continue;
            }
            add_cloud(provider, instance, *gpu);
        }
    }
    if (m_catalog.self_built && allowed(m_plan.purchase_options, PurchaseOption::self_built) &&
        (w.constraints.providers.empty() || contains(w.constraints.providers, "self_built"))) {
        for (const catalog::Build& build : m_catalog.self_built->builds) {
            const catalog::Gpu* gpu = catalog::find_gpu(m_catalog, build.gpu);
            if (gpu && contains(m_plan.candidate_gpus, gpu->name)) {
                add_self_built(build, *gpu);
            }
        }
    }
    compare_self_built();
    if (fractional > 0) {
        m_plan.assumptions.push_back(fmt::format("{} fractional-GPU instance type{} not planned",
                                                 fractional, fractional == 1 ? " is" : "s are"));
    }
    m_plan.estimates = m_cache.calls();
    return std::move(m_plan);
}

} // namespace

Plan plan(const workload::Workload& workload, const catalog::Catalog& catalog,
          const Settings& settings, const Estimator& estimator) {
    Planner planner(workload, catalog, settings, estimator);
    return planner.run();
}

} // namespace gpuplan::cost
