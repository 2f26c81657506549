#include "gpuplan/finance/finance.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using namespace gpuplan::finance;

TEST_CASE("npv matches the numpy-financial test vectors with values[0] at t=0", "[finance]") {
    const std::vector<double> a{-40000, 5000, 8000, 12000, 30000};
    CHECK(npv(0.08, a) == Approx(3065.22267).margin(1e-5));
    const std::vector<double> b{-100, 39, 59, 55, 20};
    CHECK(npv(0.281, b) == Approx(-0.0084785916).margin(1e-9));
}

TEST_CASE("Excel's NPV is npv with a zero prepended", "[finance]") {
    // Excel NPV(0.08, 5000, 8000, 12000, 30000) - 40000 == npf.npv(0.08, [-40000, ...]).
    const std::vector<double> excel_style{0, 5000, 8000, 12000, 30000};
    CHECK(npv(0.08, excel_style) - 40000 == Approx(3065.22267).margin(1e-5));
}

TEST_CASE("irr matches the numpy-financial test vector", "[finance]") {
    const std::vector<double> flows{-100, 39, 59, 55, 20};
    REQUIRE(irr(flows).has_value());
    CHECK(*irr(flows) == Approx(0.28094842116).margin(1e-10));
    const std::vector<double> no_sign_change{100, 10, 10};
    CHECK_FALSE(irr(no_sign_change).has_value());
}

TEST_CASE("the monthly rate compounds to the annual rate, not r/12", "[finance]") {
    CHECK(monthly_rate(0.10) == Approx(0.0079741404).margin(1e-10));
    CHECK(std::pow(1.0 + monthly_rate(0.10), 12.0) == Approx(1.10));
    CHECK(monthly_rate(0.0) == 0.0);
}

TEST_CASE("the annuity factor equals the npv of unit payments at periods 1..n", "[finance]") {
    const std::vector<double> ones{0, 1, 1, 1, 1, 1, 1};
    CHECK(annuity_factor(0.01, 6) == Approx(npv(0.01, ones)));
    CHECK(annuity_factor(0.0, 6) == 6.0);
    CHECK(annuity_factor(0.05, 0) == 0.0);
}

TEST_CASE("break-even month is the first month an upfront option stays cheaper", "[finance]") {
    // Buy for 100 now then pay 1 a month, or rent for 11 a month: cumulative gap crosses at 10.
    const std::vector<double> buy{100, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const std::vector<double> rent{0, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11};
    CHECK(break_even_month(0.0, buy, rent) == 10);
    // Discounting delays it: 10 x annuity_factor(2%, m) >= 100 first at m = 12 (10.575).
    CHECK(break_even_month(0.02, buy, rent) == 12);
    // Never when renting stays cheaper to the end.
    const std::vector<double> short_rent{0, 11, 11};
    CHECK_FALSE(break_even_month(0.0, buy, short_rent).has_value());
    // Month 0 when the option is never more expensive.
    const std::vector<double> cheap{0, 1, 1};
    const std::vector<double> dear{0, 2, 2};
    CHECK(break_even_month(0.0, cheap, dear) == 0);
}
