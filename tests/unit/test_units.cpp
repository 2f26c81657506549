#include "gpuplan/units.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;

TEST_CASE("numbers accept SI suffixes and reject garbage", "[units]") {
    CHECK(parse_si_number("7B").value() == Approx(7e9));
    CHECK(parse_si_number("340M").value() == Approx(340e6));
    CHECK(parse_si_number("2T").value() == Approx(2e12));
    CHECK(parse_si_number("6.74e9").value() == Approx(6.74e9));
    CHECK(parse_si_number("1.5k").value() == Approx(1500));
    CHECK_FALSE(parse_si_number("7X").has_value());
    CHECK_FALSE(parse_si_number("").has_value());
    CHECK_FALSE(parse_si_number("nan").has_value());
    CHECK_FALSE(parse_si_number("inf").has_value());
    CHECK_FALSE(parse_si_number("1e999").has_value());
    CHECK_FALSE(parse_number("0x10").has_value());
    CHECK_FALSE(parse_number("1.2.3").has_value());
}

TEST_CASE("durations convert to hours with a 730-hour month", "[units]") {
    CHECK(parse_duration_hours("12h").value() == Approx(12));
    CHECK(parse_duration_hours("30d").value() == Approx(720));
    CHECK(parse_duration_hours("6w").value() == Approx(1008));
    CHECK(parse_duration_hours("3mo").value() == Approx(2190));
    CHECK(parse_duration_hours("1y").value() == Approx(8760));
    CHECK(parse_duration_hours("90min").value() == Approx(1.5));
    CHECK_FALSE(parse_duration_hours("3 fortnights").has_value());
}

TEST_CASE("money needs a currency code unless a default is given", "[units]") {
    CHECK(parse_money("250000 USD") == Money{250000, "USD"});
    CHECK(parse_money("5k CNY") == Money{5000, "CNY"});
    CHECK(parse_money("5000CNY") == Money{5000, "CNY"});
    CHECK(parse_money("100", "EUR") == Money{100, "EUR"});
    CHECK_FALSE(parse_money("100").has_value());
    CHECK_FALSE(parse_money("abc USD").has_value());
}

TEST_CASE("dates must be real calendar days", "[units]") {
    CHECK(parse_date("2024-02-29").has_value());
    CHECK_FALSE(parse_date("2023-02-29").has_value());
    CHECK_FALSE(parse_date("2023-13-01").has_value());
    CHECK(parse_date("1970-01-02")->days_since_epoch() == 1);
    CHECK(parse_date("2026-11-29")->to_string() == "2026-11-29");
    CHECK_FALSE(parse_date("2100-02-29").has_value()); // a century is not a leap year
    CHECK(parse_date("2000-02-29").has_value());       // unless it divides by 400
    CHECK(parse_date("1900-03-01")->days_since_epoch() == -25508);
    CHECK(parse_date("2026-12-07")->days_since_epoch() == 20794);
}

TEST_CASE("a time in seconds since the epoch has its UTC calendar day", "[units]") {
    CHECK(date_of_unix_seconds(0) == Date{1970, 1, 1});
    CHECK(date_of_unix_seconds(-1) == Date{1969, 12, 31});
    CHECK(date_of_unix_seconds(20794LL * 86400 + 86399) == Date{2026, 12, 7});
    CHECK(date_of_unix_seconds(20795LL * 86400) == Date{2026, 12, 8});
    CHECK(date_of_unix_seconds(951782400) == Date{2000, 2, 29});
    CHECK_FALSE(date_of_unix_seconds(std::int64_t{1} << 62).has_value());
    for (const std::int64_t days : {-25508LL, 0LL, 11016LL, 20794LL, 2932896LL}) {
        const auto date = date_of_unix_seconds(days * 86400);
        REQUIRE(date.has_value());
        CHECK(date->days_since_epoch() == days);
    }
}
