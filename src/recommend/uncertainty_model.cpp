#include "recommend/uncertainty_model.hpp"

#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/finance/finance.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace gpuplan::recommend::detail {

using cost::Item;
using cost::k_item_count;

namespace {

double sigma_of(double median_error) {
    return std::log1p(median_error) / k_z75;
}

bool priced_item(std::size_t item) {
    switch (static_cast<Item>(item)) {
    case Item::compute:
    case Item::upfront:
    case Item::commitment:
    case Item::bridge:
    case Item::capex:
    case Item::maintenance:
    case Item::resale:
        return true;
    default:
        return false;
    }
}

bool hourly_item(std::size_t item) {
    const auto kind = static_cast<Item>(item);
    return kind == Item::compute || kind == Item::power || kind == Item::storage;
}

double price_error(const cost::Option& option) {
    switch (option.price_basis) {
    case cost::PriceBasis::list:
        return k_list_error;
    case cost::PriceBasis::snapshot:
        return k_snapshot_error;
    case cost::PriceBasis::derived:
        return k_derived_error;
    case cost::PriceBasis::negotiated:
        return k_negotiated_error;
    case cost::PriceBasis::quote:
        return k_quote_error;
    }
    return k_quote_error;
}

// The spread of an offer's own price (its basis, drawn alone) and of what it shares with the
// provider's product (drift with age; a derived discount), as lognormal sigmas.
std::pair<double, double> price_sigmas(const cost::Option& option, const std::optional<Date>& today,
                                       const UncertaintyInputs& inputs) {
    double basis = sigma_of(price_error(option));
    if (inputs.price_error && option.price_basis == cost::PriceBasis::list) {
        basis = sigma_of(*inputs.price_error);
    }
    double age_years = 0.0;
    if (!option.prices_as_of) {
        age_years = k_undated_age_years;
    } else if (today) {
        age_years = std::max(0.0, static_cast<double>(today->days_since_epoch() -
                                                      option.prices_as_of->days_since_epoch()) /
                                      365.25);
    }
    const double drift = sigma_of(k_price_drift_per_year) * age_years;
    // A derived commitment is one discount applied to every region: its error is shared.
    if (option.price_basis == cost::PriceBasis::derived) {
        return {0.0, std::hypot(basis, drift)};
    }
    return {basis, drift};
}

// The annual volatility of `currency` against the base, pooled over the catalog's dated rates.
double fx_annual_sigma(const catalog::Catalog& catalog, const std::string& currency) {
    std::vector<const catalog::FxRate*> rates;
    for (const catalog::FxRate& rate : catalog.fx.rates) {
        if (rate.currency == currency) {
            rates.push_back(&rate);
        }
    }
    std::sort(rates.begin(), rates.end(), [](const catalog::FxRate* a, const catalog::FxRate* b) {
        return a->as_of < b->as_of;
    });
    double squares = 0.0;
    double years = 0.0;
    for (std::size_t i = 1; i < rates.size(); ++i) {
        const double dt = static_cast<double>(rates[i]->as_of.days_since_epoch() -
                                              rates[i - 1]->as_of.days_since_epoch()) /
                          365.25;
        if (dt > 0.0 && rates[i]->per_base > 0.0 && rates[i - 1]->per_base > 0.0) {
            const double change = std::log(rates[i]->per_base / rates[i - 1]->per_base);
            squares += change * change;
            years += dt;
        }
    }
    return years > 0.0 ? std::sqrt(squares / years) : k_default_fx_sigma;
}

void split_items(const cost::Plan& plan, const cost::Option& option, Drawn& d) {
    const std::size_t months = option.cash_flows.months.size();
    std::vector<double> series(months, 0.0);
    for (std::size_t item = 0; item < k_item_count; ++item) {
        for (std::size_t k = 0; k < months; ++k) {
            series[k] = option.cash_flows.months[k][item];
        }
        const double npv = finance::npv(plan.monthly_rate, series);
        const double total = option.item_totals[item];
        const bool priced = priced_item(item);
        const bool hourly = hourly_item(item);
        (priced && hourly ? d.npv_priced_hourly
         : priced         ? d.npv_priced
         : hourly         ? d.npv_hourly
                          : d.npv_fixed) += npv;
        (priced && hourly ? d.total_priced_hourly
         : priced         ? d.total_priced
         : hourly         ? d.total_hourly
                          : d.total_fixed) += total;
    }
}

// A service's needs (speed factors) and a training option's judged wall time, from the estimate
// of its configuration.
void estimate_needs(const Recommendation& r, const catalog::Catalog& catalog,
                    estimate::Memo& estimates, Drawn& d) {
    const cost::Option& o = *d.option;
    const workload::Workload& w = r.workload;
    const bool spot = o.purchase == PurchaseOption::spot;
    if (spot && o.p90_wall_hours && o.wall_hours > 0.0) {
        d.judged_ratio = *o.p90_wall_hours / o.wall_hours;
    }
    const bool needs_estimate =
        w.task == workload::Task::inference || (w.constraints.deadline_hours.has_value() && !spot);
    const catalog::Gpu* gpu = catalog::find_gpu(catalog, o.gpu);
    if (!needs_estimate || gpu == nullptr || !o.gpu_slice.empty()) {
        return;
    }
    estimate::NodeShape shape;
    shape.gpus_per_node = o.gpus_per_node;
    shape.nvlink = o.nvlink;
    shape.network_gbps = o.network_gbps;
    const estimate::GpuEstimate& e = estimates.get(*gpu, shape, o.gpu_count);
    if (w.task != workload::Task::inference) {
        if (e.goodput && o.wall_hours > 0.0) {
            const double margin = e.goodput->confidence_wall_hours - e.goodput->expected_wall_hours;
            d.judged_ratio = (o.wall_hours + margin) / o.wall_hours;
        }
        return;
    }
    const workload::Inference& in = w.inference;
    const double capacity = e.throughput.requests_per_second_capacity.value_or(0.0);
    d.need_rate = capacity > 0.0 ? in.requests_per_second / capacity : 0.0;
    const bool p90 = in.percentile == 90;
    const estimate::ServingTime& t = e.serving;
    const auto need = [&](const std::optional<double>& target, double p50_ms, double p90_ms) {
        if (target && *target > 0.0) {
            const double achieved = p90 ? p90_ms : p50_ms;
            d.need_time = std::max(d.need_time, achieved / *target);
            if (!d.latency_ms) {
                d.latency_ms = achieved;
            }
        }
    };
    need(in.latency_ms, t.latency_p50_ms, t.latency_p90_ms);
    need(in.ttft_ms, t.ttft_p50_ms, t.ttft_p90_ms);
    need(in.tpot_ms, t.tpot_p50_ms, t.tpot_p90_ms);
}

// A spot option's interruption figures (its spot_risk note) and the span its rate is drawn in.
void spot_of(const cost::Plan& plan, const cost::Option& o, const UncertaintyInputs& inputs,
             Keys& spots, Drawn& d) {
    const cost::Note* note = spot_note(plan, o);
    if (note == nullptr) {
        return;
    }
    d.spot_key = spots.intern(fmt::format("{}|{}|{}", o.provider, o.region, o.instance));
    d.spot = {note->figures[0], note->figures[3], note->figures[5]};
    d.spot_nodes = static_cast<int>(note->figures[1]);
    d.spot_wall_factor = note->figures[6] > 0.0 ? note->figures[6] : 1.0;
    const bool placeholder =
        note->subject == cost::k_rate_from_provider || note->subject == cost::k_rate_from_gpuplan;
    d.spot_span =
        inputs.spot_rate_factor.value_or(placeholder ? k_spot_rate_swing : k_sourced_spot_factor);
}

std::string price_key(const cost::Option& o) {
    return fmt::format("{}|{}|{}", o.provider, o.gpu, to_string(o.purchase));
}

} // namespace

const cost::Note* spot_note(const cost::Plan& plan, const cost::Option& option) {
    for (const cost::NoteIndex index : option.notes) {
        if (plan.notes[index].kind == cost::NoteKind::spot_risk) {
            return &plan.notes[index];
        }
    }
    return nullptr;
}
Model make_model(const Recommendation& r, const catalog::Catalog& catalog,
                 const UncertaintySettings& u, rank::Soft soft, std::size_t drawn_groups) {
    Model m;
    const workload::Workload& w = r.workload;
    m.inference = w.task == workload::Task::inference;
    const double error =
        u.inputs.estimate_error.value_or(m.inference ? k_serving_error : k_training_error);
    m.estimate_sigma = sigma_of(error);
    m.utilisation = u.inputs.utilisation;
    m.demand = m.inference ? u.inputs.demand : std::nullopt;
    m.deadline = w.constraints.deadline_hours;
    if (r.plan.budget) {
        const auto rate = catalog::fx_rate(catalog, r.plan.budget->currency, r.plan.currency);
        if (rate) {
            m.budget = r.plan.budget->amount * *rate;
        }
    }
    m.objective = r.objective;
    m.soft = soft;
    Keys gpus;
    Keys prices;
    Keys spots;
    Keys currencies;
    const double horizon_years = std::max(r.plan.horizon_months, 1.0) / 12.0;
    // Each drawn configuration estimated once: many offers share one.
    estimate::Memo estimates(
        [&](const catalog::Gpu& gpu, const estimate::NodeShape& node, std::optional<int> count) {
            return estimate::estimate(w, gpu, node, count, catalog);
        },
        w);
    m.drawn.reserve(drawn_groups);
    for (std::size_t g = 0; g < drawn_groups; ++g) {
        const cost::Option& o = r.shown(g);
        Drawn d;
        d.option = &o;
        d.group = g;
        d.firm = o.firm();
        split_items(r.plan, o, d);
        d.wall = o.wall_hours;
        d.startup = std::min(o.startup_hours, o.wall_hours);
        d.gpu_key = gpus.intern(o.gpu);
        d.price_key = prices.intern(price_key(o));
        std::tie(d.row_sigma, d.drift_sigma) = price_sigmas(o, r.settings.today, u.inputs);
        if (o.purchase == PurchaseOption::spot) {
            spot_of(r.plan, o, u.inputs, spots, d);
        }
        if (o.price_currency != r.plan.currency && !o.price_currency.empty()) {
            const std::size_t before = currencies.size();
            d.fx_key = currencies.intern(o.price_currency);
            if (currencies.size() > before) {
                const double annual = std::hypot(fx_annual_sigma(catalog, o.price_currency),
                                                 fx_annual_sigma(catalog, r.plan.currency));
                m.fx_sigma.push_back(annual * std::sqrt(horizon_years / 3.0));
            }
        }
        estimate_needs(r, catalog, estimates, d);
        m.drawn.push_back(d);
    }
    m.gpus = gpus.size();
    m.prices = prices.size();
    m.spots = spots.size();
    return m;
}

// The groups drawn: the best-ranked ones within k_drawn_cost_factor of the best's NPV (by time,
// of its wall time), at most k_max_drawn.
std::size_t drawn_count(const Recommendation& r) {
    if (r.groups.empty()) {
        return 0;
    }
    const bool by_time = r.objective == rank::Objective::time;
    const auto measure = [&](const cost::Option& o) { return by_time ? o.wall_hours : o.npv; };
    const double best = measure(r.shown(0));
    std::size_t n = 0;
    while (n < r.groups.size() && n < k_max_drawn) {
        const double value = measure(r.shown(n));
        if (n > 0 && best > 0.0 && value > best * k_drawn_cost_factor) {
            break;
        }
        ++n;
    }
    return std::max<std::size_t>(n, std::min<std::size_t>(2, r.groups.size()));
}

} // namespace gpuplan::recommend::detail
