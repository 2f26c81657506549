#pragma once
// Ranking: orders the feasible options by an objective with explicit tie-breakers, so the same
// inputs always give the same order (docs/methodology.md, "Cost engine").

#include "gpuplan/cost/plan.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace gpuplan::rank {

// cost: lowest NPV first. time: shortest wall time first. balanced: lowest
// npv / best_npv + wall_hours / best_wall (each term 1 for the best option), so an option twice
// the best cost but the fastest ties with one at the best cost and twice the best time.
enum class Objective { cost, time, balanced };
[[nodiscard]] std::string_view to_string(Objective objective);
[[nodiscard]] std::optional<Objective> parse_objective(std::string_view text);

// Which options take part in a ranking.
enum class Candidates {
    feasible,                  // options without a rejection
    feasible_or_rule_excluded, // also those only a rule excludes: where they would have ranked
};

// Where soft options (cost::Option::firm() false) rank: after every firm one (the default
// answer is firm), or among them by the objective alone (the user accepts soft answers).
enum class Soft { after, mixed };

// Indices into `options` of the candidate options, best first; with Soft::after the firm ones
// first. Ties on the objective fall back
// to the decision tree's GPU preference (a favoured model first), then NPV, then wall hours, then
// GPU count, then id (unique), so the order is total.
[[nodiscard]] std::vector<std::size_t> rank(std::span<const cost::Option> options,
                                            Objective objective,
                                            Candidates candidates = Candidates::feasible,
                                            Soft soft = Soft::after);

// The first `count` of rank() (all of them when fewer), in the same order, without ordering the
// rest.
[[nodiscard]] std::vector<std::size_t> rank_first(std::span<const cost::Option> options,
                                                  Objective objective, Candidates candidates,
                                                  std::size_t count, Soft soft = Soft::after);

// Indices of the rejected options, cheapest NPV first, then id.
[[nodiscard]] std::vector<std::size_t> rejected(std::span<const cost::Option> options);

} // namespace gpuplan::rank
