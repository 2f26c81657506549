#include "gpuplan/numbers.hpp"

#include "gpuplan/units.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

namespace gpuplan {

double round_significant(double value, int digits) {
    if (value == 0.0 || !std::isfinite(value)) {
        return 0.0;
    }
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    const double scale = std::pow(10.0, digits - 1 - magnitude);
    return std::round(value * scale) / scale;
}

namespace {

// 10^digits: exact powers 10^0 to 10^22 (all representable as doubles, so the same values pow
// returns) from a table, since rounding runs for every option.
double power_of_ten(int digits) {
    static constexpr std::array<double, 23> k_powers = [] {
        std::array<double, 23> powers{};
        double p = 1.0;
        for (double& entry : powers) {
            entry = p;
            p *= 10.0;
        }
        return powers;
    }();
    return digits >= 0 && digits < static_cast<int>(k_powers.size())
               ? k_powers.at(static_cast<std::size_t>(digits))
               : std::pow(10.0, digits);
}

} // namespace

double round_to(double value, int digits) {
    if (!std::isfinite(value)) {
        return 0.0;
    }
    const double scale = power_of_ten(digits);
    double rounded = std::round(value * scale) / scale;
    if (rounded == 0.0) {
        rounded = 0.0; // no negative zero in output
    }
    return rounded;
}

double round_money(double amount) {
    return round_to(amount, 2);
}

namespace {
std::string group_thousands(std::string digits) {
    std::string out;
    const std::size_t n = digits.size();
    for (std::size_t i = 0; i < n; ++i) {
        out += digits[i];
        const std::size_t remaining = n - i - 1;
        if (remaining > 0 && remaining % 3 == 0) {
            out += ',';
        }
    }
    return out;
}
} // namespace

std::string format_fixed(double value, int digits) {
    const double rounded = round_to(value, digits);
    std::string text = fmt::format("{:.{}f}", std::fabs(rounded), digits);
    const auto dot = text.find('.');
    std::string out = rounded < 0 ? "-" : "";
    out.append(group_thousands(text.substr(0, dot)));
    if (dot != std::string::npos) {
        out.append(std::string_view(text).substr(dot));
    }
    return out;
}

std::string format_money(double amount, std::string_view currency) {
    return format_fixed(amount, 2) + " " + std::string(currency);
}

std::string format_thousands(double value) {
    return format_fixed(value, 0);
}

std::string format_price(double value) {
    std::string text = fmt::format("{:.6f}", round_to(value, 6));
    while (!text.empty() && text.back() == '0') {
        text.pop_back();
    }
    if (!text.empty() && text.back() == '.') {
        text.pop_back();
    }
    return text;
}

std::string format_duration(double hours) {
    if (!std::isfinite(hours) || hours < 0) {
        return "n/a";
    }
    const double seconds_total = std::round(hours * k_seconds_per_hour);
    if (seconds_total < 60) {
        return fmt::format("{}s", static_cast<long>(seconds_total)); // never "0m" for a short run
    }
    const double minutes_total = std::max(1.0, std::round(hours * 60.0));
    if (minutes_total < 60) {
        return fmt::format("{}m", static_cast<long>(minutes_total));
    }
    if (hours < k_hours_per_day) {
        const long total = static_cast<long>(minutes_total);
        return total % 60 == 0 ? fmt::format("{}h", total / 60)
                               : fmt::format("{}h {}m", total / 60, total % 60);
    }
    if (hours < 90 * k_hours_per_day) {
        const long total_hours = std::lround(hours);
        return total_hours % 24 == 0 ? fmt::format("{}d", total_hours / 24)
                                     : fmt::format("{}d {}h", total_hours / 24, total_hours % 24);
    }
    const double months = hours / k_hours_per_month;
    constexpr double k_max_counted_months = 1e15; // exact in a double and in a long long
    if (months >= k_max_counted_months) {
        return fmt::format("{:.3g}y", hours / k_hours_per_year);
    }
    const long long total_months = std::llround(months);
    if (total_months < 12) {
        return fmt::format("{}mo", total_months);
    }
    return total_months % 12 == 0 ? fmt::format("{}y", total_months / 12)
                                  : fmt::format("{}y {}mo", total_months / 12, total_months % 12);
}

std::string format_si(double value) {
    constexpr std::array<std::pair<double, const char*>, 5> k_suffixes = {
        {{1e15, "P"}, {1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}}};
    for (const auto& [scale, suffix] : k_suffixes) {
        if (std::fabs(value) >= scale) {
            return fmt::format("{:g}{}", round_significant(value / scale, 3), suffix);
        }
    }
    return fmt::format("{:g}", round_significant(value, 3));
}

} // namespace gpuplan
