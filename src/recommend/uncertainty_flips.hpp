#pragma once

// Flip points: where a flag's value, a GPU's speed, a price, an exchange rate or the work share
// puts the runner-up first, each checked on the run's whole pipeline where a flag can show it.

#include "recommend/uncertainty_model.hpp"

#include <vector>

namespace gpuplan::recommend::detail {

// The run's pipeline, re-run with one input changed: its rules, objective and soft order.
struct Pipeline {
    const Recommendation& r;
    const catalog::Catalog& catalog;
    const decide::Tree* tree;
    RuleUse rules;
    rank::Soft soft;

    // The id of the option ranked first with the workload or settings changed by `change`;
    // empty when nothing is feasible.
    template <class Change> [[nodiscard]] std::string winner(const Change& change) const {
        workload::Workload w = r.workload;
        cost::Settings settings = r.settings;
        settings.itemise = false;
        settings.simulate = 0;
        change(w, settings);
        const RuleUse use = rules == RuleUse::explain ? RuleUse::apply : rules;
        const cost::Plan plan = recommend::plan(w, catalog, tree, use, settings);
        const std::vector<std::size_t> first =
            rank::rank_first(plan.options(), r.objective, rank::Candidates::feasible, 1, soft);
        return first.empty() ? std::string() : plan.options()[first.front()].id();
    }
};

// Every flip point found for the top two.
std::vector<Flip> flips_of(const Pipeline& p, const Model& model);

} // namespace gpuplan::recommend::detail
