#include "gpuplan/recommend/tco.hpp"

#include "gpuplan/finance/finance.hpp"

#include <algorithm>
#include <span>
#include <tuple>

namespace gpuplan::recommend {

namespace {

// The best option of `kind` on `gpu`: feasible first, then lowest NPV, then id; null if none.
const cost::Option* best_of(const cost::Plan& plan, PurchaseOption kind, const std::string& gpu) {
    const cost::Option* best = nullptr;
    for (const cost::Option& o : plan.options()) {
        if (o.purchase != kind || o.gpu != gpu || o.bridged) {
            continue;
        }
        auto key = [](const cost::Option& x) { return std::tuple(x.rejection.has_value(), x.npv); };
        if (best == nullptr || key(o) < key(*best) ||
            (key(o) == key(*best) && cost::id_less(o, *best))) {
            best = &o;
        }
    }
    return best;
}

} // namespace

std::optional<Configuration> tco_configuration(const workload::Workload& workload,
                                               const catalog::Catalog& catalog,
                                               const decide::Tree* tree, RuleUse rules,
                                               const cost::Settings& settings) {
    if (workload.constraints.gpu_models.size() == 1) {
        const std::vector<const catalog::Gpu*> gpus = estimate::selected_gpus(workload, catalog);
        return Configuration{gpus.front()->name, workload.constraints.gpu_count};
    }
    // No single GPU model: the configuration of recommend's best option.
    const cost::Plan all = plan(workload, catalog, tree, rules, settings);
    const std::vector<std::size_t> ranked = rank::rank(all.options(), rank::Objective::cost);
    if (ranked.empty()) {
        return std::nullopt;
    }
    const cost::Option& best = all.options()[ranked.front()];
    return Configuration{best.gpu, best.gpu_count};
}

TcoComparison tco(workload::Workload workload, const catalog::Catalog& catalog,
                  const decide::Tree* tree, RuleUse rules, cost::Settings settings,
                  const Configuration& configuration, GeneratorInfo generator) {
    settings.itemise = true;
    workload.constraints.gpu_models = {configuration.gpu};
    workload.constraints.gpu_count = configuration.gpu_count;
    TcoComparison out;
    out.provider =
        workload.constraints.providers.size() == 1 ? workload.constraints.providers[0] : "";
    // Every purchase option is priced, owning included; the ones the workload rules out say why.
    workload.constraints.purchase.clear();
    std::vector<std::string>& providers = workload.constraints.providers;
    if (!providers.empty() &&
        std::find(providers.begin(), providers.end(), "self_built") == providers.end()) {
        providers.emplace_back("self_built");
    }
    const RuleUse shown = rules == RuleUse::none ? RuleUse::none : RuleUse::explain;
    const cost::Plan plan = recommend::plan(workload, catalog, tree, shown, settings);
    out.generator = std::move(generator);
    out.catalog = catalog_info(catalog, plan.options());
    out.workload = std::move(workload);
    out.conventions = plan.conventions();
    out.notes = plan.notes;
    out.gpu = configuration.gpu;
    if (shown != RuleUse::none) {
        out.rules_file = tree->file;
    }
    for (PurchaseOption kind : k_all_purchase_options) {
        const cost::Option* best = best_of(plan, kind, out.gpu);
        if (best != nullptr) {
            out.options.push_back({*best, std::nullopt, {}, cost::reason(plan, *best)});
            out.gpu_count = std::max(out.gpu_count, best->gpu_count);
            out.months = std::max(out.months, best->amounts.size());
        }
    }
    // Every option spans the same months: a shorter one's cost is held at its last value.
    for (TcoOption& t : out.options) {
        t.cumulative = finance::cumulative(t.option.amounts, out.months);
    }
    const auto on_demand =
        std::find_if(out.options.begin(), out.options.end(), [](const TcoOption& t) {
            return t.option.purchase == PurchaseOption::on_demand;
        });
    if (on_demand != out.options.end()) {
        const std::span<const double> reference = on_demand->option.amounts;
        for (TcoOption& t : out.options) {
            if (t.option.purchase != PurchaseOption::on_demand) {
                t.break_even_month = finance::break_even_month(out.conventions.monthly_rate,
                                                               t.option.amounts, reference);
            }
        }
    }
    return out;
}

} // namespace gpuplan::recommend
