#include "gpuplan/decide/decide.hpp"

#include "gpuplan/enum_names.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace gpuplan::decide {

namespace {

void record_use(std::vector<FactUse>& uses, const std::string& fact, const Facts& facts) {
    for (const FactUse& use : uses) {
        if (use.fact == fact) {
            return;
        }
    }
    auto it = facts.find(fact);
    uses.push_back({fact, it == facts.end() ? std::nullopt : std::optional<FactValue>(it->second)});
}

// The type a test expects: the fact's declared type, or its operand's for an undeclared fact.
FactType expected_type(const Condition& condition) {
    if (const FactDefinition* definition = find_fact(condition.fact)) {
        return definition->type;
    }
    if (condition.op == Op::contains) {
        return FactType::list;
    }
    return condition.values.empty() ? FactType::number : type_of(condition.values.front());
}

Outcome from_bool(bool value) {
    return value ? Outcome::yes : Outcome::no;
}

Outcome compare(const Condition& condition, const FactValue& actual) {
    if (condition.op == Op::in || condition.op == Op::not_in) {
        const bool found = std::find(condition.values.begin(), condition.values.end(), actual) !=
                           condition.values.end();
        return from_bool(condition.op == Op::in ? found : !found);
    }
    if (condition.values.empty()) {
        return Outcome::type_error;
    }
    const FactValue& operand = condition.values.front();
    if (condition.op == Op::contains) {
        const auto* list = std::get_if<std::vector<std::string>>(&actual);
        const auto* item = std::get_if<std::string>(&operand);
        if (list == nullptr || item == nullptr) {
            return Outcome::type_error;
        }
        return from_bool(std::find(list->begin(), list->end(), *item) != list->end());
    }
    if (actual.index() != operand.index()) {
        return Outcome::type_error;
    }
    switch (condition.op) {
    case Op::eq:
        return from_bool(actual == operand);
    case Op::ne:
        return from_bool(actual != operand);
    default:
        break;
    }
    const auto* left = std::get_if<double>(&actual);
    const auto* right = std::get_if<double>(&operand);
    if (left == nullptr || right == nullptr) {
        return Outcome::type_error;
    }
    switch (condition.op) {
    case Op::lt:
        return from_bool(*left < *right);
    case Op::le:
        return from_bool(*left <= *right);
    case Op::gt:
        return from_bool(*left > *right);
    case Op::ge:
        return from_bool(*left >= *right);
    default:
        return Outcome::type_error;
    }
}

// Combines undecided operands: a type error outranks a missing fact, so it is never hidden.
Outcome worst_unknown(Outcome a, Outcome b) {
    if (a == Outcome::type_error || b == Outcome::type_error) {
        return Outcome::type_error;
    }
    return Outcome::missing;
}

bool is_unknown(Outcome outcome) {
    return outcome == Outcome::missing || outcome == Outcome::type_error;
}

// Accumulates the effects of the branches taken.
class Accumulator {
public:
    explicit Accumulator(const Facts& facts) {
        auto it = facts.find("gpu_models");
        if (it != facts.end()) {
            if (const auto* list = std::get_if<std::vector<std::string>>(&it->second)) {
                m_universe = *list;
                m_universe_known = true;
            }
        }
    }

    // Applies the branch's effects with `reason` as the rule behind each one.
    void apply(const Branch& branch, const Reason& reason) {
        for (const std::string& gpu : branch.gpus.prefer) {
            if (std::none_of(m_preferred.begin(), m_preferred.end(),
                             [&](const auto& p) { return p.first == gpu; })) {
                m_preferred.emplace_back(gpu, reason);
            }
        }
        if (!branch.gpus.only.empty()) {
            for (const std::string& gpu : m_universe) {
                if (std::find(branch.gpus.only.begin(), branch.gpus.only.end(), gpu) ==
                    branch.gpus.only.end()) {
                    exclude_gpu(gpu, reason);
                }
            }
        }
        for (const std::string& gpu : branch.gpus.exclude) {
            exclude_gpu(gpu, reason);
        }
        for (PurchaseOption option : branch.purchase.prefer) {
            auto& slot = m_purchase.at(static_cast<std::size_t>(option));
            if (!slot) {
                slot = std::make_pair(PurchaseStatus::preferred, reason);
            }
        }
        for (PurchaseOption option : branch.purchase.exclude) {
            auto& slot = m_purchase.at(static_cast<std::size_t>(option));
            if (!slot || slot->first != PurchaseStatus::excluded) {
                slot = std::make_pair(PurchaseStatus::excluded, reason);
            }
        }
        if (branch.interconnect.nvlink && !m_interconnect.nvlink) {
            m_interconnect.nvlink = true;
            m_interconnect.nvlink_reason = reason;
        }
        if (auto gbps = branch.interconnect.min_network_gbps) {
            if (!m_interconnect.min_network_gbps || *gbps > *m_interconnect.min_network_gbps) {
                m_interconnect.min_network_gbps = *gbps;
                m_interconnect.network_reason = reason;
            }
        }
    }

    void finish(Decision& decision) const {
        auto is_excluded = [&](const std::string& gpu) {
            return std::any_of(m_excluded.begin(), m_excluded.end(),
                               [&](const ExcludedGpu& e) { return e.gpu == gpu; });
        };
        auto in_universe = [&](const std::string& gpu) {
            return !m_universe_known ||
                   std::find(m_universe.begin(), m_universe.end(), gpu) != m_universe.end();
        };
        for (const auto& [gpu, reason] : m_preferred) {
            if (!is_excluded(gpu) && in_universe(gpu)) {
                decision.candidate_gpus.push_back({gpu, true, reason});
            }
        }
        for (const std::string& gpu : m_universe) {
            const bool listed =
                std::any_of(decision.candidate_gpus.begin(), decision.candidate_gpus.end(),
                            [&](const CandidateGpu& c) { return c.gpu == gpu; });
            if (!listed && !is_excluded(gpu)) {
                decision.candidate_gpus.push_back({gpu, false, std::nullopt});
            }
        }
        decision.excluded_gpus = m_excluded;
        for (PurchaseOption option : k_all_purchase_options) {
            const auto& slot = m_purchase.at(static_cast<std::size_t>(option));
            if (slot) {
                decision.purchase_options.push_back({option, slot->first, slot->second});
            } else {
                decision.purchase_options.push_back(
                    {option, PurchaseStatus::allowed, std::nullopt});
            }
        }
        decision.interconnect = m_interconnect;
    }

private:
    void exclude_gpu(const std::string& gpu, const Reason& reason) {
        if (std::none_of(m_excluded.begin(), m_excluded.end(),
                         [&](const ExcludedGpu& e) { return e.gpu == gpu; })) {
            m_excluded.push_back({gpu, reason});
        }
    }

    std::vector<std::string> m_universe;
    bool m_universe_known = false;
    std::vector<std::pair<std::string, Reason>> m_preferred;
    std::vector<ExcludedGpu> m_excluded;
    std::array<std::optional<std::pair<PurchaseStatus, Reason>>, k_all_purchase_options.size()>
        m_purchase{};
    InterconnectRequirement m_interconnect;
};

} // namespace

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_outcome_names{
    std::to_array<std::pair<std::string_view, Outcome>>({{"true", Outcome::yes},
                                                         {"false", Outcome::no},
                                                         {"missing", Outcome::missing},
                                                         {"type_error", Outcome::type_error}})};

std::string_view to_string(Outcome outcome) {
    return k_outcome_names.name(outcome);
}

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_purchase_status_names{
    std::to_array<std::pair<std::string_view, PurchaseStatus>>(
        {{"preferred", PurchaseStatus::preferred},
         {"allowed", PurchaseStatus::allowed},
         {"excluded", PurchaseStatus::excluded}})};

std::string_view to_string(PurchaseStatus status) {
    return k_purchase_status_names.name(status);
}

namespace {

Outcome evaluate_compare(const Condition& condition, const Facts& facts,
                         std::vector<FactUse>& uses) {
    record_use(uses, condition.fact, facts);
    auto it = facts.find(condition.fact);
    if (condition.op == Op::exists) {
        const bool wanted = condition.values.empty() ||
                            std::get_if<bool>(&condition.values.front()) == nullptr ||
                            std::get<bool>(condition.values.front());
        return from_bool((it != facts.end()) == wanted);
    }
    if (it == facts.end()) {
        return Outcome::missing;
    }
    if (type_of(it->second) != expected_type(condition)) {
        return Outcome::type_error;
    }
    return compare(condition, it->second);
}

// `all` and `any`: every operand is evaluated, so the trace shows every fact the test reads.
Outcome evaluate_group(const Condition& condition, const Facts& facts, std::vector<FactUse>& uses) {
    const bool is_all = condition.kind == Condition::Kind::all;
    std::optional<Outcome> unknown;
    bool settled = false;
    for (const Condition& child : condition.children) {
        const Outcome outcome = evaluate(child, facts, uses);
        if (is_unknown(outcome)) {
            unknown = unknown ? worst_unknown(*unknown, outcome) : outcome;
        } else if (outcome == (is_all ? Outcome::no : Outcome::yes)) {
            settled = true;
        }
    }
    if (settled) {
        return is_all ? Outcome::no : Outcome::yes;
    }
    if (unknown) {
        return *unknown;
    }
    return is_all ? Outcome::yes : Outcome::no;
}

Outcome evaluate_negate(const Condition& condition, const Facts& facts,
                        std::vector<FactUse>& uses) {
    if (condition.children.empty()) {
        return Outcome::type_error;
    }
    const Outcome outcome = evaluate(condition.children.front(), facts, uses);
    if (is_unknown(outcome)) {
        return outcome;
    }
    return outcome == Outcome::yes ? Outcome::no : Outcome::yes;
}

} // namespace

Outcome evaluate(const Condition& condition, const Facts& facts, std::vector<FactUse>& uses) {
    switch (condition.kind) {
    case Condition::Kind::compare:
        return evaluate_compare(condition, facts, uses);
    case Condition::Kind::all:
    case Condition::Kind::any:
        return evaluate_group(condition, facts, uses);
    case Condition::Kind::negate:
        return evaluate_negate(condition, facts, uses);
    }
    return Outcome::type_error;
}

Decision decide(const Tree& tree, const Facts& facts) {
    Decision decision;
    Accumulator accumulator(facts);
    std::set<std::string, std::less<>> visited;
    std::string current = tree.root;
    while (!current.empty()) {
        const Node* node = find_node(tree, current);
        if (node == nullptr || !visited.insert(current).second) {
            break;
        }
        TraceStep step;
        step.node = node->id;
        step.test = describe(node->test);
        step.outcome = evaluate(node->test, facts, step.facts);
        const Branch* branch = &node->on_false;
        step.branch = "else";
        if (step.outcome == Outcome::yes) {
            branch = &node->on_true;
            step.branch = "then";
        } else if (is_unknown(step.outcome) && node->on_missing) {
            branch = &*node->on_missing;
            step.branch = "missing";
        }
        step.why = branch->why.empty() ? node->why : branch->why;
        step.sources = branch->sources.empty() ? node->sources : branch->sources;
        step.effects = describe_effects(*branch);
        accumulator.apply(*branch, Reason{node->id, step.why});
        decision.trace.push_back(std::move(step));
        current = branch->next;
    }
    accumulator.finish(decision);
    return decision;
}

std::optional<RuleOut> rule_out(const Decision& decision, const Configuration& configuration) {
    for (const ExcludedGpu& excluded : decision.excluded_gpus) {
        if (excluded.gpu == configuration.gpu) {
            return RuleOut{fmt::format("GPU model {} is excluded", configuration.gpu),
                           excluded.reason};
        }
    }
    const PurchaseVerdict& purchase = verdict_for(decision, configuration.purchase);
    if (purchase.status == PurchaseStatus::excluded && purchase.reason) {
        return RuleOut{
            fmt::format("purchase option {} is excluded", to_string(configuration.purchase)),
            *purchase.reason};
    }
    const InterconnectRequirement& need = decision.interconnect;
    const bool gpus_share_a_node = configuration.gpu_count > configuration.nodes;
    if (need.nvlink && need.nvlink_reason && gpus_share_a_node && !configuration.nvlink) {
        return RuleOut{"its GPUs talk without NVLink inside a node", *need.nvlink_reason};
    }
    if (need.min_network_gbps && need.network_reason && configuration.nodes > 1 &&
        configuration.network_gbps) {
        if (*configuration.network_gbps < *need.min_network_gbps) {
            return RuleOut{fmt::format("its network has {} Gbps between nodes; {} Gbps is "
                                       "required",
                                       describe(*configuration.network_gbps),
                                       describe(*need.min_network_gbps)),
                           *need.network_reason};
        }
    }
    return std::nullopt;
}

std::optional<RuleOut> rule_caveat(const Decision& decision, const Configuration& configuration) {
    const InterconnectRequirement& need = decision.interconnect;
    if (need.min_network_gbps && need.network_reason && configuration.nodes > 1 &&
        !configuration.network_gbps) {
        return RuleOut{fmt::format("its network speed is unknown in the catalog; the rule needs {} "
                                   "Gbps between nodes, so check the provider's fabric before "
                                   "relying on this option",
                                   describe(*need.min_network_gbps)),
                       *need.network_reason};
    }
    return std::nullopt;
}

std::optional<std::size_t> preference_rank(const Decision& decision, std::string_view gpu) {
    std::size_t rank = 0;
    for (const CandidateGpu& candidate : decision.candidate_gpus) {
        if (!candidate.preferred) {
            break;
        }
        if (candidate.gpu == gpu) {
            return rank;
        }
        ++rank;
    }
    return std::nullopt;
}

const PurchaseVerdict& verdict_for(const Decision& decision, PurchaseOption option) {
    for (const PurchaseVerdict& verdict : decision.purchase_options) {
        if (verdict.option == option) {
            return verdict;
        }
    }
    // A decision built by decide() lists all five; a hand-built one may not.
    static const std::array<PurchaseVerdict, k_all_purchase_options.size()> k_defaults = [] {
        std::array<PurchaseVerdict, k_all_purchase_options.size()> out{};
        for (std::size_t i = 0; i < out.size(); ++i) {
            out.at(i).option = k_all_purchase_options.at(i);
        }
        return out;
    }();
    return k_defaults.at(static_cast<std::size_t>(option));
}

} // namespace gpuplan::decide
