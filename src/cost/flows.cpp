#include "cost/flows.hpp"

#include <algorithm>
#include <array>

namespace gpuplan::cost::detail {

Flows flows_of(const CashFlows& unit, const CashFlows& hidden) {
    Flows out;
    out.months = std::max(unit.months.size(), hidden.months.size());
    const std::array<double, k_item_count> none{};
    for (std::size_t k = 0; k < out.months; ++k) {
        const auto& u = k < unit.months.size() ? unit.months[k] : none;
        const auto& h = k < hidden.months.size() ? hidden.months[k] : none;
        for (std::size_t i = 0; i < k_item_count; ++i) {
            if (u[i] != 0.0 || h[i] != 0.0) {
                out.cells.push_back({k, i, u[i], h[i]});
            }
        }
    }
    return out;
}

} // namespace gpuplan::cost::detail
