#include "codecs/tree_bundle.hpp"

#include "codecs/binary_codec.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <type_traits>
#include <variant>

namespace gpuplan::decide {

// Each serialised type lists its members once, for codecs::BinaryWriter and BinaryReader.

template <class A> void members(A& a, Condition& v) {
    a(v.kind), a(v.fact), a(v.op), a(v.values), a(v.children);
}
template <class A> void members(A& a, GpuEffects& v) {
    a(v.prefer), a(v.exclude), a(v.only);
}
template <class A> void members(A& a, PurchaseEffects& v) {
    a(v.prefer), a(v.exclude);
}
template <class A> void members(A& a, InterconnectEffects& v) {
    a(v.nvlink), a(v.min_network_gbps);
}
template <class A> void members(A& a, Place& v) {
    a(v.line), a(v.column);
}
template <class A> void members(A& a, Branch& v) {
    a(v.gpus), a(v.purchase), a(v.interconnect), a(v.why), a(v.sources), a(v.next), a(v.place);
}
template <class A> void members(A& a, Node& v) {
    a(v.id), a(v.test), a(v.why), a(v.on_true), a(v.on_false), a(v.on_missing), a(v.sources),
        a(v.place);
}
template <class A> void members(A& a, Tree& v) {
    a(v.file), a(v.root), a(v.nodes), a(v.sources);
}
template <class A> void members(A& a, Location& v) {
    a(v.place), a(v.path);
}
template <class A> void members(A& a, GpuOperand& v) {
    a(v.name), a(v.location);
}
template <class A> void members(A& a, GpuNames& v) {
    a(v.node), a(v.branch), a(v.list), a(v.items);
}
template <class A> void members(A& a, GpuConflicts& v) {
    a(v.node), a(v.branch), a(v.location);
}
template <class A> void members(A& a, GpuCheck& v) {
    a(v.check), a(v.diagnostics_before);
}
template <class A> void members(A& a, ParsedTree& v) {
    a(v.tree), a(v.gpu_checks), a(v.diagnostics);
}

} // namespace gpuplan::decide

namespace gpuplan {

template <class A> void members(A& a, Diagnostic& v) {
    a(v.file), a(v.line), a(v.column), a(v.path), a(v.message);
}

} // namespace gpuplan

namespace gpuplan::decide {

namespace {

using codecs::enum_within;

// Bumped whenever a serialised type changes shape (the bundle is rebuilt with the binary).
constexpr codecs::Header k_tree_header{0x54524545, 1}; // "TREE", format 1

constexpr std::string_view k_what = "embedded decision tree";

bool valid(const Condition& condition) {
    return enum_within(condition.kind, Condition::Kind::negate) &&
           enum_within(condition.op, Op::exists) &&
           std::all_of(condition.children.begin(), condition.children.end(),
                       [](const Condition& child) { return valid(child); });
}

bool valid(const Branch& branch) {
    const auto option = [](PurchaseOption value) {
        return enum_within(value, PurchaseOption::self_built);
    };
    return std::all_of(branch.purchase.prefer.begin(), branch.purchase.prefer.end(), option) &&
           std::all_of(branch.purchase.exclude.begin(), branch.purchase.exclude.end(), option);
}

bool valid(const GpuCheck& check) {
    if (const auto* names = std::get_if<GpuNames>(&check.check)) {
        return enum_within(names->branch, BranchSlot::on_missing) &&
               enum_within(names->list, GpuList::only);
    }
    if (const auto* conflicts = std::get_if<GpuConflicts>(&check.check)) {
        return enum_within(conflicts->branch, BranchSlot::on_missing);
    }
    return true;
}

bool valid(const ParsedTree& parsed) {
    for (const Node& node : parsed.tree.nodes) {
        if (!valid(node.test) || !valid(node.on_true) || !valid(node.on_false) ||
            (node.on_missing && !valid(*node.on_missing))) {
            return false;
        }
    }
    return std::all_of(parsed.gpu_checks.begin(), parsed.gpu_checks.end(),
                       [](const GpuCheck& check) { return valid(check); });
}

} // namespace

} // namespace gpuplan::decide

namespace gpuplan::codecs {

std::string write_tree_bundle(const decide::ParsedTree& parsed) {
    return encode(parsed, decide::k_tree_header);
}

decide::ParsedTree read_tree_bundle(std::string_view bytes) {
    return decode<decide::ParsedTree>(
        bytes, decide::k_what, decide::k_tree_header,
        [](const decide::ParsedTree& parsed) { return decide::valid(parsed); });
}

} // namespace gpuplan::codecs
