#pragma once
// Where a plan keeps its options: one vector reserved up front for every option the catalog can
// give (Planner::run) in a large buffer, so filling its often megabytes faults once per 2 MiB
// huge page instead of once per 4 KiB page (detail/large_buffer.hpp). Private to the cost stage;
// readers see Plan::options(), a span.

#include "detail/large_buffer.hpp"
#include "gpuplan/cost/plan.hpp"

#include <vector>

namespace gpuplan::cost::detail {

struct OptionBuffer {
    std::vector<Option, LargeBufferAllocator<Option>> options;
};

} // namespace gpuplan::cost::detail
