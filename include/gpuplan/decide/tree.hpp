#pragma once
// The decision tree as data (catalog/decision_tree.yaml, docs/decision-rules.md): nodes that test
// facts and branch, branches that prefer or exclude GPU models and purchase options and set
// interconnect requirements, each with the sentence that says why.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/decide/facts.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/purchase.hpp"
#include "gpuplan/text_file.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::decide {

// Comparison operators a test may apply to a fact.
enum class Op { eq, ne, lt, le, gt, ge, in, not_in, contains, exists };

// The YAML key of an operator (`eq`, `lt`, `in`, ...).
[[nodiscard]] std::string_view to_string(Op op);

// A structured condition: a comparison of one fact, or all/any/not over sub-conditions.
struct Condition {
    enum class Kind { compare, all, any, negate };
    Kind kind = Kind::compare;
    std::string fact;                // compare: the fact tested
    Op op = Op::eq;                  // compare: the operator
    std::vector<FactValue> values;   // compare: one operand, or the set for in/not_in
    std::vector<Condition> children; // all/any: the operands; negate: exactly one

    bool operator==(const Condition&) const = default;
};

// What the rules favour or rule out about GPU models.
struct GpuEffects {
    std::vector<std::string> prefer;  // favoured models, most favoured first
    std::vector<std::string> exclude; // models ruled out
    std::vector<std::string> only;    // when not empty, every other model is ruled out

    bool operator==(const GpuEffects&) const = default;
};

// What the rules favour or rule out about ways to pay.
struct PurchaseEffects {
    std::vector<PurchaseOption> prefer;
    std::vector<PurchaseOption> exclude;

    bool operator==(const PurchaseEffects&) const = default;
};

// Interconnect a configuration must have.
struct InterconnectEffects {
    bool nvlink = false;                    // multi-GPU nodes must have NVLink
    std::optional<double> min_network_gbps; // multi-node configurations: node-to-node bandwidth

    bool operator==(const InterconnectEffects&) const = default;
};

// Where a node or branch sits in its file, for diagnostics and `rules show`.
struct Place {
    std::uint32_t line = 0;
    std::uint32_t column = 0;

    bool operator==(const Place&) const = default;
};

// One outcome of a node: its effects, why they follow, and the node to visit next (empty = stop).
struct Branch {
    GpuEffects gpus;
    PurchaseEffects purchase;
    InterconnectEffects interconnect;
    std::string why;
    std::vector<std::string> sources;
    std::string next;
    Place place;

    [[nodiscard]] bool has_effects() const {
        return !gpus.prefer.empty() || !gpus.exclude.empty() || !gpus.only.empty() ||
               !purchase.prefer.empty() || !purchase.exclude.empty() || interconnect.nvlink ||
               interconnect.min_network_gbps.has_value();
    }
    bool operator==(const Branch&) const = default;
};

// A node: a test, the question it answers, and where each outcome leads (YAML keys `then`, `else`,
// `missing`). A test that cannot be decided (a fact is absent or has the wrong type) takes
// `missing`, or `else` without it.
struct Node {
    std::string id;
    Condition test;
    std::string why;
    Branch on_true;
    Branch on_false;
    std::optional<Branch> on_missing;
    std::vector<std::string> sources;
    Place place;

    bool operator==(const Node&) const = default;
};

struct Tree {
    std::string file; // where it was read from, for messages
    std::string root; // id of the first node
    std::vector<Node> nodes;
    std::map<std::string, Source> sources;

    bool operator==(const Tree&) const = default;
};

// The node with `id`; nullptr when none.
[[nodiscard]] const Node* find_node(const Tree& tree, std::string_view id);

// What a GPU model name the catalog does not know is: an error (`rules check`, the build), or a
// model that is simply not in the search (applying a tree to a smaller catalog).
enum class UnknownGpus { error, allow };

// Reads a decision tree (`schema_version: 1`). With a catalog, GPU model names are resolved to
// the catalog's canonical names; unknown ones are errors or kept as written (`unknown`). Checks
// every fact name, operator, operand type, choice, purchase option, source and node reference,
// and that every node is reachable from the root without a cycle. Throws InputError with every
// problem. The same as parse_tree() then resolve_tree() (src/decide/parsed_tree.hpp).
[[nodiscard]] Tree read_tree(const TextFile& file, const catalog::Catalog* catalog = nullptr,
                             UnknownGpus unknown = UnknownGpus::allow);

// Every problem read_tree() would report (empty when the tree is valid); never throws.
[[nodiscard]] std::vector<Diagnostic> validate_tree(const TextFile& file,
                                                    const catalog::Catalog* catalog = nullptr,
                                                    UnknownGpus unknown = UnknownGpus::error);

// The condition as a readable expression: `params >= 1e+11 and task in [train, finetune]`.
[[nodiscard]] std::string describe(const Condition& condition);

// What a branch does, as short phrases (`prefer T4, L4`, `exclude purchase spot`,
// `require 100 Gbps between nodes`), in the order decide() applies them.
[[nodiscard]] std::vector<std::string> describe_effects(const Branch& branch);

// A fact value as text: numbers with M/B/T from a million up (6.74B), whole from 1,000 up, else
// to 4 significant digits; lists as `[a, b]`.
[[nodiscard]] std::string describe(const FactValue& value);

} // namespace gpuplan::decide
