// Fuzzes the value parsers users type into files and flags: numbers, SI numbers, durations,
// money, fractions and dates. Every accepted value must be finite; every accepted date real.

#include "gpuplan/units.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void require_finite(const std::optional<double>& value) {
    if (value && !std::isfinite(*value)) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    require_finite(gpuplan::parse_number(text));
    require_finite(gpuplan::parse_si_number(text));
    require_finite(gpuplan::parse_duration_hours(text));
    require_finite(gpuplan::parse_fraction(text));
    for (std::string_view fallback : {std::string_view{}, std::string_view{"USD"}}) {
        if (auto money = gpuplan::parse_money(text, fallback)) {
            if (!std::isfinite(money->amount) || !gpuplan::is_currency_code(money->currency)) {
                std::abort();
            }
        }
    }
    if (auto date = gpuplan::parse_date(text)) {
        // A real day round-trips through its text form.
        if (date->to_string() != text) {
            std::abort();
        }
        (void)date->days_since_epoch();
    }
    return 0;
}
