// The number formatting every writer shares (gpuplan/numbers.hpp, the one place that rounds):
// half-cent rounding, no negative zero, thousands separators, prices, durations, SI suffixes.
// Every expectation is worked out by hand from the helper's contract, not copied from output.

#include "gpuplan/numbers.hpp"
#include "gpuplan/report/output_format.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace gpuplan;
using namespace gpuplan::report;

namespace {
constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();
} // namespace

TEST_CASE("output formats parse by name, md included, and name themselves", "[format]") {
    CHECK(parse_format("table") == Format::table);
    CHECK(parse_format("json") == Format::json);
    CHECK(parse_format("markdown") == Format::markdown);
    CHECK(parse_format("md") == Format::markdown);
    CHECK_FALSE(parse_format("MD").has_value());
    CHECK_FALSE(parse_format("").has_value());
    CHECK_FALSE(parse_format("yaml").has_value());
    for (const Format format : {Format::table, Format::json, Format::markdown}) {
        CHECK(parse_format(to_string(format)) == format);
    }
}

TEST_CASE("money rounds half-cents away from zero", "[format][rounding]") {
    // Half-cents that binary floating point holds exactly (k/8 dollars).
    CHECK(round_money(0.125) == 0.13);
    CHECK(round_money(0.375) == 0.38);
    CHECK(round_money(2.625) == 2.63);
    CHECK(round_money(-0.125) == -0.13);
    CHECK(round_money(-2.625) == -2.63);
    CHECK(round_money(0.124) == 0.12);
    CHECK(round_money(0.126) == 0.13);
    CHECK(round_money(19.99) == 19.99);
    CHECK(format_money(0.125, "USD") == "0.13 USD");
    CHECK(format_money(-0.125, "EUR") == "-0.13 EUR");
    CHECK(format_money(2.5, "USD") == "2.50 USD");
}

TEST_CASE("rounding to whole units and decimals is half away from zero", "[format][rounding]") {
    CHECK(round_to(2.5, 0) == 3.0);
    CHECK(round_to(-2.5, 0) == -3.0);
    CHECK(round_to(0.5, 0) == 1.0);
    CHECK(round_to(12.3456, 3) == 12.346);
    CHECK(round_to(12.3454, 3) == 12.345);
    CHECK(round_to(1.0625, 3) == 1.063); // 1.0625 is exact: a true half at the third decimal
}

TEST_CASE("nothing rounds or prints as negative zero", "[format][rounding]") {
    CHECK_FALSE(std::signbit(round_money(-0.004)));
    CHECK_FALSE(std::signbit(round_money(-0.0)));
    CHECK_FALSE(std::signbit(round_to(-0.4, 0)));
    CHECK(format_money(-0.004, "USD") == "0.00 USD");
    CHECK(format_money(-0.0, "USD") == "0.00 USD");
    CHECK(format_fixed(-0.04, 1) == "0.0");
    CHECK(format_thousands(-0.4) == "0");
    CHECK(format_price(-0.0000001) == "0");
    // Just past the half, the sign stays.
    CHECK(format_money(-0.006, "USD") == "-0.01 USD");
}

TEST_CASE("thousands separators group the whole part in threes", "[format]") {
    CHECK(format_thousands(0) == "0");
    CHECK(format_thousands(999) == "999");
    CHECK(format_thousands(1000) == "1,000");
    CHECK(format_thousands(999.5) == "1,000");
    CHECK(format_thousands(100000) == "100,000");
    CHECK(format_thousands(1000000) == "1,000,000");
    CHECK(format_thousands(-1234567) == "-1,234,567");
    CHECK(format_fixed(1234.5, 1) == "1,234.5");
    CHECK(format_fixed(5, 0) == "5");
    CHECK(format_fixed(999.999, 2) == "1,000.00"); // the carry reaches a new group
    CHECK(format_fixed(-12345.678, 2) == "-12,345.68");
    CHECK(format_money(1234567.891, "USD") == "1,234,567.89 USD");
}

TEST_CASE("large amounts keep every digit and their separators", "[format]") {
    CHECK(format_thousands(1e15) == "1,000,000,000,000,000");
    CHECK(format_money(1e20, "USD") == "100,000,000,000,000,000,000.00 USD");
    CHECK(format_money(-9007199254740992.0, "USD") == "-9,007,199,254,740,992.00 USD"); // 2^53
}

TEST_CASE("a NaN or infinite amount prints as zero, never nan or inf", "[format]") {
    CHECK(round_to(k_nan, 2) == 0.0);
    CHECK(round_to(k_inf, 2) == 0.0);
    CHECK(round_significant(-k_inf, 3) == 0.0);
    CHECK(format_money(k_nan, "USD") == "0.00 USD");
    CHECK(format_thousands(k_inf) == "0");
    CHECK(format_price(-k_inf) == "0");
}

TEST_CASE("prices print as published: up to six decimals, trailing zeros dropped", "[format]") {
    CHECK(format_price(21.957642) == "21.957642");
    CHECK(format_price(32.77) == "32.77");
    CHECK(format_price(3.0) == "3");
    CHECK(format_price(1234.5) == "1234.5"); // no thousands separators in a price
    CHECK(format_price(0.0000004) == "0");
    CHECK(format_price(0.0000006) == "0.000001");
    CHECK(format_price(-1.5) == "-1.5");
}

TEST_CASE("significant-figure rounding keeps the magnitude", "[format][rounding]") {
    CHECK(round_significant(6.74e9, 3) == Approx(6.74e9).epsilon(1e-15));
    CHECK(round_significant(1.23456e23, 4) == Approx(1.235e23).epsilon(1e-15));
    CHECK(round_significant(-0.012345, 2) == -0.012);
    CHECK(round_significant(99.96, 3) == 100.0);
    CHECK(round_significant(0.0, 3) == 0.0);
}

TEST_CASE("SI counts keep three significant digits and drop trailing zeros", "[format]") {
    CHECK(format_si(0) == "0");
    CHECK(format_si(0.5) == "0.5");
    CHECK(format_si(512) == "512");
    CHECK(format_si(1234) == "1.23k");
    CHECK(format_si(123456) == "123k");
    CHECK(format_si(340e6) == "340M");
    CHECK(format_si(6.74e9) == "6.74B");
    CHECK(format_si(2e12) == "2T");
    CHECK(format_si(-2.5e6) == "-2.5M");
    CHECK(format_si(1.5e18) == "1500P");
}

TEST_CASE("durations pick minutes, hours, days, months or years", "[format][duration]") {
    CHECK(format_duration(0) == "0s");
    CHECK(format_duration(20.0 / 3600.0) == "20s"); // a sub-minute run prints in seconds
    CHECK(format_duration(59.6 / 3600.0) == "1m");
    CHECK(format_duration(0.75) == "45m");
    CHECK(format_duration(0.99) == "59m"); // 59.4 minutes
    CHECK(format_duration(0.995) == "1h"); // 59.7 minutes round to the hour
    CHECK(format_duration(2) == "2h");
    CHECK(format_duration(5.5) == "5h 30m");
    CHECK(format_duration(23.99) == "23h 59m"); // 1439.4 minutes
    CHECK(format_duration(24) == "1d");
    CHECK(format_duration(76) == "3d 4h");
    CHECK(format_duration(2136) == "89d");
    CHECK(format_duration(2159.4) == "89d 23h");
    // From 90 days on, 730-hour months: 2160 h is 2.96 months.
    CHECK(format_duration(2160) == "3mo");
    CHECK(format_duration(730 * 11.4) == "11mo");
    CHECK(format_duration(8760) == "1y");
    CHECK(format_duration(730 * 24) == "2y");
    CHECK(format_duration(730 * 27) == "2y 3mo");
}

TEST_CASE("a negative or non-finite duration is n/a", "[format][duration]") {
    CHECK(format_duration(-1) == "n/a");
    CHECK(format_duration(-0.001) == "n/a");
    CHECK(format_duration(k_nan) == "n/a");
    CHECK(format_duration(k_inf) == "n/a");
}
