#include "gpuplan/rank/view.hpp"

#include "gpuplan/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace gpuplan::rank {

namespace {

// What a reader sees of an option apart from its region and instance type.
struct Look {
    std::string_view provider;
    std::string_view gpu;
    int gpus_per_node = 0;
    int nodes = 0;
    PurchaseOption purchase = PurchaseOption::on_demand;
    int payment = -1;
    bool bridged = false;
    std::int64_t npv_cents = 0;
    std::int64_t total_cents = 0;
    std::int64_t wall = 0;
    std::int64_t p90 = -1;
    bool meets_deadline = true;
    bool within_budget = true;

    bool operator==(const Look&) const = default;
};

std::int64_t cents(double amount) {
    return std::llround(round_money(amount) * 100.0);
}

std::int64_t hundredths(double hours) {
    return std::llround(round_to(hours, k_json_hour_digits) * 100.0);
}

Look look_of(const cost::Option& o) {
    return {.provider = o.provider,
            .gpu = o.gpu,
            .gpus_per_node = o.gpus_per_node,
            .nodes = o.nodes,
            .purchase = o.purchase,
            .payment = o.payment ? static_cast<int>(*o.payment) : -1,
            .bridged = o.bridged,
            .npv_cents = cents(o.npv),
            .total_cents = cents(o.total),
            .wall = hundredths(o.wall_hours),
            .p90 = o.p90_wall_hours ? hundredths(*o.p90_wall_hours) : -1,
            .meets_deadline = o.meets_deadline,
            .within_budget = o.within_budget};
}

struct LookHash {
    std::size_t operator()(const Look& l) const {
        std::size_t h = std::hash<std::string_view>{}(l.provider);
        const auto mix = [&h](std::size_t v) {
            h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        };
        mix(std::hash<std::string_view>{}(l.gpu));
        mix(static_cast<std::size_t>(l.npv_cents));
        mix(static_cast<std::size_t>(l.wall));
        mix(static_cast<std::size_t>(l.nodes));
        mix(static_cast<std::size_t>(l.purchase));
        return h;
    }
};

std::size_t distinct(std::span<const cost::Option> options, const std::vector<std::size_t>& members,
                     std::string cost::Option::*field) {
    std::vector<std::string_view> seen;
    for (const std::size_t index : members) {
        const std::string_view value = options[index].*field;
        if (std::find(seen.begin(), seen.end(), value) == seen.end()) {
            seen.push_back(value);
        }
    }
    return seen.size();
}

// The first group of each distinct key, in group order.
template <class Key>
std::vector<std::size_t> first_per(std::span<const cost::Option> options,
                                   std::span<const Group> groups, const Key& key) {
    std::vector<std::size_t> out;
    std::vector<decltype(key(options.front()))> seen;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto value = key(options[groups[g].members.front()]);
        if (std::find(seen.begin(), seen.end(), value) == seen.end()) {
            seen.push_back(value);
            out.push_back(g);
        }
    }
    return out;
}

} // namespace

std::vector<Group> group_identical(std::span<const cost::Option> options,
                                   std::span<const std::size_t> ranked, bool expand) {
    std::vector<Group> groups;
    groups.reserve(ranked.size());
    if (expand) {
        for (const std::size_t index : ranked) {
            groups.push_back({{index}, 1, 1});
        }
        return groups;
    }
    std::unordered_map<Look, std::size_t, LookHash> where;
    where.reserve(ranked.size());
    for (const std::size_t index : ranked) {
        const auto [it, added] = where.try_emplace(look_of(options[index]), groups.size());
        if (added) {
            groups.push_back({{index}, 1, 1});
        } else {
            groups[it->second].members.push_back(index);
        }
    }
    for (Group& group : groups) {
        if (group.members.size() > 1) {
            group.regions = distinct(options, group.members, &cost::Option::region);
            group.instances = distinct(options, group.members, &cost::Option::instance);
        }
    }
    return groups;
}

std::vector<std::size_t> best_per_purchase(std::span<const cost::Option> options,
                                           std::span<const Group> groups) {
    std::vector<std::size_t> found =
        first_per(options, groups, [](const cost::Option& o) { return o.purchase; });
    std::vector<std::size_t> out;
    for (const PurchaseOption purchase : k_all_purchase_options) {
        for (const std::size_t g : found) {
            if (options[groups[g].members.front()].purchase == purchase) {
                out.push_back(g);
            }
        }
    }
    return out;
}

std::vector<std::size_t> best_per_gpu(std::span<const cost::Option> options,
                                      std::span<const Group> groups) {
    return first_per(options, groups,
                     [](const cost::Option& o) { return std::string_view(o.gpu); });
}

std::vector<std::size_t> frontier(std::span<const cost::Option> options,
                                  std::span<const Group> groups) {
    // Each group's (wall time, NPV) as shown, computed once: rounding is the costly part.
    std::vector<std::tuple<std::int64_t, std::int64_t, std::size_t>> points;
    points.reserve(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const cost::Option& o = options[groups[g].members.front()];
        points.emplace_back(hundredths(o.wall_hours), cents(o.npv), g);
    }
    std::sort(points.begin(), points.end());
    std::vector<std::size_t> out;
    std::optional<std::int64_t> cheapest; // NPV of the last point kept, in cents
    for (const auto& [wall, npv, g] : points) {
        if (!cheapest || npv < *cheapest) {
            out.push_back(g);
            cheapest = npv;
        }
    }
    return out;
}

} // namespace gpuplan::rank
