#include "curve/demand.hpp"

#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuplan::curve {

namespace {

constexpr int k_months_per_year_count = 12;

} // namespace

std::vector<double> week_rates(const workload::Workload& workload, int month) {
    const workload::Inference& inference = workload.inference;
    std::vector<double> out(workload::k_hours_per_week, inference.requests_per_second);
    if (!inference.load) {
        return out;
    }
    const double growth = std::pow(1.0 + inference.load->growth_per_month, month);
    for (std::size_t h = 0; h < out.size(); ++h) {
        out[h] = inference.requests_per_second * inference.load->hourly.at(h) * growth;
    }
    return out;
}

double sized_rate(double rate, int percentile, double headroom) {
    if (rate <= 0.0) {
        return 0.0;
    }
    const double z = percentile == 90 ? k_z90 : 0.0;
    return (rate + z * std::sqrt(rate / k_burst_window_s)) * (1.0 + headroom);
}

} // namespace gpuplan::curve

namespace gpuplan::curve::detail {

namespace {

bool within(std::optional<double> target_ms, double value_ms) {
    return !target_ms || value_ms <= *target_ms * (1.0 + 1e-9);
}

// Whether a fleet's serving times meet the workload's targets at their percentile.
bool meets_targets(const estimate::ServingTime& t, const workload::Inference& inference) {
    const bool p90 = inference.percentile == 90;
    return within(inference.ttft_ms, p90 ? t.ttft_p90_ms : t.ttft_p50_ms) &&
           within(inference.tpot_ms, p90 ? t.tpot_p90_ms : t.tpot_p50_ms) &&
           within(inference.latency_ms, p90 ? t.latency_p90_ms : t.latency_p50_ms);
}

bool committed_kind(PurchaseOption option) {
    return option != PurchaseOption::on_demand && option != PurchaseOption::spot;
}

// Replicas at a rate, memoised by the rate.
class Sizer {
public:
    Sizer(const Inputs& rec, const catalog::Catalog& catalog, const catalog::Gpu& gpu,
          const cost::Option& shape)
        : m_catalog(&catalog), m_gpu(&gpu), m_workload(rec.workload) {
        m_workload.inference.load.reset();
        m_workload.inference.autoscaling.reset();
        m_workload.inference.hours_per_day = k_hours_per_day;
        m_workload.constraints.gpu_count.reset();
        m_node.gpus_per_node = shape.gpus_per_node;
        m_node.nvlink = shape.nvlink;
        m_node.network_gbps = shape.network_gbps;
    }

    // Pins the tensor degree the peak chose, so every hour counts replicas of one size.
    void pin(int tensor) { m_workload.inference.tensor_parallel = tensor; }

    struct Sized {
        int replicas = 0;
        int tensor = 1;
        bool fits = false;
        bool met = false;
    };

    const Sized& at(double rate) {
        auto found = m_memo.find(rate);
        if (found != m_memo.end()) {
            return found->second;
        }
        m_workload.inference.requests_per_second = rate;
        const estimate::GpuEstimate e =
            estimate::estimate(m_workload, *m_gpu, m_node, std::nullopt, *m_catalog);
        Sized s;
        s.fits = e.fits && e.data_parallel > 0;
        s.replicas = std::max(1, e.data_parallel);
        s.tensor = std::max(1, e.tensor_parallel);
        const double capacity = e.throughput.requests_per_second_capacity.value_or(0.0);
        s.met = s.fits && capacity >= rate * (1.0 - 1e-9) &&
                meets_targets(e.serving, m_workload.inference);
        return m_memo.emplace(rate, s).first->second;
    }

private:
    const catalog::Catalog* m_catalog;
    const catalog::Gpu* m_gpu;
    workload::Workload m_workload;
    estimate::NodeShape m_node;
    std::map<double, Sized> m_memo;
};

// The cheapest option of each purchase option of one GPU type, per GPU.
void keep_cheapest(std::vector<Offer>& offers, const cost::Option& option, double per_slot) {
    Offer offer{&option, option.npv / option.gpu_count / per_slot,
                option.total / option.gpu_count / per_slot};
    for (Offer& kept : offers) {
        if (kept.option->purchase != option.purchase) {
            continue;
        }
        if (offer.npv_per_gpu < kept.npv_per_gpu ||
            (offer.npv_per_gpu == kept.npv_per_gpu && cost::id_less(option, *kept.option))) {
            kept = offer;
        }
        return;
    }
    offers.push_back(offer);
}

// The ranked options grouped by GPU type, in the order of their best option.
std::vector<std::vector<const cost::Option*>> by_gpu(const Inputs& rec) {
    std::vector<std::vector<const cost::Option*>> out;
    std::map<std::string, std::size_t> index;
    const auto options = rec.plan.options();
    // Firm offers only when there is one, as fleet commits only to firm offers (C9c).
    const bool any_firm = std::any_of(rec.ranked.begin(), rec.ranked.end(),
                                      [&options](std::size_t i) { return options[i].firm(); });
    for (std::size_t i : rec.ranked) {
        const cost::Option& option = options[i];
        if (option.rejection || option.larger_count || !option.gpu_slice.empty() ||
            option.gpu_count <= 0 || (any_firm && !option.firm())) {
            continue;
        }
        auto [it, added] = index.emplace(option.gpu, out.size());
        if (added) {
            out.emplace_back();
        }
        out[it->second].push_back(&option);
    }
    return out;
}

// Replicas of one GPU type in every hour of every year.
void fill_need(TypeDemand& type, Sizer& sizer, const Inputs& rec, const Years& years) {
    const workload::Inference& inference = rec.workload.inference;
    const workload::Autoscaling scaling = inference.autoscaling.value_or(workload::Autoscaling{});
    const int floor_replicas =
        scaling.scale_to_zero ? scaling.min_replicas : std::max(1, scaling.min_replicas);
    const int step = std::max(1, scaling.granularity);
    for (int month : years.rate_month) {
        std::vector<int> need;
        std::vector<bool> met;
        for (double rate : week_rates(rec.workload, month)) {
            const double sized = sized_rate(rate, inference.percentile, scaling.headroom);
            int replicas = 0;
            bool ok = true;
            if (sized > 0.0) {
                const Sizer::Sized& s = sizer.at(sized);
                replicas = s.replicas;
                ok = s.met;
            }
            replicas = std::max(replicas, floor_replicas);
            replicas = (replicas + step - 1) / step * step;
            need.push_back(replicas);
            met.push_back(ok);
        }
        type.need.push_back(std::move(need));
        type.met.push_back(std::move(met));
    }
}

} // namespace

Years years_of(const Inputs& rec) {
    const int months = std::max(1, static_cast<int>(std::ceil(rec.plan.horizon_months - 1e-9)));
    const workload::Inference& inference = rec.workload.inference;
    const double growth = inference.load ? inference.load->growth_per_month : 0.0;
    const int blocks =
        growth == 0.0 ? 1 : (months + k_months_per_year_count - 1) / k_months_per_year_count;
    Years y;
    double npv_sum = 0.0;
    std::vector<double> npv(static_cast<std::size_t>(blocks), 0.0);
    std::vector<double> count(static_cast<std::size_t>(blocks), 0.0);
    for (int m = 1; m <= months; ++m) {
        const auto b =
            static_cast<std::size_t>(std::min(blocks - 1, (m - 1) / k_months_per_year_count));
        const double df = 1.0 / std::pow(1.0 + rec.plan.monthly_rate, m);
        npv[b] += df;
        npv_sum += df;
        count[b] += 1.0;
    }
    const double weeks_per_month = k_hours_per_month / workload::k_hours_per_week;
    for (int b = 0; b < blocks; ++b) {
        const auto i = static_cast<std::size_t>(b);
        y.npv_share.push_back(npv[i] / npv_sum);
        y.total_share.push_back(count[i] / months);
        y.weeks.push_back(count[i] * weeks_per_month);
        const int first = b * k_months_per_year_count;
        const int last = b == blocks - 1 ? months : (b + 1) * k_months_per_year_count;
        // The year's highest rates: its last month when the rate grows, its first when it falls.
        y.rate_month.push_back(blocks == 1 ? 0 : growth > 0.0 ? last : first);
    }
    return y;
}

std::vector<TypeDemand> type_demands(const Inputs& rec, const catalog::Catalog& catalog,
                                     const Years& years) {
    std::vector<TypeDemand> out;
    const workload::Inference& inference = rec.workload.inference;
    const double slots = workload::k_hours_per_week * inference.hours_per_day / k_hours_per_day;
    for (const std::vector<const cost::Option*>& options : by_gpu(rec)) {
        const catalog::Gpu* gpu = catalog::find_gpu(catalog, options.front()->gpu);
        if (gpu == nullptr) {
            continue;
        }
        TypeDemand type;
        type.shape = options.front();
        Sizer sizer(rec, catalog, *gpu, *type.shape);
        const workload::Autoscaling scaling =
            inference.autoscaling.value_or(workload::Autoscaling{});
        const double peak =
            sized_rate(inference.requests_per_second, inference.percentile, scaling.headroom);
        const Sizer::Sized at_peak = sizer.at(peak);
        if (!at_peak.fits) {
            continue;
        }
        // Nodes are bought whole (methodology L2): a committed node holds a whole number of
        // replicas, an hourly one exactly one replica.
        const int gpr = at_peak.tensor;
        for (const cost::Option* option : options) {
            const bool committed = committed_kind(option->purchase);
            if (option->gpus_per_node <= 0 || option->gpus_per_node % gpr != 0 ||
                (!committed && option->gpus_per_node != gpr)) {
                continue;
            }
            keep_cheapest(committed ? type.committed : type.hourly, *option,
                          committed ? 1.0 : slots);
        }
        for (Offer& offer : type.committed) {
            offer.replicas_per_node = offer.option->gpus_per_node / gpr;
        }
        if (type.committed.empty() && type.hourly.empty()) {
            continue;
        }
        sizer.pin(at_peak.tensor);
        type.gpus_per_replica = at_peak.tensor;
        fill_need(type, sizer, rec, years);
        out.push_back(std::move(type));
    }
    return out;
}

} // namespace gpuplan::curve::detail
