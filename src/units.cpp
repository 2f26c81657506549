#include "gpuplan/units.hpp"

#include "detail/strings.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace gpuplan {

using detail::trim;

namespace {

std::chrono::year_month_day calendar_day(const Date& date) {
    return std::chrono::year{date.year} / std::chrono::month{static_cast<unsigned>(date.month)} /
           std::chrono::day{static_cast<unsigned>(date.day)};
}

std::optional<int> parse_int_exact(std::string_view text) {
    int value = 0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end) {
        return std::nullopt;
    }
    return value;
}

// Splits `12.5abc` into the longest numeric prefix and the rest.
std::pair<std::string_view, std::string_view> split_number(std::string_view text) {
    std::size_t i = 0;
    auto digit = [&](std::size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        ++i;
    }
    while (digit(i) || (i < text.size() && text[i] == '.')) {
        ++i;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < text.size() && (text[j] == '-' || text[j] == '+')) {
            ++j;
        }
        if (digit(j)) {
            i = j;
            while (digit(i)) {
                ++i;
            }
        }
    }
    return {text.substr(0, i), text.substr(i)};
}

} // namespace

long Date::days_since_epoch() const {
    return std::chrono::sys_days{calendar_day(*this)}.time_since_epoch().count();
}

std::optional<Date> date_of_unix_seconds(std::int64_t seconds) {
    // std::chrono::year holds -32767 to 32767: a time past it has no calendar day here.
    constexpr std::int64_t k_limit = std::int64_t{32767} * 366 * 86400;
    if (seconds < -k_limit || seconds > k_limit) {
        return std::nullopt;
    }
    const std::chrono::sys_seconds time{std::chrono::seconds{seconds}};
    const std::chrono::year_month_day day{std::chrono::floor<std::chrono::days>(time)};
    if (!day.ok()) {
        return std::nullopt;
    }
    return Date{static_cast<int>(day.year()), static_cast<int>(static_cast<unsigned>(day.month())),
                static_cast<int>(static_cast<unsigned>(day.day()))};
}

std::string Date::to_string() const {
    return fmt::format("{:04}-{:02}-{:02}", year, month, day);
}

std::optional<Date> parse_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') {
        return std::nullopt;
    }
    auto year = parse_int_exact(text.substr(0, 4));
    auto month = parse_int_exact(text.substr(5, 2));
    auto day = parse_int_exact(text.substr(8, 2));
    if (!year || !month || !day || *year < 1900 || *month < 1 || *month > 12 || *day < 1) {
        return std::nullopt;
    }
    const Date date{*year, *month, *day};
    if (!calendar_day(date).ok()) {
        return std::nullopt; // not a real day (2026-02-29, 2026-04-31)
    }
    return date;
}

std::optional<double> parse_number(std::string_view text) {
    text = trim(text);
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
    }
    if (text.empty()) {
        return std::nullopt;
    }
    for (char c : text) {
        const bool ok =
            (c >= '0' && c <= '9') || c == '.' || c == '-' || c == 'e' || c == 'E' || c == '+';
        if (!ok) {
            return std::nullopt; // rejects inf, nan, hex, suffixes
        }
    }
    double value = 0.0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value == 0.0 ? 0.0 : value; // `-0` is zero: no `-0.0` in any output
}

std::optional<double> parse_si_number(std::string_view text) {
    text = trim(text);
    auto [number, suffix] = split_number(text);
    auto value = parse_number(number);
    if (!value) {
        return std::nullopt;
    }
    double scale = 1.0;
    if (suffix.empty()) {
        scale = 1.0;
    } else if (suffix == "k" || suffix == "K") {
        scale = 1e3;
    } else if (suffix == "M") {
        scale = 1e6;
    } else if (suffix == "B" || suffix == "G") {
        scale = 1e9;
    } else if (suffix == "T") {
        scale = 1e12;
    } else if (suffix == "P") {
        scale = 1e15;
    } else {
        return std::nullopt;
    }
    const double result = *value * scale;
    if (!std::isfinite(result)) {
        return std::nullopt;
    }
    return result;
}

std::optional<double> parse_duration_hours(std::string_view text) {
    text = trim(text);
    auto [number, unit] = split_number(text);
    auto value = parse_number(number);
    if (!value) {
        return std::nullopt;
    }
    unit = trim(unit);
    double hours_per_unit = 0.0;
    if (unit.empty() || unit == "h") {
        hours_per_unit = 1.0;
    } else if (unit == "min") {
        hours_per_unit = 1.0 / 60.0;
    } else if (unit == "d") {
        hours_per_unit = k_hours_per_day;
    } else if (unit == "w") {
        hours_per_unit = 7.0 * k_hours_per_day;
    } else if (unit == "mo") {
        hours_per_unit = k_hours_per_month;
    } else if (unit == "y") {
        hours_per_unit = k_hours_per_year;
    } else {
        return std::nullopt;
    }
    const double hours = *value * hours_per_unit;
    if (!std::isfinite(hours)) {
        return std::nullopt;
    }
    return hours;
}

bool is_currency_code(std::string_view text) {
    if (text.size() != 3) {
        return false;
    }
    return std::ranges::all_of(text, [](char c) { return c >= 'A' && c <= 'Z'; });
}

std::optional<Money> parse_money(std::string_view text, std::string_view default_currency) {
    text = trim(text);
    std::string_view code;
    if (text.size() >= 3 && is_currency_code(text.substr(text.size() - 3))) {
        code = text.substr(text.size() - 3);
        text = trim(text.substr(0, text.size() - 3));
    } else if (!default_currency.empty()) {
        code = default_currency;
    } else {
        return std::nullopt;
    }
    auto amount = parse_si_number(text);
    if (!amount) {
        return std::nullopt;
    }
    return Money{*amount, std::string(code)};
}

std::optional<double> parse_fraction(std::string_view text) {
    text = trim(text);
    if (!text.empty() && text.back() == '%') {
        auto value = parse_number(text.substr(0, text.size() - 1));
        if (!value) {
            return std::nullopt;
        }
        return *value / 100.0;
    }
    return parse_number(text);
}

} // namespace gpuplan
