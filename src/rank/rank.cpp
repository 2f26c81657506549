#include "gpuplan/rank/rank.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace gpuplan::rank {

std::string_view to_string(Objective objective) {
    switch (objective) {
    case Objective::cost:
        return "cost";
    case Objective::time:
        return "time";
    case Objective::balanced:
        return "balanced";
    }
    return "?";
}

std::optional<Objective> parse_objective(std::string_view text) {
    for (Objective objective : {Objective::cost, Objective::time, Objective::balanced}) {
        if (text == to_string(objective)) {
            return objective;
        }
    }
    return std::nullopt;
}

namespace {

bool tie_break(const cost::Option& a, const cost::Option& b) {
    if (std::tie(a.npv, a.wall_hours, a.gpu_count) != std::tie(b.npv, b.wall_hours, b.gpu_count)) {
        return std::tie(a.npv, a.wall_hours, a.gpu_count) <
               std::tie(b.npv, b.wall_hours, b.gpu_count);
    }
    return cost::id_less(a, b);
}

} // namespace

std::vector<std::size_t> rank(std::span<const cost::Option> options, Objective objective) {
    std::vector<std::size_t> order;
    double best_npv = std::numeric_limits<double>::infinity();
    double best_wall = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (!options[i].rejection) {
            order.push_back(i);
            best_npv = std::min(best_npv, options[i].npv);
            best_wall = std::min(best_wall, options[i].wall_hours);
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
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const double ka = key(options[a]);
        const double kb = key(options[b]);
        if (ka != kb) {
            return ka < kb;
        }
        // The decision tree's preferences order ties: a favoured GPU first, in rule order.
        const auto& pa = options[a].rule_preference;
        const auto& pb = options[b].rule_preference;
        if (pa != pb) {
            return pa.has_value() && (!pb.has_value() || *pa < *pb);
        }
        return tie_break(options[a], options[b]);
    });
    return order;
}

std::vector<std::size_t> rejected(std::span<const cost::Option> options) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (options[i].rejection) {
            order.push_back(i);
        }
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (options[a].npv != options[b].npv) {
            return options[a].npv < options[b].npv;
        }
        return cost::id_less(options[a], options[b]);
    });
    return order;
}

} // namespace gpuplan::rank
