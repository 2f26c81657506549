#include "gpuplan/cost/plan.hpp"

#include "cost/planner.hpp"
#include "gpuplan/cost/rules.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace gpuplan::cost::detail {

namespace {

// Larger GPU counts priced per instance type: up to 16 times the minimum (gpuplan's bound; it
// keeps the options priced within five times the minimum-count search).
constexpr int k_max_count_doublings = 4;

// What the serving model leaves out, said among a transformer serving plan's assumptions (E7).
std::string serving_not_modelled(const workload::Inference& in) {
    const bool lengths = in.input_tokens_p90 && in.output_tokens_p90;
    return fmt::format(
        "not modelled: speculative decoding, prefix caching, quantised KV caches other than fp8, "
        "and length distributions ({})",
        lengths ? "beyond the stated P90 lengths" : "input and output lengths at their means");
}

} // namespace

std::vector<int> Planner::larger_counts(const catalog::Instance& instance,
                                        const catalog::Gpu& gpu) {
    std::vector<int> out;
    const workload::Constraints& c = m_workload.constraints;
    if (m_settings.counts != GpuCounts::larger || m_workload.task == Task::inference ||
        c.gpu_count) {
        return out;
    }
    const int per_node = static_cast<int>(instance.gpu_count);
    const estimate::NodeShape shape = estimate::node_shape(instance);
    const estimate::GpuEstimate& least = m_cache.get(gpu, shape);
    if (!least.fits) {
        return out;
    }
    const int cap = c.max_gpus.value_or(workload::k_default_max_gpus);
    double wall = least.wall_hours;
    // Doubling the nodes until the cap, and while each doubling still shortens the run.
    int nodes = std::max(1, (least.gpu_count + per_node - 1) / per_node);
    for (int step = 0; step < k_max_count_doublings && 2 * nodes * per_node <= cap; ++step) {
        nodes *= 2;
        const estimate::GpuEstimate& e = m_cache.at(gpu, shape, nodes * per_node);
        if (!e.fits || e.gpu_count != nodes * per_node || e.wall_hours >= wall) {
            break;
        }
        out.push_back(nodes * per_node);
        wall = e.wall_hours;
    }
    return out;
}

void Planner::add_slice(const catalog::Provider& provider, const catalog::Instance& instance,
                        const catalog::Gpu& gpu) {
    if (const auto slice = catalog::gpu_slice(gpu, instance)) {
        add_cloud(provider, instance, slice_gpu(gpu, *slice), &*slice);
    } else {
        ++m_unplanned_counts;
    }
}

void Planner::start_plan() {
    const Workload& w = m_workload;
    m_plan.currency = !m_settings.currency.empty()  ? m_settings.currency
                      : !w.finance.currency.empty() ? w.finance.currency
                                                    : "USD";
    m_plan.discount_rate = w.finance.discount_rate;
    m_plan.monthly_rate = finance::monthly_rate(w.finance.discount_rate);
    m_plan.horizon_months = w.horizon_months;
    m_plan.budget = w.constraints.budget;
    if (w.constraints.budget) {
        m_budget_rate =
            catalog::fx_rate(m_catalog, w.constraints.budget->currency, m_plan.currency);
        if (!m_budget_rate) {
            // A budget nothing converts to would pass every option: refuse it instead.
            throw InputError({{w.name, 0, 0, "/constraints/budget",
                               fmt::format("no exchange rate from {} to {} in the catalog",
                                           w.constraints.budget->currency, m_plan.currency)}});
        }
    }
    m_plan.purchase_options = w.constraints.purchase.empty()
                                  ? std::vector<PurchaseOption>(k_all_purchase_options.begin(),
                                                                k_all_purchase_options.end())
                                  : w.constraints.purchase;
    const std::vector<std::string>& models = w.constraints.gpu_models;
    for (const catalog::Gpu& gpu : m_catalog.gpus) {
        const bool wanted = models.empty() ||
                            std::any_of(models.begin(), models.end(), [&](const std::string& name) {
                                const catalog::Gpu* found = catalog::find_gpu(m_catalog, name);
                                return found != nullptr && found->name == gpu.name;
                            });
        if (wanted) {
            m_plan.candidate_gpus.push_back(gpu.name);
        }
    }
}

void Planner::add_instance(const catalog::Provider& provider, const catalog::Instance& instance) {
    const catalog::Gpu* gpu = catalog::find_gpu(m_catalog, instance.gpu);
    if (gpu == nullptr || !contains(m_plan.candidate_gpus, gpu->name)) {
        return;
    }
    if (catalog::is_slice(instance) || std::floor(instance.gpu_count) != instance.gpu_count) {
        add_slice(provider, instance, *gpu);
        return;
    }
    add_cloud(provider, instance, *gpu);
    for (const int count : larger_counts(instance, *gpu)) {
        add_cloud(provider, instance, *gpu, nullptr, count);
    }
}

void Planner::add_self_built_options() {
    // Owning stays in the comparison under a provider filter: it is the alternative to renting
    // that the user weighs; only `purchase` leaves it out.
    if (!m_catalog.self_built || !allowed(m_plan.purchase_options, PurchaseOption::self_built)) {
        return;
    }
    for (const catalog::Build& build : m_catalog.self_built->builds) {
        const catalog::Gpu* gpu = catalog::find_gpu(m_catalog, build.gpu);
        if (gpu != nullptr && contains(m_plan.candidate_gpus, gpu->name)) {
            add_self_built(build, *gpu);
        }
    }
}

void Planner::add_assumptions() {
    if (m_unusable_spot > 0) {
        m_plan.assumptions.push_back(fmt::format(
            "{} spot price{} at or above the region's on-demand price not offered as spot",
            m_unusable_spot, m_unusable_spot == 1 ? "" : "s"));
    }
    if (m_unplanned_counts > 0) {
        m_plan.assumptions.push_back(fmt::format(
            "{} instance type{} with a GPU count above one that is not whole {} not planned (a "
            "slice is part of one GPU)",
            m_unplanned_counts, m_unplanned_counts == 1 ? "" : "s",
            m_unplanned_counts == 1 ? "is" : "are"));
    }
    if (m_workload.task == Task::inference &&
        m_workload.model.family == workload::Family::transformer) {
        m_plan.assumptions.push_back(serving_not_modelled(m_workload.inference));
    }
}

Plan Planner::run() {
    start_plan();
    // Room for every option up front: growing a vector of thousands of options re-faults pages
    // (and the buffer is a large one, see option_buffer.hpp).
    options().reserve(catalog::offer_count(m_catalog) * m_plan.purchase_options.size() +
                      (m_catalog.self_built ? 2 * m_catalog.self_built->builds.size() : 0));
    const std::vector<std::string>& providers = m_workload.constraints.providers;
    for (const catalog::Provider& provider : m_catalog.providers) {
        if (!providers.empty() && !contains(providers, provider.name)) {
            continue;
        }
        for (const catalog::Instance& instance : provider.instances) {
            add_instance(provider, instance);
        }
    }
    add_self_built_options();
    // A larger count is an alternative only when it is feasible; its minimum-count option already
    // says why the instance type is rejected.
    if (m_settings.counts == GpuCounts::larger) {
        std::erase_if(options(),
                      [](const Option& option) { return option.larger_count && option.rejection; });
    }
    compare_self_built();
    if (m_rules.decision != nullptr) {
        apply_decision(m_plan, *m_rules.decision, m_rules.excluded);
    }
    add_assumptions();
    m_plan.estimates = m_cache.calls();
    return std::move(m_plan);
}

} // namespace gpuplan::cost::detail

namespace gpuplan::cost {

Plan plan(const workload::Workload& workload, const catalog::Catalog& catalog,
          const Settings& settings, const Estimator& estimator, RuleFilter rules) {
    detail::Planner planner(workload, catalog, settings, estimator, rules);
    return planner.run();
}

} // namespace gpuplan::cost
