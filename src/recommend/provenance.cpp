#include "gpuplan/recommend/provenance.hpp"

#include <algorithm>

namespace gpuplan::recommend {

std::optional<std::pair<Date, Date>> prices_used_range(std::span<const cost::Option> options) {
    std::optional<std::pair<Date, Date>> range;
    for (const cost::Option& option : options) {
        const std::optional<Date>& date = option.prices_as_of;
        if (!date) {
            continue;
        }
        if (!range) {
            range = std::pair{*date, *date};
        } else {
            range->first = std::min(range->first, *date);
            range->second = std::max(range->second, *date);
        }
    }
    return range;
}

} // namespace gpuplan::recommend
