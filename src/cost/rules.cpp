#include "gpuplan/cost/rules.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpuplan::cost {

namespace {

// The node shape an option runs on, as the rules see it.
decide::Configuration configuration_of(const Option& option, const catalog::Catalog& catalog) {
    decide::Configuration out{.gpu = option.gpu,
                              .purchase = option.purchase,
                              .gpu_count = option.gpu_count,
                              .nodes = option.nodes,
                              .nvlink = false,
                              .network_gbps = std::nullopt};
    if (option.purchase == PurchaseOption::self_built) {
        if (catalog.self_built) {
            for (const catalog::Build& build : catalog.self_built->builds) {
                if (build.name == option.instance) {
                    out.nvlink = build.nvlink;
                    out.network_gbps = build.network_gbps;
                }
            }
        }
        return out;
    }
    if (const catalog::Provider* provider = catalog::find_provider(catalog, option.provider)) {
        for (const catalog::Instance& instance : provider->instances) {
            if (instance.type == option.instance) {
                out.nvlink = instance.nvlink;
                out.network_gbps = instance.network_gbps;
            }
        }
    }
    return out;
}

} // namespace

void apply_decision(Plan& plan, const decide::Decision& decision, const catalog::Catalog& catalog,
                    ExcludedOptions excluded) {
    for (Option& option : plan.options) {
        if (auto rank = decide::preference_rank(decision, option.gpu)) {
            option.rule_preference = rank;
            for (const decide::CandidateGpu& candidate : decision.candidate_gpus) {
                if (candidate.gpu == option.gpu && candidate.reason) {
                    option.notes.push_back(fmt::format("the rules favour {} (rule '{}')",
                                                       option.gpu, candidate.reason->rule));
                }
            }
        }
        const decide::PurchaseVerdict& purchase = decide::verdict_for(decision, option.purchase);
        if (purchase.status == decide::PurchaseStatus::preferred && purchase.reason) {
            option.notes.push_back(fmt::format("the rules favour {} (rule '{}')",
                                               to_string(option.purchase), purchase.reason->rule));
        }
        if (option.rejection) {
            continue;
        }
        if (auto out = decide::rule_out(decision, configuration_of(option, catalog))) {
            option.rejection = Rejection::excluded_by_rule;
            option.reason = fmt::format("excluded by rule '{}': {}. {}", out->reason.rule,
                                        out->what, out->reason.why);
        }
    }
    if (excluded == ExcludedOptions::drop) {
        std::erase_if(plan.options, [](const Option& option) {
            return option.rejection == Rejection::excluded_by_rule;
        });
    }
}

} // namespace gpuplan::cost
