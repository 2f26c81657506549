#pragma once
// Time value of money on monthly cash flows (docs/methodology.md, "Cost engine"). gpuplan's
// convention is numpy-financial's: values[0] is at t = 0 and is not discounted, values[k] is at
// the end of period k and is divided by (1 + rate)^k. Excel's NPV() discounts its first value
// one period, so Excel_NPV(r, v1..vn) == npv(r, {0, v1..vn}). Pure functions.

#include <optional>
#include <span>
#include <vector>

namespace gpuplan::finance {

// The monthly rate equivalent to an effective annual rate: (1 + annual)^(1/12) - 1
// (10%/yr -> 0.7974%/mo, not 0.8333%).
[[nodiscard]] double monthly_rate(double annual_rate);

// Net present value: sum of values[t] / (1 + rate)^t for t = 0..n-1 (numpy-financial npv).
// The one discounting function every cost in gpuplan goes through.
[[nodiscard]] double npv(double rate, std::span<const double> values);

// The discount factor 1 / (1 + rate)^period.
[[nodiscard]] double discount_factor(double rate, double period);

// Internal rate of return: the rate r > -1 with npv(r, values) == 0 closest to zero, like
// numpy-financial irr; nullopt when the flows never change sign or no root is found.
[[nodiscard]] std::optional<double> irr(std::span<const double> values);

// Present value of 1 paid at the end of each of `periods` periods: sum_{t=1..n} (1+rate)^-t.
[[nodiscard]] double annuity_factor(double rate, int periods);

// Undiscounted running sums of monthly cash flows over `months` months: out[k] = flows[0] + ...
// + flows[k]; months past the flows hold the last sum, flows past `months` are cut.
[[nodiscard]] std::vector<double> cumulative(std::span<const double> flows, std::size_t months);

// Discounted payback of `option` against `alternative` (both cost streams, same indexing): the
// first month m at which the cumulative discounted cost of `option` is no more than that of
// `alternative` and stays so to the end; nullopt when it never catches up. 0 when `option` is
// never more expensive.
[[nodiscard]] std::optional<int> break_even_month(double rate, std::span<const double> option,
                                                  std::span<const double> alternative);

} // namespace gpuplan::finance
