#pragma once
// The number formatting every writer shares: rounding for output lives here only.

#include <string>
#include <string_view>

namespace gpuplan {

// Decimals of hours (wall_hours, gpu_hours) in JSON outputs and in what the gate reads of them.
inline constexpr int k_json_hour_digits = 2;

// Rounds money to cents for output (half away from zero); -0 becomes 0.
[[nodiscard]] double round_money(double amount);
// Rounds to `digits` decimals for output.
[[nodiscard]] double round_to(double value, int digits);
// Rounds to `digits` significant figures for output (6.74e9 stays, 1.23456e23 -> 1.235e23).
[[nodiscard]] double round_significant(double value, int digits);
// `1,234,567.89 USD` (cents, thousands separators).
[[nodiscard]] std::string format_money(double amount, std::string_view currency);
// `1,234,568` with thousands separators, no decimals.
[[nodiscard]] std::string format_thousands(double value);
// A price as published: up to 6 significant decimals, trailing zeros dropped (`21.957642`).
[[nodiscard]] std::string format_price(double value);
// Hours as `3d 4h`, `5h 30m`, `45m`, `2y 3mo` for long spans.
[[nodiscard]] std::string format_duration(double hours);
// A count with an SI suffix and up to 3 significant digits: `340M`, `6.74B`, `2T`, `512`.
[[nodiscard]] std::string format_si(double value);
// A number with `digits` decimals and thousands separators.
[[nodiscard]] std::string format_fixed(double value, int digits);

} // namespace gpuplan
