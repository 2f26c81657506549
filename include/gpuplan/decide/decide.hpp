#pragma once
// decide(): walks the decision tree over a workload's facts and returns which GPU models and
// purchase options the rules favour or rule out, the interconnect they require, and the full path
// taken. Pure; a missing fact is an outcome in the trace, never an error.

#include "gpuplan/decide/facts.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/purchase.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::decide {

// How a test came out. `missing`: a fact it needs is absent; `type_error`: a fact has another
// type than the test expects. Both take the node's `missing` branch (`else` without one).
enum class Outcome { yes, no, missing, type_error };

// `true`, `false`, `missing`, `type_error`.
[[nodiscard]] std::string_view to_string(Outcome outcome);

// A fact a test read, and its value (nullopt when absent).
struct FactUse {
    std::string fact;
    std::optional<FactValue> value;

    bool operator==(const FactUse&) const = default;
};

// One visited node: the test, the facts it read, the outcome, the branch taken and why.
struct TraceStep {
    std::string node;
    std::string test;           // describe(node.test)
    std::vector<FactUse> facts; // in the order the test names them, each once
    Outcome outcome = Outcome::yes;
    std::string branch; // `then`, `else` or `missing`: the YAML key of the branch taken
    std::string why;    // the branch's why, or the node's when the branch has none
    std::vector<std::string> sources;
    std::vector<std::string> effects; // what the branch did, as short phrases

    bool operator==(const TraceStep&) const = default;
};

// The rule (node id) behind a verdict and its why.
struct Reason {
    std::string rule;
    std::string why;

    bool operator==(const Reason&) const = default;
};

// A GPU model still in the search; `preferred` when a rule favours it (reason says which).
struct CandidateGpu {
    std::string gpu;
    bool preferred = false;
    std::optional<Reason> reason;

    bool operator==(const CandidateGpu&) const = default;
};

struct ExcludedGpu {
    std::string gpu;
    Reason reason;

    bool operator==(const ExcludedGpu&) const = default;
};

enum class PurchaseStatus { preferred, allowed, excluded };

// `preferred`, `allowed`, `excluded`.
[[nodiscard]] std::string_view to_string(PurchaseStatus status);

struct PurchaseVerdict {
    PurchaseOption option = PurchaseOption::on_demand;
    PurchaseStatus status = PurchaseStatus::allowed;
    std::optional<Reason> reason; // absent for options no rule mentioned

    bool operator==(const PurchaseVerdict&) const = default;
};

// Interconnect requirements, each with the rule that set it.
struct InterconnectRequirement {
    bool nvlink = false;
    std::optional<Reason> nvlink_reason;
    std::optional<double> min_network_gbps;
    std::optional<Reason> network_reason;

    bool operator==(const InterconnectRequirement&) const = default;
};

struct Decision {
    // Preferred models in preference order, then the other models of the `gpu_models` fact in
    // their order, without excluded ones.
    std::vector<CandidateGpu> candidate_gpus;
    std::vector<ExcludedGpu> excluded_gpus;        // in the order the rules excluded them
    std::vector<PurchaseVerdict> purchase_options; // all five, in k_all_purchase_options order
    InterconnectRequirement interconnect;
    std::vector<TraceStep> trace;

    bool operator==(const Decision&) const = default;
};

// Evaluates one condition over `facts` (three-valued: a missing fact makes the result unknown
// unless the other operands settle it). Records every fact read in `uses`.
[[nodiscard]] Outcome evaluate(const Condition& condition, const Facts& facts,
                               std::vector<FactUse>& uses);

// Walks `tree` from its root. Effects accumulate along the path: preferences append in the order
// met, an exclusion beats a preference, the highest network minimum wins. Terminates on any tree
// read_tree() accepts; visits each node at most once on any other.
[[nodiscard]] Decision decide(const Tree& tree, const Facts& facts);

// A configuration the cost stage is about to price.
struct Configuration {
    std::string gpu;
    PurchaseOption purchase = PurchaseOption::on_demand;
    int gpu_count = 1;
    int nodes = 1;
    bool nvlink = false;
    std::optional<double> network_gbps; // node to node; nullopt = unknown
};

// Why a configuration is ruled out: what about it breaks a rule, and the rule.
struct RuleOut {
    std::string what; // `GPU model H100 is excluded`, `network 100 Gbps < 400 Gbps required`
    Reason reason;

    bool operator==(const RuleOut&) const = default;
};

// The first rule that rules `configuration` out, checked in this order: excluded GPU model,
// excluded purchase option, no NVLink in a multi-GPU node, a multi-node run with a network
// slower than required; nullopt when the decision allows it. The answer
// depends only on the GPU model, the purchase option, whether GPUs share a node, whether there
// are several nodes, NVLink and the network speed (cost::apply_decision reuses it on that key).
[[nodiscard]] std::optional<RuleOut> rule_out(const Decision& decision,
                                              const Configuration& configuration);

// What a rule cannot check on an allowed configuration because the catalog lacks the fact: a
// multi-node run whose network speed is unknown. Such an option stays in the plan, marked with
// the caveat, instead of being excluded on a missing number. Same key as rule_out.
[[nodiscard]] std::optional<RuleOut> rule_caveat(const Decision& decision,
                                                 const Configuration& configuration);

// Position of `gpu` among the preferred candidates (0 = most favoured); nullopt when no rule
// favours it. Used to order ties.
[[nodiscard]] std::optional<std::size_t> preference_rank(const Decision& decision,
                                                         std::string_view gpu);

// The verdict on one purchase option.
[[nodiscard]] const PurchaseVerdict& verdict_for(const Decision& decision, PurchaseOption option);

} // namespace gpuplan::decide
