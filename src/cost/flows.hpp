#pragma once
// Cash flows as the cells that are not zero: an instance type's flows at a price of 1, priced
// per region by scaling.

#include "gpuplan/cost/cash_flows.hpp"

#include <cstddef>
#include <vector>

namespace gpuplan::cost::detail {

// The cash flows of an offer at a price of 1 with its hidden costs (storage, egress), as the
// cells that are not zero, month by month in item order: every region prices the same cells.
struct Flows {
    struct Cell {
        std::size_t month = 0;
        std::size_t item = 0;
        double unit = 0.0;   // at a price of 1
        double hidden = 0.0; // not scaled by the price
    };
    std::vector<Cell> cells;
    std::size_t months = 0; // months the flows span
};

// The cells of `unit` (at a price of 1) and `hidden` (not scaled) that are not zero.
[[nodiscard]] Flows flows_of(const CashFlows& unit, const CashFlows& hidden);

} // namespace gpuplan::cost::detail
