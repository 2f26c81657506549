#include "gpuplan/rank/rank.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;

namespace {

cost::Option option(std::string id, double npv, double wall_hours, int gpus = 8) {
    cost::Option o;
    o.provider = std::move(id); // the id's first part orders ties
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

TEST_CASE("rank_first is the head of rank, ties and all", "[rank]") {
    // Equal NPVs and wall hours leave the order to GPU count and id.
    std::vector<cost::Option> options;
    for (int i = 0; i < 40; ++i) {
        options.push_back(
            option(std::string(1, static_cast<char>('z' - i % 26)) + std::to_string(i),
                   100.0 + (i % 7), 10.0 + (i % 3), 8 + (i % 2) * 8));
    }
    options[5].rejection = cost::Rejection::over_budget;
    for (const auto objective :
         {rank::Objective::cost, rank::Objective::time, rank::Objective::balanced}) {
        const std::vector<std::size_t> all = rank::rank(options, objective);
        for (const std::size_t count :
             {std::size_t{0}, std::size_t{1}, std::size_t{10}, all.size(), all.size() + 5}) {
            const std::vector<std::size_t> head =
                rank::rank_first(options, objective, rank::Candidates::feasible, count);
            const auto n = static_cast<std::ptrdiff_t>(std::min(count, all.size()));
            CHECK(head == std::vector<std::size_t>(all.begin(), all.begin() + n));
        }
    }
}

TEST_CASE("objective names parse and print", "[rank]") {
    CHECK(rank::parse_objective("balanced") == rank::Objective::balanced);
    CHECK_FALSE(rank::parse_objective("fastest").has_value());
    CHECK(rank::to_string(rank::Objective::time) == "time");
}

TEST_CASE("id_less orders options as their ids compare, without building them", "[rank]") {
    // Parts chosen so that '/' (0x2F) meets '-' (0x2D), '.' (0x2E), digits and prefixes.
    const std::vector<std::string> names{"a", "a-b", "a.b", "a/b", "ab", "a0", ""};
    std::vector<cost::Option> options;
    for (const std::string& provider : {std::string("aws"), std::string("aws-x")}) {
        for (const std::string& name : names) {
            for (PurchaseOption purchase : k_all_purchase_options) {
                cost::Option o;
                o.provider = provider;
                o.region = name;
                o.instance = name + "i";
                o.purchase = purchase;
                options.push_back(o);
                o.bridged = true;
                options.push_back(o);
                o.larger_count = true; // ids ending in @N
                for (const int count : {8, 16, 128}) {
                    o.gpu_count = count;
                    options.push_back(o);
                    o.bridged = false;
                    options.push_back(o);
                }
            }
        }
    }
    for (const cost::Option& a : options) {
        for (const cost::Option& b : options) {
            INFO(a.id() << " vs " << b.id());
            CHECK(cost::id_less(a, b) == (a.id() < b.id()));
        }
    }
    cost::Option own;
    own.purchase = PurchaseOption::self_built;
    own.instance = "box";
    CHECK(own.id() == "self_built/box");
    own.larger_count = true;
    own.gpu_count = 16;
    CHECK(own.id() == "self_built/box@16");
    own.larger_count = false;
    own.bridged = true;
    CHECK(own.id() == "self_built/box/bridge");
}
