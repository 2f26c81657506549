#include "gpuplan/rank/rank.hpp"

#include "gpuplan/enum_names.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace gpuplan::rank {

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_objective_names{std::to_array<std::pair<std::string_view, Objective>>(
    {{"cost", Objective::cost}, {"time", Objective::time}, {"balanced", Objective::balanced}})};

std::string_view to_string(Objective objective) {
    return k_objective_names.name(objective);
}

std::optional<Objective> parse_objective(std::string_view text) {
    return k_objective_names.parse(text);
}

namespace {

bool tie_break(const cost::Option& a, const cost::Option& b) {
    if (std::tie(a.npv, a.wall_hours, a.gpu_count) != std::tie(b.npv, b.wall_hours, b.gpu_count)) {
        return std::tie(a.npv, a.wall_hours, a.gpu_count) <
               std::tie(b.npv, b.wall_hours, b.gpu_count);
    }
    return cost::id_less(a, b);
}

// An option's sort key next to its index: sorting these compact pairs reads an option only on a
// tie, instead of two scattered options per comparison.
struct Keyed {
    double key = 0.0;
    std::size_t index = 0;
    int tier = 0; // 0 before 1: firm options before soft ones
};

// The indices of `keyed` in order, the first `count` of them (all by default).
template <class Tie>
std::vector<std::size_t> sorted(std::vector<Keyed>& keyed, const Tie& tie,
                                std::size_t count = std::numeric_limits<std::size_t>::max()) {
    const auto less = [&](const Keyed& a, const Keyed& b) {
        if (a.tier != b.tier) {
            return a.tier < b.tier;
        }
        if (a.key != b.key) {
            return a.key < b.key;
        }
        return tie(a.index, b.index);
    };
    if (count < keyed.size()) {
        const auto end = keyed.begin() + static_cast<std::ptrdiff_t>(count);
        std::partial_sort(keyed.begin(), end, keyed.end(), less);
        keyed.erase(end, keyed.end());
    } else {
        std::sort(keyed.begin(), keyed.end(), less);
    }
    std::vector<std::size_t> order;
    order.reserve(keyed.size());
    for (const Keyed& k : keyed) {
        order.push_back(k.index);
    }
    return order;
}

} // namespace

std::vector<std::size_t> rank(std::span<const cost::Option> options, Objective objective,
                              Candidates candidates, Soft soft) {
    return rank_first(options, objective, candidates, std::numeric_limits<std::size_t>::max(),
                      soft);
}

std::vector<std::size_t> rank_first(std::span<const cost::Option> options, Objective objective,
                                    Candidates candidates, std::size_t count, Soft soft) {
    const auto candidate = [candidates](const cost::Option& option) {
        return !option.rejection || (candidates == Candidates::feasible_or_rule_excluded &&
                                     *option.rejection == cost::Rejection::excluded_by_rule);
    };
    double best_npv = std::numeric_limits<double>::infinity();
    double best_wall = std::numeric_limits<double>::infinity();
    for (const cost::Option& option : options) {
        if (candidate(option)) {
            best_npv = std::min(best_npv, option.npv);
            best_wall = std::min(best_wall, option.wall_hours);
        }
    }
    // Ratios need positive references; a free or instant option would make every ratio infinite.
    const double npv_scale = best_npv > 0.0 ? best_npv : 1.0;
    const double wall_scale = best_wall > 0.0 ? best_wall : 1.0;
    auto key = [&](const cost::Option& o) {
        switch (objective) {
        case Objective::cost:
            return o.npv;
        case Objective::time:
            return o.wall_hours;
        case Objective::balanced:
            return o.npv / npv_scale + o.wall_hours / wall_scale;
        }
        return o.npv;
    };
    std::vector<Keyed> keyed;
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (candidate(options[i])) {
            const int tier = soft == Soft::after && !options[i].firm() ? 1 : 0;
            keyed.push_back({key(options[i]), i, tier});
        }
    }
    return sorted(
        keyed,
        [&](std::size_t a, std::size_t b) {
            // The decision tree's preferences order ties: a favoured GPU first, in rule order.
            const auto& pa = options[a].rule_preference;
            const auto& pb = options[b].rule_preference;
            if (pa != pb) {
                return pa.has_value() && (!pb.has_value() || *pa < *pb);
            }
            return tie_break(options[a], options[b]);
        },
        count);
}

std::vector<std::size_t> rejected(std::span<const cost::Option> options) {
    std::vector<Keyed> keyed;
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (options[i].rejection) {
            keyed.push_back({options[i].npv, i});
        }
    }
    return sorted(
        keyed, [&](std::size_t a, std::size_t b) { return cost::id_less(options[a], options[b]); });
}

} // namespace gpuplan::rank
