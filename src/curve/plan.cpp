#include "curve/demand.hpp"
#include "gpuplan/units.hpp"
#include "mip/program.hpp"

#include <algorithm>
#include <cmath>

namespace gpuplan::curve {

namespace {

using detail::Inputs;
using detail::Offer;
using detail::TypeDemand;
using detail::Years;

// Branch-and-bound subproblems a solve may select: the answer stays the same on every machine
// while the time limit is not reached.
constexpr int k_max_nodes = 20'000;
constexpr double k_tolerance = 1e-9;
constexpr double k_seconds_per_minute = 60.0;
constexpr auto k_week = static_cast<std::size_t>(workload::k_hours_per_week);

// The program: committed replicas per (type, offer), integers; hourly replicas per (type, offer,
// year, hour), continuous. Each hour's replicas of every type cover its load:
// sum over types of replicas / needed >= 1.
using mip::Program;

int peak_need(const TypeDemand& type) {
    int peak = 0;
    for (const std::vector<int>& year : type.need) {
        peak = std::max(peak, *std::max_element(year.begin(), year.end()));
    }
    return peak;
}

// The committed replicas of each type and offer the program chose ([type][offer]).
struct Chosen {
    std::vector<std::vector<int>> committed;
    bool optimal = false;
    std::size_t columns = 0;
    std::size_t rows = 0;
};

// The program's columns: committed replicas per (type, offer), hourly replicas per (type, offer)
// at [year * 168 + hour].
struct Columns {
    std::vector<std::vector<int>> committed;
    std::vector<std::vector<std::vector<int>>> hourly;
};

Columns add_columns(Program& program, const std::vector<TypeDemand>& types, const Years& years) {
    Columns cols;
    for (const TypeDemand& type : types) {
        const double gpr = type.gpus_per_replica;
        std::vector<int>& committed = cols.committed.emplace_back();
        for (const Offer& offer : type.committed) {
            // One column per offer in whole nodes, each holding replicas_per_node replicas.
            const int k = offer.replicas_per_node;
            const int most_nodes = (peak_need(type) + k - 1) / k;
            committed.push_back(
                program.column(0.0, most_nodes, offer.npv_per_gpu * gpr * k, mip::Kind::integer));
        }
        std::vector<std::vector<int>>& hourly = cols.hourly.emplace_back();
        for (const Offer& offer : type.hourly) {
            std::vector<int>& col = hourly.emplace_back();
            col.reserve(years.npv_share.size() * k_week);
            for (const double share : years.npv_share) {
                for (std::size_t h = 0; h < k_week; ++h) {
                    col.push_back(program.free_column(offer.npv_per_gpu * gpr * share));
                }
            }
        }
    }
    return cols;
}

// Hour h of year y covered: sum over types of replicas / needed >= 1 (no row without load).
void add_cover_row(Program& program, const std::vector<TypeDemand>& types, const Columns& cols,
                   std::size_t y, std::size_t h) {
    std::vector<std::pair<int, double>> terms;
    for (std::size_t g = 0; g < types.size(); ++g) {
        const int need = types[g].need[y][h];
        if (need <= 0) {
            continue;
        }
        for (std::size_t o = 0; o < cols.committed[g].size(); ++o) {
            terms.emplace_back(cols.committed[g][o],
                               static_cast<double>(types[g].committed[o].replicas_per_node) / need);
        }
        for (const std::vector<int>& hourly : cols.hourly[g]) {
            terms.emplace_back(hourly[y * k_week + h], 1.0 / need);
        }
    }
    if (!terms.empty()) {
        program.at_least(terms, 1.0);
    }
}

Chosen choose(const std::vector<TypeDemand>& types, const Years& years, double max_seconds) {
    Program program;
    const Columns cols = add_columns(program, types, years);
    for (std::size_t y = 0; y < years.npv_share.size(); ++y) {
        for (std::size_t h = 0; h < k_week; ++h) {
            add_cover_row(program, types, cols, y, h);
        }
    }
    Chosen chosen;
    chosen.columns = program.columns();
    chosen.rows = program.rows();
    const bool solved =
        program.rows() > 0 && program.solve(k_max_nodes, static_cast<int>(max_seconds * 1000.0));
    chosen.optimal = program.rows() == 0 || program.optimal();
    for (std::size_t g = 0; g < cols.committed.size(); ++g) {
        std::vector<int> replicas; // whole nodes times the replicas each holds
        replicas.reserve(cols.committed[g].size());
        for (std::size_t o = 0; o < cols.committed[g].size(); ++o) {
            const long nodes = solved ? std::lround(program.value(cols.committed[g][o])) : 0;
            replicas.push_back(static_cast<int>(nodes) * types[g].committed[o].replicas_per_node);
        }
        chosen.committed.push_back(std::move(replicas));
    }
    return chosen;
}

// The hourly replicas of one hour: the cheapest (type, offer) that covers what the committed
// replicas leave, in whole steps of the granularity.
struct HourBuy {
    std::size_t type = 0;
    std::size_t offer = 0;
    int replicas = 0;
};

std::optional<HourBuy> hour_buy(const std::vector<TypeDemand>& types, std::size_t y, std::size_t h,
                                double left, int step) {
    std::optional<HourBuy> best;
    double best_cost = 0.0;
    for (std::size_t g = 0; g < types.size(); ++g) {
        const int need = types[g].need[y][h];
        for (std::size_t k = 0; k < types[g].hourly.size() && need > 0; ++k) {
            int replicas = static_cast<int>(std::ceil(left * need - k_tolerance));
            replicas = (replicas + step - 1) / step * step;
            const double cost =
                replicas * types[g].gpus_per_replica * types[g].hourly[k].npv_per_gpu;
            if (!best || cost < best_cost) {
                best = HourBuy{g, k, replicas};
                best_cost = cost;
            }
        }
    }
    return best;
}

struct Assembled {
    CurvePlan plan;
    std::vector<std::vector<double>> hourly_hours; // [type][offer] replica-hours, first year
    std::vector<std::vector<int>> hourly_peak;     // [type][offer] most replicas in one hour
    std::vector<std::vector<double>> hourly_npv;   // [type][offer]
    std::vector<std::vector<double>> hourly_total; // [type][offer]
};

// The type that carries the most GPU-hours of the typical week, committed and hourly.
std::size_t main_type(const std::vector<TypeDemand>& types, const Chosen& chosen,
                      const Assembled& a) {
    std::size_t best = 0;
    double most = -1.0;
    for (std::size_t g = 0; g < types.size(); ++g) {
        double replica_hours = 0.0;
        for (int count : chosen.committed[g]) {
            replica_hours += count * static_cast<double>(workload::k_hours_per_week);
        }
        for (double hours : a.hourly_hours[g]) {
            replica_hours += hours;
        }
        const double gpu_hours = replica_hours * types[g].gpus_per_replica;
        if (gpu_hours > most) {
            most = gpu_hours;
            best = g;
        }
    }
    return best;
}

// What the committed replicas cover of hour h of year y: the share of its load, whether the
// types serving it meet the targets, and whether it has any load.
struct Cover {
    double covered = 0.0;
    bool ok = true;
    bool any = false;
};

Cover committed_cover(const std::vector<TypeDemand>& types, const Chosen& chosen, std::size_t y,
                      std::size_t h) {
    Cover c;
    for (std::size_t g = 0; g < types.size(); ++g) {
        const int need = types[g].need[y][h];
        int held = 0;
        for (int count : chosen.committed[g]) {
            held += count;
        }
        if (need > 0 && held > 0) {
            c.covered += static_cast<double>(held) / need;
            c.ok = c.ok && types[g].met[y][h];
        }
        c.any = c.any || need > 0;
    }
    return c;
}

// Adds an hour's burst to the totals of its type and offer.
void record_buy(Assembled& a, const std::vector<TypeDemand>& types, const Years& years,
                std::size_t y, const HourBuy& buy) {
    const TypeDemand& type = types[buy.type];
    const Offer& offer = type.hourly[buy.offer];
    const double gpus = static_cast<double>(buy.replicas) * type.gpus_per_replica;
    a.hourly_npv[buy.type][buy.offer] += gpus * offer.npv_per_gpu * years.npv_share[y];
    a.hourly_total[buy.type][buy.offer] += gpus * offer.total_per_gpu * years.total_share[y];
    if (y == 0) {
        a.hourly_hours[buy.type][buy.offer] += buy.replicas;
        int& peak = a.hourly_peak[buy.type][buy.offer];
        peak = std::max(peak, buy.replicas);
    }
}

// Hour h of the typical week: the committed replicas, the burst and the committed replicas idle.
Hour week_hour(std::size_t h, const Cover& c, int committed, int burst) {
    Hour hour;
    hour.hour = static_cast<int>(h);
    hour.committed = committed;
    hour.burst = burst;
    const double cover = c.covered > 0.0 ? c.covered : 1.0;
    hour.idle = c.any ? static_cast<int>(
                            std::floor(committed * std::max(0.0, 1.0 - 1.0 / cover) + k_tolerance))
                      : committed;
    return hour;
}

// The hours of every year with the hourly purchase that completes the committed base.
void fill_hours(Assembled& a, const std::vector<TypeDemand>& types, const Chosen& chosen,
                const Years& years, int step) {
    int committed_total = 0;
    for (const std::vector<int>& counts : chosen.committed) {
        for (int count : counts) {
            committed_total += count;
        }
    }
    std::vector<bool> met(k_week, true);
    for (std::size_t y = 0; y < years.npv_share.size(); ++y) {
        for (std::size_t h = 0; h < k_week; ++h) {
            Cover c = committed_cover(types, chosen, y, h);
            int burst = 0;
            if (c.any && c.covered < 1.0 - k_tolerance) {
                const std::optional<HourBuy> buy = hour_buy(types, y, h, 1.0 - c.covered, step);
                c.ok = c.ok && buy && types[buy->type].met[y][h];
                if (buy) {
                    burst = buy->replicas;
                    record_buy(a, types, years, y, *buy);
                }
            }
            met[h] = met[h] && c.ok;
            if (y == 0) {
                a.plan.hours.push_back(week_hour(h, c, committed_total, burst));
            }
        }
    }
    for (Hour& hour : a.plan.hours) {
        hour.met = met[static_cast<std::size_t>(hour.hour)];
    }
}

// The cold start of a replica of the main type and whether it breaks the target.
std::optional<ColdStart> cold_start(const Inputs& rec, const catalog::Catalog& catalog,
                                    const TypeDemand& type, const CurvePlan& plan) {
    const workload::Inference& inference = rec.workload.inference;
    const workload::Autoscaling scaling = inference.autoscaling.value_or(workload::Autoscaling{});
    ColdStart c;
    const cost::Option& shape = *type.shape;
    c.weights_gb = shape.state_gb;
    const catalog::Product* product = catalog::find_product(catalog, shape.provider);
    const bool stated = product != nullptr && product->startup_minutes.has_value();
    c.startup_s = (stated ? product->startup_minutes->value : cost::k_default_startup_minutes) *
                  k_seconds_per_minute;
    c.startup_placeholder = !stated || product->startup_minutes->note.rfind("PLACEHOLDER", 0) == 0;
    const double gbps = shape.network_gbps.value_or(k_fallback_download_gbps);
    c.download_s = c.weights_gb * k_bits_per_byte / gbps;
    c.load_s = c.weights_gb * k_bits_per_byte / (k_host_to_gpu_gbps * type.gpus_per_replica);
    c.seconds = c.startup_s + c.download_s + c.load_s;
    if (scaling.cold_start_s) {
        c.derived = false;
        c.seconds = *scaling.cold_start_s;
    }
    const std::optional<double> target =
        inference.latency_ms ? inference.latency_ms : inference.ttft_ms;
    const bool zero_hours = std::any_of(plan.hours.begin(), plan.hours.end(),
                                        [](const Hour& h) { return h.committed + h.burst == 0; });
    if (target) {
        c.target_ms = *target;
        c.breaks_target = scaling.scale_to_zero && zero_hours && c.seconds * 1000.0 > *target;
    }
    c.warm_replicas = c.breaks_target ? std::max(1, scaling.granularity) : 0;
    return c;
}

// The first hour with requests after an hour with no replica starts cold: its first requests
// wait for the cold start and miss their target.
void mark_cold_starts(CurvePlan& plan) {
    const std::size_t n = plan.hours.size();
    for (std::size_t h = 0; h < n; ++h) {
        const Hour& before = plan.hours[(h + n - 1) % n];
        Hour& hour = plan.hours[h];
        if (before.committed + before.burst == 0 && hour.committed + hour.burst > 0 && hour.met) {
            hour.met = false;
            --plan.hours_met;
            plan.hours_missed.push_back(hour.hour);
        }
    }
    std::sort(plan.hours_missed.begin(), plan.hours_missed.end());
}

void summarise(CurvePlan& plan, const Inputs& rec, const Years& years, double total) {
    const double weeks_per_month = k_hours_per_month / workload::k_hours_per_week;
    double replica_hours = 0.0;
    double used = 0.0;
    double committed_hours = 0.0;
    for (const Hour& hour : plan.hours) {
        replica_hours += hour.needed;
        plan.peak_replicas = std::max(plan.peak_replicas, hour.needed);
        committed_hours += hour.committed;
        used += hour.committed - hour.idle;
        if (hour.met) {
            ++plan.hours_met;
        } else {
            plan.hours_missed.push_back(hour.hour);
        }
    }
    plan.mean_replicas = replica_hours / workload::k_hours_per_week;
    plan.gpu_hours_per_month = replica_hours * plan.gpus_per_replica * weeks_per_month;
    plan.flat_peak_gpu_hours_per_month =
        plan.peak_replicas * plan.gpus_per_replica * k_hours_per_month;
    plan.committed_utilisation = committed_hours > 0.0 ? used / committed_hours : 0.0;
    double requests = 0.0;
    for (std::size_t y = 0; y < years.weeks.size(); ++y) {
        for (double rate : week_rates(rec.workload, years.rate_month[y])) {
            requests += rate * k_seconds_per_hour * years.weeks[y];
        }
    }
    const workload::Workload& w = rec.workload;
    if (w.model.family == workload::Family::transformer && requests > 0.0) {
        if (w.inference.input_tokens > 0.0) {
            plan.per_million_input_tokens = total / (requests * w.inference.input_tokens / 1e6);
        }
        plan.per_million_output_tokens = total / (requests * w.inference.output_tokens / 1e6);
    }
}

// The committed base and the hourly burst as purchase lines, and their NPV and total.
void add_purchases(Assembled& a, const std::vector<TypeDemand>& types, const Chosen& chosen) {
    CurvePlan& plan = a.plan;
    for (std::size_t g = 0; g < types.size(); ++g) {
        const TypeDemand& type = types[g];
        for (std::size_t o = 0; o < type.committed.size(); ++o) {
            const int replicas = chosen.committed[g][o];
            if (replicas <= 0) {
                continue;
            }
            const Offer& offer = type.committed[o];
            const double gpus = static_cast<double>(replicas) * type.gpus_per_replica;
            plan.base.push_back({offer.option->id(), type.shape->gpu, offer.option->purchase,
                                 type.gpus_per_replica, replicas,
                                 static_cast<double>(replicas) * workload::k_hours_per_week,
                                 gpus * offer.npv_per_gpu});
            plan.npv += gpus * offer.npv_per_gpu;
            plan.total += gpus * offer.total_per_gpu;
        }
        for (std::size_t k = 0; k < type.hourly.size(); ++k) {
            if (a.hourly_npv[g][k] <= 0.0) {
                continue;
            }
            const Offer& offer = type.hourly[k];
            plan.burst.push_back({offer.option->id(), type.shape->gpu, offer.option->purchase,
                                  type.gpus_per_replica, a.hourly_peak[g][k], a.hourly_hours[g][k],
                                  a.hourly_npv[g][k]});
            plan.npv += a.hourly_npv[g][k];
            plan.total += a.hourly_total[g][k];
        }
    }
}

} // namespace

// The flat fleet held to the curve's own standard: a type's peak replicas (the targets at each
// hour's burst, every year) in every hour of the horizon, bought as one offer, committed for the
// horizon or hourly in all 168 hours of every week; the cheapest over types and offers.
struct FlatPeak {
    const cost::Option* option = nullptr;
    int gpus = 0;
    double npv = 0.0;
};

FlatPeak flat_peak(const std::vector<TypeDemand>& types, const Years& years) {
    double hour_shares = 0.0;
    for (const double share : years.npv_share) {
        hour_shares += share * static_cast<double>(k_week);
    }
    FlatPeak best;
    const auto consider = [&best](const Offer& offer, int gpus, double npv) {
        if (best.option == nullptr || npv < best.npv ||
            (npv == best.npv && cost::id_less(*offer.option, *best.option))) {
            best = FlatPeak{offer.option, gpus, npv};
        }
    };
    for (const TypeDemand& type : types) {
        const int peak = peak_need(type);
        const int gpus = peak * type.gpus_per_replica;
        for (const Offer& offer : type.committed) {
            // Whole nodes: the peak's replicas rounded up to the replicas a node holds.
            const int k = offer.replicas_per_node;
            const int node_gpus = (peak + k - 1) / k * k * type.gpus_per_replica;
            consider(offer, node_gpus, offer.npv_per_gpu * node_gpus);
        }
        for (const Offer& offer : type.hourly) {
            consider(offer, gpus, offer.npv_per_gpu * gpus * hour_shares);
        }
    }
    return best;
}

std::optional<CurvePlan> plan_curve(const recommend::Recommendation& rec,
                                    const catalog::Catalog& catalog, double max_seconds) {
    return plan_curve(rec.workload, rec.plan, rec.ranked, catalog, max_seconds);
}

std::optional<CurvePlan> plan_curve(const workload::Workload& workload, const cost::Plan& priced,
                                    std::span<const std::size_t> ranked,
                                    const catalog::Catalog& catalog, double max_seconds) {
    const detail::Inputs rec{workload, priced, ranked};
    const workload::Workload& w = rec.workload;
    if (w.task != workload::Task::inference || !w.inference.load || rec.ranked.empty()) {
        return std::nullopt;
    }
    const Years years = detail::years_of(rec);
    const std::vector<TypeDemand> types = detail::type_demands(rec, catalog, years);
    if (types.empty()) {
        return std::nullopt;
    }
    const Chosen chosen = choose(types, years, max_seconds);
    const workload::Autoscaling scaling = w.inference.autoscaling.value_or(workload::Autoscaling{});

    Assembled a;
    for (const TypeDemand& type : types) {
        a.hourly_hours.emplace_back(type.hourly.size(), 0.0);
        a.hourly_peak.emplace_back(type.hourly.size(), 0);
        a.hourly_npv.emplace_back(type.hourly.size(), 0.0);
        a.hourly_total.emplace_back(type.hourly.size(), 0.0);
    }
    CurvePlan& plan = a.plan;
    plan.optimal = chosen.optimal;
    plan.columns = chosen.columns;
    plan.rows = chosen.rows;
    plan.gpu_types = types.size();
    plan.years = static_cast<int>(years.npv_share.size());
    plan.percentile = w.inference.percentile;
    plan.headroom = scaling.headroom;
    plan.scale_to_zero = scaling.scale_to_zero;
    fill_hours(a, types, chosen, years, std::max(1, scaling.granularity));
    const std::size_t main = main_type(types, chosen, a);
    plan.gpu = types[main].shape->gpu;
    plan.gpus_per_replica = types[main].gpus_per_replica;
    for (Hour& hour : plan.hours) {
        hour.needed = types[main].need[0][static_cast<std::size_t>(hour.hour)];
    }
    add_purchases(a, types, chosen);
    const FlatPeak flat = flat_peak(types, years);
    plan.flat_peak_id = flat.option->id();
    plan.flat_peak_npv = flat.npv;
    plan.flat_peak_gpus = flat.gpus;
    plan.saving = flat.npv > 0.0 ? 1.0 - plan.npv / flat.npv : 0.0;
    summarise(plan, rec, years, plan.total);
    plan.cold_start = cold_start(rec, catalog, types[main], plan);
    if (plan.cold_start && plan.cold_start->breaks_target) {
        mark_cold_starts(plan);
    }
    return plan;
}

} // namespace gpuplan::curve
