#pragma once
// The decision view of a ranking: ranked options a reader cannot tell apart collapsed into one
// group, the best group per purchase option and per GPU model, and the frontier of cost against
// wall time (docs/cli.md, "Decision view"). Computed once here; renderers only format.

#include "gpuplan/cost/plan.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace gpuplan::rank {

// Ranked options of one provider with the same GPU model, GPUs per node, node count, purchase
// option and payment whose figures (NPV and total to the cent, wall time and P90 to 0.01 h,
// deadline and budget verdicts) are identical: they differ only in region or instance type.
struct Group {
    std::vector<std::size_t> members; // indices into the options, in ranked order; front() shown
    std::size_t regions = 1;          // distinct regions among the members
    std::size_t instances = 1;        // distinct instance types among the members

    bool operator==(const Group&) const = default;
};

// `ranked` (indices into `options`, best first) grouped, each group where its best member ranks.
// With `expand`, every option is its own group.
[[nodiscard]] std::vector<Group> group_identical(std::span<const cost::Option> options,
                                                 std::span<const std::size_t> ranked, bool expand);

// The best group of each purchase option (in k_all_purchase_options order) and of each GPU model
// (in the order of their best groups): indices into `groups`.
[[nodiscard]] std::vector<std::size_t> best_per_purchase(std::span<const cost::Option> options,
                                                         std::span<const Group> groups);
[[nodiscard]] std::vector<std::size_t> best_per_gpu(std::span<const cost::Option> options,
                                                    std::span<const Group> groups);

// The groups no other group beats on both NPV and wall time (lower or equal on both, lower on
// one), fastest first, so each next one is slower and cheaper: indices into `groups`. Of groups
// equal on both figures, the better ranked one stands for them.
[[nodiscard]] std::vector<std::size_t> frontier(std::span<const cost::Option> options,
                                                std::span<const Group> groups);

} // namespace gpuplan::rank
