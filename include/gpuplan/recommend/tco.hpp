#pragma once
// `gpuplan tco`: every purchase option of one configuration (a GPU model and count), through the
// same pipeline as recommend, so the decision tree's exclusions are shown with their rule rather
// than silently ignored.

#include "gpuplan/recommend/recommend.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::recommend {

// One purchase option of the configuration `gpuplan tco` looks at.
struct TcoOption {
    cost::Option option;
    std::optional<int> break_even_month; // vs on_demand; nullopt for on_demand or never
    // Running sum of option.amounts month by month, held at its last value to the comparison's
    // month count.
    std::vector<double> cumulative;
    std::string reason; // why it is rejected; empty when it is not

    bool operator==(const TcoOption&) const = default;
};

struct TcoComparison {
    GeneratorInfo generator;
    CatalogInfo catalog;
    workload::Workload workload;
    cost::Conventions conventions; // the plan's rates, horizon, currency and exchange rates
    std::string gpu;
    int gpu_count = 0;
    std::string provider;           // empty = every provider
    std::vector<TcoOption> options; // one per purchase option, in the published order
    std::size_t months = 0;         // the longest option's cash flows, in months (month 0 too)
    std::vector<cost::Note> notes;  // the table the options' notes index
    std::string rules_file;         // the tree whose exclusions the options show; empty = none
};

// The configuration to compare: the workload's one GPU model (and its gpu_count, if any), else
// the GPU model and count of recommend's best option. nullopt when the workload names no single
// GPU model and nothing is feasible.
struct Configuration {
    std::string gpu;
    std::optional<int> gpu_count;

    bool operator==(const Configuration&) const = default;
};
[[nodiscard]] std::optional<Configuration>
tco_configuration(const workload::Workload& workload, const catalog::Catalog& catalog,
                  const decide::Tree* tree, RuleUse rules, const cost::Settings& settings);

// Prices every purchase option of `configuration` (owning included, whatever the workload's
// purchase list says; with a provider filter, self-built is compared too). For each purchase
// option, the best option (feasible first, then lowest NPV, then id); break-even months against
// on-demand; each option's cumulative cost and the month count. Options the tree excludes stay
// listed as rejected with the rule (RuleUse::explain is used for RuleUse::apply).
[[nodiscard]] TcoComparison tco(workload::Workload workload, const catalog::Catalog& catalog,
                                const decide::Tree* tree, RuleUse rules, cost::Settings settings,
                                const Configuration& configuration, GeneratorInfo generator);

} // namespace gpuplan::recommend
