#pragma once
// A decision tree read in two passes. parse_tree() checks everything a file says on its own
// (syntax, facts, operators, operands, sources, node references, reachability) and keeps GPU
// model names as written; resolve_tree() checks those names against a catalog. read_tree() is the
// two in a row. The build stores the parsed shipped tree in the bundle
// (src/codecs/tree_bundle.hpp), so a run only resolves it.

#include "gpuplan/decide/tree.hpp"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gpuplan::decide {

// Where something is written in a tree file: line and column, and its path (`/nodes/2/then/gpus`).
struct Location {
    Place place;
    std::string path;

    bool operator==(const Location&) const = default;
};

// Which outcome of a node a branch is (`then`, `else`, `missing`).
enum class BranchSlot : std::uint8_t { on_true, on_false, on_missing };

// Which list of a branch's `gpus` a name is in.
enum class GpuList : std::uint8_t { prefer, exclude, only };

// A `gpu_models` operand of a test, as written. Reported when the catalog lacks it; the operand
// itself is resolved in the tree (a test that did not parse keeps only this).
struct GpuOperand {
    std::string name;
    Location location;

    bool operator==(const GpuOperand&) const = default;
};

// A list of GPU models in a branch: each name is resolved, then a repeat is reported and dropped.
struct GpuNames {
    std::uint32_t node = 0; // index in Tree::nodes
    BranchSlot branch = BranchSlot::on_true;
    GpuList list = GpuList::prefer;
    std::vector<Location> items; // where each name of the list in the tree is written

    bool operator==(const GpuNames&) const = default;
};

// A branch's `gpus` once its lists are resolved: no model may be both preferred and ruled out.
struct GpuConflicts {
    std::uint32_t node = 0;
    BranchSlot branch = BranchSlot::on_true;
    Location location; // of the `gpus` mapping

    bool operator==(const GpuConflicts&) const = default;
};

// One catalog-dependent check, in document order. `diagnostics_before` is how many of the parse
// problems precede its own, so that read_tree() reports in the order of the file.
struct GpuCheck {
    std::variant<GpuOperand, GpuNames, GpuConflicts> check;
    std::uint32_t diagnostics_before = 0;

    bool operator==(const GpuCheck&) const = default;
};

// A tree as parse_tree() reads it: GPU model names as written (a branch's lists keep repeats),
// the checks resolve_tree() will make, and the problems found so far.
struct ParsedTree {
    Tree tree;
    std::vector<GpuCheck> gpu_checks;
    std::vector<Diagnostic> diagnostics;

    bool operator==(const ParsedTree&) const = default;
};

// Parses a decision tree without a catalog. Never throws: problems are in `diagnostics`.
[[nodiscard]] ParsedTree parse_tree(const TextFile& file);

// Resolves GPU model names to the catalog's canonical names (without a catalog they stay as
// written; unknown ones are errors or kept, as `unknown` says) and drops repeats. Throws
// InputError with every problem, the parse problems included: read_tree(file, catalog, unknown)
// is resolve_tree(parse_tree(file), catalog, unknown). Throws RuntimeError when a check names a
// branch or list item the tree does not have, which only a ParsedTree not made by parse_tree can.
[[nodiscard]] Tree resolve_tree(ParsedTree parsed, const catalog::Catalog* catalog,
                                UnknownGpus unknown = UnknownGpus::allow);

} // namespace gpuplan::decide
