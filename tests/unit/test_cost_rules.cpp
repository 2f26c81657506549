// Applying the decision tree's verdict to a priced plan, and ranking ties by the rules'
// preferences.

#include "gpuplan/cost/rules.hpp"
#include "gpuplan/rank/rank.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;

namespace {

cost::Option an_option(std::string region, std::string gpu, PurchaseOption purchase, int nodes,
                       double npv) {
    cost::Option option;
    option.provider = "cloud";
    option.region = std::move(region);
    option.instance = "big.8x";
    option.nvlink = true;
    option.gpu = std::move(gpu);
    option.purchase = purchase;
    option.gpus_per_node = 8;
    option.nodes = nodes;
    option.gpu_count = 8 * nodes;
    option.npv = npv;
    return option;
}

// Gives every option of the plan the same node-to-node bandwidth.
void set_network(cost::Plan& plan, std::optional<double> network_gbps) {
    for (cost::Option& option : plan.options()) {
        option.network_gbps = network_gbps;
    }
}

decide::Decision a_decision() {
    decide::Decision decision;
    decision.candidate_gpus = {{"H100", true, decide::Reason{"big-model", "Big models."}},
                               {"L4", false, std::nullopt}};
    decision.excluded_gpus = {{"T4", decide::Reason{"too-small", "T4 is too small."}}};
    for (PurchaseOption option : k_all_purchase_options) {
        decision.purchase_options.push_back(
            {option, decide::PurchaseStatus::allowed, std::nullopt});
    }
    decision.purchase_options[static_cast<std::size_t>(PurchaseOption::spot)] = {
        PurchaseOption::spot, decide::PurchaseStatus::excluded,
        decide::Reason{"spot", "No checkpoints."}};
    decision.interconnect.min_network_gbps = 400.0;
    decision.interconnect.network_reason = decide::Reason{"big-model", "RDMA between nodes."};
    return decision;
}

} // namespace

TEST_CASE("apply_decision rejects what the rules exclude, with the rule and its why",
          "[cost][rules]") {
    cost::Plan plan;
    plan.option_list = cost::OptionList(
        std::vector<cost::Option>{an_option("a", "H100", PurchaseOption::on_demand, 1, 10.0),
                                  an_option("b", "T4", PurchaseOption::on_demand, 1, 5.0),
                                  an_option("c", "H100", PurchaseOption::spot, 1, 4.0),
                                  an_option("d", "H100", PurchaseOption::on_demand, 2, 20.0),
                                  an_option("e", "T4", PurchaseOption::on_demand, 1, 6.0)});
    plan.options()[4].rejection = cost::Rejection::over_budget;
    plan.options()[4].reason = "over budget";

    set_network(plan, 100.0);
    cost::apply_decision(plan, a_decision(), cost::ExcludedOptions::keep);
    CHECK_FALSE(plan.options()[0].rejection.has_value());
    CHECK(plan.options()[0].rule_preference == 0U);
    REQUIRE(plan.options()[0].notes.size() == 1);
    CHECK(plan.notes.at(plan.options()[0].notes[0]) ==
          cost::make_note(cost::NoteKind::rule_favours_gpu, {}, "H100", "big-model"));
    CHECK(plan.options()[1].rejection == cost::Rejection::excluded_by_rule);
    CHECK(plan.options()[1].reason ==
          "excluded by rule 'too-small': GPU model T4 is excluded. T4 is too small.");
    CHECK(plan.options()[2].reason ==
          "excluded by rule 'spot': purchase option spot is excluded. No checkpoints.");
    CHECK(plan.options()[3].reason == "excluded by rule 'big-model': its network has 100 Gbps "
                                      "between nodes; 400 Gbps is required. RDMA between nodes.");
    CHECK(plan.options()[4].rejection == cost::Rejection::over_budget); // its own reason stays
    CHECK(plan.options()[4].reason == "over budget");
}

TEST_CASE("apply_decision drops excluded options unless asked to keep them", "[cost][rules]") {
    cost::Plan plan;
    plan.option_list = cost::OptionList(
        std::vector<cost::Option>{an_option("a", "H100", PurchaseOption::on_demand, 2, 10.0),
                                  an_option("b", "T4", PurchaseOption::on_demand, 1, 5.0)});
    set_network(plan, 3200.0);
    cost::apply_decision(plan, a_decision(), cost::ExcludedOptions::drop);
    REQUIRE(plan.options().size() == 1);
    CHECK(plan.options()[0].id() == "cloud/a/big.8x/on_demand");
    CHECK(cost::to_string(cost::Rejection::excluded_by_rule) == "excluded_by_rule");
}

TEST_CASE("ranking orders objective ties by the rules' GPU preference", "[cost][rules][rank]") {
    std::vector<cost::Option> options{an_option("a", "L4", PurchaseOption::on_demand, 1, 10.0),
                                      an_option("b", "H100", PurchaseOption::on_demand, 1, 10.0),
                                      an_option("c", "A100", PurchaseOption::on_demand, 1, 10.0),
                                      an_option("d", "T4", PurchaseOption::on_demand, 1, 9.0)};
    options[1].rule_preference = 1;
    options[2].rule_preference = 0;
    // The cheaper T4 still wins: preferences only order ties.
    CHECK(rank::rank(options, rank::Objective::cost) == std::vector<std::size_t>{3, 2, 1, 0});
}
