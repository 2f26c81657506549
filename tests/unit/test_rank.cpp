#include "gpuplan/rank/rank.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;

namespace {

cost::Option option(std::string id, double npv, double wall_hours, int gpus = 8) {
    cost::Option o;
    o.id = std::move(id);
    o.npv = npv;
    o.wall_hours = wall_hours;
    o.gpu_count = gpus;
    return o;
}

} // namespace

TEST_CASE("cost ranks by NPV and leaves rejected options out", "[rank]") {
    std::vector<cost::Option> options{option("a", 300, 10), option("b", 100, 50),
                                      option("c", 200, 5)};
    options[1].rejection = cost::Rejection::misses_deadline;
    CHECK(rank::rank(options, rank::Objective::cost) == std::vector<std::size_t>{2, 0});
    CHECK(rank::rejected(options) == std::vector<std::size_t>{1});
}

TEST_CASE("time ranks by wall hours, ties broken by NPV", "[rank]") {
    const std::vector<cost::Option> options{option("a", 300, 10), option("b", 100, 10),
                                            option("c", 50, 20)};
    CHECK(rank::rank(options, rank::Objective::time) == std::vector<std::size_t>{1, 0, 2});
}

TEST_CASE("balanced adds cost and time, each relative to the best", "[rank]") {
    // a: 100/100 + 40/10 = 5; b: 200/100 + 10/10 = 3; c: 150/100 + 20/10 = 3.5.
    const std::vector<cost::Option> options{option("a", 100, 40), option("b", 200, 10),
                                            option("c", 150, 20)};
    CHECK(rank::rank(options, rank::Objective::balanced) == std::vector<std::size_t>{1, 2, 0});
}

TEST_CASE("equal options fall back to GPU count and then id, a total order", "[rank]") {
    const std::vector<cost::Option> options{option("z", 100, 10, 8), option("m", 100, 10, 16),
                                            option("a", 100, 10, 16)};
    CHECK(rank::rank(options, rank::Objective::cost) == std::vector<std::size_t>{0, 2, 1});
}

TEST_CASE("objective names parse and print", "[rank]") {
    CHECK(rank::parse_objective("balanced") == rank::Objective::balanced);
    CHECK_FALSE(rank::parse_objective("fastest").has_value());
    CHECK(rank::to_string(rank::Objective::time) == "time");
}
