#pragma once
// Units, named constants and the parsers for the value syntaxes users type: SI-suffixed numbers
// (7B), durations (30d), money (250000 USD) and dates (2026-11-29).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan {

inline constexpr double k_hours_per_day = 24.0;
inline constexpr double k_days_per_year = 365.0;
inline constexpr double k_months_per_year = 12.0;
// A month is 1/12 of a 365-day year: 730 hours. Cloud bills and all cash flows use it.
inline constexpr double k_hours_per_month = k_hours_per_day * k_days_per_year / k_months_per_year;
inline constexpr double k_hours_per_year = k_hours_per_day * k_days_per_year;
inline constexpr double k_seconds_per_hour = 3600.0;
inline constexpr double k_bytes_per_gib = 1024.0 * 1024.0 * 1024.0;
inline constexpr double k_bytes_per_gb = 1e9;
inline constexpr double k_bits_per_byte = 8.0;
// The standard normal quantile of 0.90 (the P90 of spot wall times, of a run's wall time with
// failures at the default confidence, and of the requests in flight).
inline constexpr double k_z90 = 1.2815515655446004;

// A calendar date (proleptic Gregorian).
struct Date {
    int year = 1970;
    int month = 1;
    int day = 1;

    // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads the defaulted <=>
    auto operator<=>(const Date&) const = default;
    // Days since 1970-01-01.
    [[nodiscard]] long days_since_epoch() const;
    // `YYYY-MM-DD`.
    [[nodiscard]] std::string to_string() const;
};

// The UTC calendar day of a time in seconds since 1970-01-01T00:00:00Z (a file's modification
// time, an HTTP Last-Modified, the clock); nullopt past the years std::chrono can hold.
[[nodiscard]] std::optional<Date> date_of_unix_seconds(std::int64_t seconds);

// Parses `YYYY-MM-DD`; nullopt when malformed or not a real day.
[[nodiscard]] std::optional<Date> parse_date(std::string_view text);

// Parses a finite decimal number (`0.5`, `6.74e9`, `-3`); nullopt for anything else, including
// NaN, infinities, hex and trailing characters.
[[nodiscard]] std::optional<double> parse_number(std::string_view text);

// Parses a number with an optional SI suffix: k=1e3, M=1e6, B or G=1e9, T=1e12, P=1e15
// (`7B` = 7e9, `2T` = 2e12, `340M`). Plain numbers pass through parse_number.
[[nodiscard]] std::optional<double> parse_si_number(std::string_view text);

// Parses a duration into hours: `90min`, `12h`, `30d`, `6w`, `3mo` (730 h each), `1y` (8760 h).
// A bare number is hours.
[[nodiscard]] std::optional<double> parse_duration_hours(std::string_view text);

// An amount of money in a currency (ISO 4217 code).
struct Money {
    double amount = 0.0;
    std::string currency;

    bool operator==(const Money&) const = default;
};

// Parses `250000 USD`, `250k USD`, `5000CNY`; the code is three upper-case letters. A bare
// number takes `default_currency` when it is not empty.
[[nodiscard]] std::optional<Money> parse_money(std::string_view text,
                                               std::string_view default_currency = {});

// Parses a fraction given as `0.15` or `15%`.
[[nodiscard]] std::optional<double> parse_fraction(std::string_view text);

// True for three upper-case ASCII letters.
[[nodiscard]] bool is_currency_code(std::string_view text);

} // namespace gpuplan
