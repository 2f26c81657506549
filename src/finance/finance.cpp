#include "gpuplan/finance/finance.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace gpuplan::finance {

double monthly_rate(double annual_rate) {
    return std::pow(1.0 + annual_rate, 1.0 / 12.0) - 1.0;
}

double discount_factor(double rate, double period) {
    return std::pow(1.0 + rate, -period);
}

double npv(double rate, std::span<const double> values) {
    // Horner form from the last period back: one multiplication per period and no pow().
    const double factor = 1.0 / (1.0 + rate);
    double total = 0.0;
    for (std::size_t i = values.size(); i-- > 0;) {
        total = total * factor + values[i];
    }
    return total;
}

namespace {

// Refines a bracketed root of npv(., values) by bisection to machine precision.
double bisect(std::span<const double> values, double low, double high) {
    double f_low = npv(low, values);
    for (int i = 0; i < 200 && high - low > 1e-15 * std::max(1.0, std::abs(low)); ++i) {
        const double mid = 0.5 * (low + high);
        const double f_mid = npv(mid, values);
        if ((f_mid < 0.0) == (f_low < 0.0)) {
            low = mid;
            f_low = f_mid;
        } else {
            high = mid;
        }
    }
    return 0.5 * (low + high);
}

} // namespace

std::optional<double> irr(std::span<const double> values) {
    const bool has_positive =
        std::any_of(values.begin(), values.end(), [](double v) { return v > 0; });
    const bool has_negative =
        std::any_of(values.begin(), values.end(), [](double v) { return v < 0; });
    if (!has_positive || !has_negative) {
        return std::nullopt;
    }
    // Scan a grid of rates in (-1, 100] for sign changes, refine each, keep the root nearest 0.
    std::vector<double> grid;
    for (double r = -0.99; r < 1.0; r += 0.01) {
        grid.push_back(r);
    }
    for (double r = 1.0; r <= 100.0; r *= 1.05) {
        grid.push_back(r);
    }
    std::optional<double> best;
    for (std::size_t i = 0; i + 1 < grid.size(); ++i) {
        const double f_a = npv(grid[i], values);
        const double f_b = npv(grid[i + 1], values);
        double root = 0.0;
        if (f_a == 0.0) {
            root = grid[i];
        } else if ((f_a < 0.0) != (f_b < 0.0)) {
            root = bisect(values, grid[i], grid[i + 1]);
        } else {
            continue;
        }
        if (!best || std::abs(root) < std::abs(*best)) {
            best = root;
        }
    }
    return best;
}

double annuity_factor(double rate, int periods) {
    if (periods <= 0) {
        return 0.0;
    }
    if (rate == 0.0) {
        return periods;
    }
    return (1.0 - std::pow(1.0 + rate, -periods)) / rate;
}

std::optional<int> break_even_month(double rate, std::span<const double> option,
                                    std::span<const double> alternative) {
    const std::size_t months = std::max(option.size(), alternative.size());
    std::optional<int> since;
    double cumulative_gap = 0.0; // discounted cost of option minus alternative, so far
    for (std::size_t t = 0; t < months; ++t) {
        const double a = t < option.size() ? option[t] : 0.0;
        const double b = t < alternative.size() ? alternative[t] : 0.0;
        cumulative_gap += (a - b) * discount_factor(rate, static_cast<double>(t));
        // A cent of tolerance keeps rounding noise from deciding a break-even.
        if (cumulative_gap <= 0.005) {
            if (!since) {
                since = static_cast<int>(t);
            }
        } else {
            since.reset();
        }
    }
    return since;
}

std::vector<double> cumulative(std::span<const double> flows, std::size_t months) {
    std::vector<double> out;
    out.reserve(months);
    double sum = 0.0;
    for (const double flow : flows.first(std::min(flows.size(), months))) {
        sum += flow;
        out.push_back(sum);
    }
    out.resize(months, sum);
    return out;
}

} // namespace gpuplan::finance
