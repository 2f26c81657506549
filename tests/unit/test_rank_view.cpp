#include "gpuplan/rank/rank.hpp"
#include "gpuplan/rank/view.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;

namespace {

cost::Option offer(std::string provider, std::string region, std::string instance, double npv,
                   double wall_hours, PurchaseOption purchase = PurchaseOption::on_demand) {
    cost::Option o;
    o.provider = std::move(provider);
    o.region = std::move(region);
    o.instance = std::move(instance);
    o.gpu = "H100";
    o.gpus_per_node = 8;
    o.nodes = 1;
    o.gpu_count = 8;
    o.purchase = purchase;
    o.npv = npv;
    o.total = npv;
    o.wall_hours = wall_hours;
    return o;
}

} // namespace

TEST_CASE("identical offers in several regions are one group, the best ranked shown",
          "[rank][view]") {
    const std::vector<cost::Option> options{
        offer("lambda", "us-east-1", "8x", 100, 10),  offer("lambda", "eu-1", "8x", 100, 10),
        offer("lambda", "asia-1", "8x", 100, 10),     offer("lambda", "eu-2", "8x", 100.01, 10),
        offer("aws", "us-east-1", "p5", 100, 10),     offer("gcp", "us-1", "a3-8g", 120, 10),
        offer("gcp", "us-1", "a3-8g-nolssd", 120, 10)};
    const std::vector<std::size_t> ranked = rank::rank(options, rank::Objective::cost);
    const std::vector<rank::Group> groups = rank::group_identical(options, ranked, false);
    // aws at the same price is another provider; a cent more is another offer; the GCP twins
    // with the same figures are one offer of two types.
    REQUIRE(groups.size() == 4);
    CHECK(options[groups[0].members.front()].provider == "aws");
    CHECK(groups[1].members.size() == 3);
    CHECK(options[groups[1].members.front()].region == "asia-1"); // ties ordered by id
    CHECK(groups[1].regions == 3);
    CHECK(groups[1].instances == 1);
    CHECK(groups[2].members.size() == 1);
    CHECK(groups[3].instances == 2);
    CHECK(groups[3].regions == 1);
    CHECK(rank::group_identical(options, ranked, true).size() == options.size());
}

TEST_CASE("options with different verdicts or counts are never grouped", "[rank][view]") {
    std::vector<cost::Option> options{offer("lambda", "a", "8x", 100, 10),
                                      offer("lambda", "b", "8x", 100, 10),
                                      offer("lambda", "c", "8x", 100, 10)};
    options[1].within_budget = false;
    options[2].nodes = 2;
    const std::vector<std::size_t> ranked = rank::rank(options, rank::Objective::cost);
    CHECK(rank::group_identical(options, ranked, false).size() == 3);
}

TEST_CASE("best per purchase option and per GPU model come from the ranking", "[rank][view]") {
    std::vector<cost::Option> options{offer("a", "r", "i", 300, 10, PurchaseOption::spot),
                                      offer("b", "r", "i", 100, 10, PurchaseOption::reserved_1y),
                                      offer("c", "r", "i", 200, 10, PurchaseOption::on_demand),
                                      offer("d", "r", "i", 150, 10, PurchaseOption::on_demand)};
    options[0].gpu = "A100";
    const std::vector<std::size_t> ranked = rank::rank(options, rank::Objective::cost);
    const std::vector<rank::Group> groups = rank::group_identical(options, ranked, false);
    const auto shown = [&](std::size_t g) { return options[groups[g].members.front()].provider; };
    const std::vector<std::size_t> purchase = rank::best_per_purchase(options, groups);
    REQUIRE(purchase.size() == 3); // in k_all_purchase_options order
    CHECK(shown(purchase[0]) == "d");
    CHECK(shown(purchase[1]) == "b");
    CHECK(shown(purchase[2]) == "a");
    const std::vector<std::size_t> gpu = rank::best_per_gpu(options, groups);
    REQUIRE(gpu.size() == 2);
    CHECK(shown(gpu[0]) == "b");
    CHECK(shown(gpu[1]) == "a");
}

TEST_CASE("the frontier keeps options no other beats on both cost and time, fastest first",
          "[rank][view]") {
    // fast: 4 h at 300; mid: 8 h at 200; slow: 20 h at 100; dominated: 10 h at 250 (mid is both
    // cheaper and faster); tie: 8 h at 200, the same figures as mid from another provider.
    const std::vector<cost::Option> options{
        offer("fast", "r", "i", 300, 4), offer("mid", "r", "i", 200, 8),
        offer("slow", "r", "i", 100, 20), offer("dominated", "r", "i", 250, 10),
        offer("tie", "r", "i", 200, 8)};
    const std::vector<std::size_t> ranked = rank::rank(options, rank::Objective::cost);
    const std::vector<rank::Group> groups = rank::group_identical(options, ranked, false);
    std::vector<std::string> names;
    for (const std::size_t g : rank::frontier(options, groups)) {
        names.push_back(options[groups[g].members.front()].provider);
    }
    CHECK(names == std::vector<std::string>{"fast", "mid", "slow"});
}
