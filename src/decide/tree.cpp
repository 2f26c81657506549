#include "gpuplan/decide/tree.hpp"

#include "gpuplan/enum_names.hpp"

#include <cmath>
#include <fmt/format.h>

namespace gpuplan::decide {

namespace {

struct SiSuffix {
    double scale;
    std::string_view letter;
};

// Counts in the trace read like the workload file: 6.74B, 1T.
constexpr std::array<SiSuffix, 3> k_si_suffixes{{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}}};

std::string describe_number(double value) {
    for (const SiSuffix& suffix : k_si_suffixes) {
        if (std::fabs(value) >= suffix.scale) {
            return fmt::format("{:.4g}{}", value / suffix.scale, suffix.letter);
        }
    }
    // Below a million: whole numbers from 1,000 up, four significant digits under that.
    return std::fabs(value) >= 1000.0 ? fmt::format("{:.0f}", value) : fmt::format("{:.4g}", value);
}

std::string describe_list(const std::vector<FactValue>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        out += (i == 0 ? "" : ", ") + describe(values[i]);
    }
    return out + "]";
}

std::string_view symbol(Op op) {
    switch (op) {
    case Op::eq:
        return "==";
    case Op::ne:
        return "!=";
    case Op::lt:
        return "<";
    case Op::le:
        return "<=";
    case Op::gt:
        return ">";
    case Op::ge:
        return ">=";
    case Op::in:
        return "in";
    case Op::not_in:
        return "not in";
    case Op::contains:
        return "contains";
    case Op::exists:
        return "exists";
    }
    return "?";
}

std::string_view to_string_or_self(const std::string& text) {
    return text;
}
std::string_view to_string_or_self(PurchaseOption option) {
    return to_string(option);
}

std::string describe_nested(const Condition& condition) {
    const bool compound =
        condition.kind == Condition::Kind::all || condition.kind == Condition::Kind::any;
    return compound && condition.children.size() > 1 ? "(" + describe(condition) + ")"
                                                     : describe(condition);
}

} // namespace

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_op_names{
    std::to_array<std::pair<std::string_view, Op>>({{"eq", Op::eq},
                                                    {"ne", Op::ne},
                                                    {"lt", Op::lt},
                                                    {"le", Op::le},
                                                    {"gt", Op::gt},
                                                    {"ge", Op::ge},
                                                    {"in", Op::in},
                                                    {"not_in", Op::not_in},
                                                    {"contains", Op::contains},
                                                    {"exists", Op::exists}})};

std::string_view to_string(Op op) {
    return k_op_names.name(op);
}

const Node* find_node(const Tree& tree, std::string_view id) {
    for (const Node& node : tree.nodes) {
        if (node.id == id) {
            return &node;
        }
    }
    return nullptr;
}

std::vector<std::string> describe_effects(const Branch& branch) {
    auto join = [](const auto& items) {
        std::string out;
        for (const auto& item : items) {
            out += (out.empty() ? "" : ", ") + std::string(to_string_or_self(item));
        }
        return out;
    };
    std::vector<std::string> out;
    if (!branch.gpus.prefer.empty()) {
        out.push_back("prefer " + join(branch.gpus.prefer));
    }
    if (!branch.gpus.only.empty()) {
        out.push_back("only " + join(branch.gpus.only));
    }
    if (!branch.gpus.exclude.empty()) {
        out.push_back("exclude " + join(branch.gpus.exclude));
    }
    if (!branch.purchase.prefer.empty()) {
        out.push_back("prefer purchase " + join(branch.purchase.prefer));
    }
    if (!branch.purchase.exclude.empty()) {
        out.push_back("exclude purchase " + join(branch.purchase.exclude));
    }
    if (branch.interconnect.nvlink) {
        out.emplace_back("require NVLink inside a node");
    }
    if (branch.interconnect.min_network_gbps) {
        out.push_back(fmt::format("require {} Gbps between nodes",
                                  describe(FactValue{*branch.interconnect.min_network_gbps})));
    }
    return out;
}

std::string describe(const FactValue& value) {
    if (const auto* number = std::get_if<double>(&value)) {
        return describe_number(*number);
    }
    if (const auto* text = std::get_if<std::string>(&value)) {
        return *text;
    }
    if (const auto* flag = std::get_if<bool>(&value)) {
        return *flag ? "true" : "false";
    }
    const auto& list = std::get<std::vector<std::string>>(value);
    std::string out = "[";
    for (std::size_t i = 0; i < list.size(); ++i) {
        out += (i == 0 ? "" : ", ") + list[i];
    }
    return out + "]";
}

std::string describe(const Condition& condition) {
    switch (condition.kind) {
    case Condition::Kind::compare: {
        if (condition.op == Op::exists) {
            const bool wanted = !condition.values.empty() &&
                                std::get_if<bool>(&condition.values.front()) != nullptr &&
                                std::get<bool>(condition.values.front());
            return fmt::format("{} {}", condition.fact, wanted ? "is known" : "is unknown");
        }
        const std::string operand = condition.op == Op::in || condition.op == Op::not_in
                                        ? describe_list(condition.values)
                                    : condition.values.empty() ? std::string("?")
                                                               : describe(condition.values.front());
        return fmt::format("{} {} {}", condition.fact, symbol(condition.op), operand);
    }
    case Condition::Kind::all:
    case Condition::Kind::any: {
        const std::string_view joiner = condition.kind == Condition::Kind::all ? " and " : " or ";
        std::string out;
        for (std::size_t i = 0; i < condition.children.size(); ++i) {
            out += (i == 0 ? std::string() : std::string(joiner)) +
                   describe_nested(condition.children[i]);
        }
        return out;
    }
    case Condition::Kind::negate:
        return condition.children.empty() ? "not ?"
                                          : "not (" + describe(condition.children.front()) + ")";
    }
    return "?";
}

} // namespace gpuplan::decide
