// The recommendation pipeline: one entry point that estimates, decides, prices and ranks, and the
// views of it that tco and check take.

#include "../support/files.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/gate/gate.hpp"
#include "gpuplan/recommend/check_plan.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/tco.hpp"
#include "gpuplan/report/recommend.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace gpuplan;

namespace {

std::string fixture(const std::string& relative) {
    return test::slurp(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/" + relative);
}

catalog::Catalog cost_catalog() {
    const std::vector<TextFile> files{{"cost.yaml", fixture("catalog/cost.yaml")}};
    return catalog::load_catalog(files);
}

workload::Workload finetune() {
    return workload::read_workload({"finetune-7b.yaml", fixture("workloads/finetune-7b.yaml")});
}

// The team tree that excludes A100-80GB (and favours spot for checkpointed jobs).
decide::Tree no_a100(const catalog::Catalog& catalog) {
    return decide::read_tree({"no-a100.yaml", fixture("rules/no-a100.yaml")}, &catalog);
}

bool any_rule_excluded(const cost::Plan& plan) {
    return std::any_of(plan.options().begin(), plan.options().end(), [](const cost::Option& o) {
        return o.rejection == cost::Rejection::excluded_by_rule;
    });
}

} // namespace

TEST_CASE("the pipeline drops what the rules exclude, keeps it priced in explain mode and "
          "ignores the tree without rules",
          "[recommend]") {
    const catalog::Catalog catalog = cost_catalog();
    const workload::Workload w = finetune();
    const decide::Tree tree = no_a100(catalog);
    const GeneratorInfo generator{.name = "gpuplan", .version = "test"};

    recommend::Settings settings;
    settings.rules = recommend::RuleUse::apply;
    const recommend::Recommendation applied =
        recommend::recommend(w, catalog, &tree, settings, generator);
    // Options the rules exclude leave the plan; those rejected on their own figures stay.
    CHECK_FALSE(any_rule_excluded(applied.plan));
    CHECK(std::none_of(applied.ranked.begin(), applied.ranked.end(), [&](std::size_t i) {
        return applied.plan.options()[i].gpu == "A100-80GB";
    }));
    REQUIRE(applied.decision);
    CHECK(applied.rules_file == "no-a100.yaml");

    settings.rules = recommend::RuleUse::explain;
    const recommend::Recommendation explained =
        recommend::recommend(w, catalog, &tree, settings, generator);
    REQUIRE(any_rule_excluded(explained.plan));
    CHECK(explained.plan.options().size() > applied.plan.options().size());
    for (const cost::Option& o : explained.plan.options()) {
        if (o.gpu == "A100-80GB" && o.rejection == cost::Rejection::excluded_by_rule) {
            CHECK(cost::reason(explained.plan, o).find("rule 'quota'") != std::string::npos);
        }
    }
    // The same options win either way: exclusions only change what is listed.
    REQUIRE(!applied.ranked.empty());
    REQUIRE(!explained.ranked.empty());
    CHECK(applied.plan.options()[applied.ranked.front()].id() ==
          explained.plan.options()[explained.ranked.front()].id());

    settings.rules = recommend::RuleUse::none;
    const recommend::Recommendation unruled =
        recommend::recommend(w, catalog, nullptr, settings, generator);
    CHECK_FALSE(unruled.decision);
    CHECK(unruled.rules_file.empty());
    CHECK(std::any_of(unruled.ranked.begin(), unruled.ranked.end(),
                      [&](std::size_t i) { return unruled.plan.options()[i].gpu == "A100-80GB"; }));
}

TEST_CASE("the pipeline estimates each configuration once for the facts and the cost stage",
          "[recommend]") {
    const catalog::Catalog catalog = cost_catalog();
    const decide::Tree tree = no_a100(catalog);
    recommend::Settings settings;
    const recommend::Recommendation with_rules =
        recommend::recommend(finetune(), catalog, &tree, settings, {});
    settings.rules = recommend::RuleUse::none;
    const recommend::Recommendation without =
        recommend::recommend(finetune(), catalog, nullptr, settings, {});
    // The cost stage sees the same distinct configurations whether or not facts were made first.
    CHECK(with_rules.plan.estimates == without.plan.estimates);
}

TEST_CASE("check_plan is what the gate reads from recommend's JSON", "[recommend][gate]") {
    const catalog::Catalog catalog = cost_catalog();
    const decide::Tree tree = no_a100(catalog);
    recommend::Settings settings;
    settings.top = 0;
    const recommend::Recommendation r = recommend::recommend(
        finetune(), catalog, &tree, settings, {.name = "gpuplan", .version = "test"});
    const gate::Plan in_process = recommend::check_plan(r, "finetune-7b.yaml");
    const gate::Plan from_json =
        gate::read_plan("finetune-7b.yaml", report::render_recommend(r, report::Format::json));
    CHECK(in_process.options.size() == r.ranked.size());
    CHECK(in_process.rejected.size() == r.rejected.size());
    CHECK(in_process == from_json);
    // The counts by reason the views print add up to the rejected options, code by code.
    std::map<std::string, std::size_t> counted;
    for (const std::size_t index : r.rejected) {
        ++counted[std::string(cost::to_string(*r.plan.options()[index].rejection))];
    }
    CHECK(!counted.empty());
    CHECK(r.rejection_counts == counted);
}

TEST_CASE("tco honours the rules: an excluded GPU model is listed as rejected with its rule",
          "[recommend][tco]") {
    const catalog::Catalog catalog = cost_catalog();
    const decide::Tree tree = no_a100(catalog);
    workload::Workload w = finetune();
    w.constraints.gpu_models = {"A100-80GB"};
    const auto configuration = recommend::tco_configuration(
        w, catalog, &tree, recommend::RuleUse::apply, cost::Settings{});
    REQUIRE(configuration);
    CHECK(configuration->gpu == "A100-80GB");
    const recommend::TcoComparison comparison = recommend::tco(
        w, catalog, &tree, recommend::RuleUse::apply, cost::Settings{}, *configuration, {});
    REQUIRE_FALSE(comparison.options.empty());
    CHECK(comparison.rules_file == "no-a100.yaml");
    // Every A100-80GB option is rejected: by the rule, or on its own figures when those already
    // rule it out (an option keeps its own reason).
    bool by_rule = false;
    for (const recommend::TcoOption& t : comparison.options) {
        CHECK(t.option.rejection);
        CHECK_FALSE(t.reason.empty());
        by_rule = by_rule || t.reason.find("rule 'quota'") != std::string::npos;
    }
    CHECK(by_rule);
}

TEST_CASE("tco carries each option's running cost over the longest option's months",
          "[recommend][tco]") {
    const catalog::Catalog catalog = cost_catalog();
    workload::Workload w = finetune();
    w.constraints.gpu_models = {"A100-80GB"};
    const recommend::TcoComparison comparison =
        recommend::tco(w, catalog, nullptr, recommend::RuleUse::none, cost::Settings{},
                       recommend::Configuration{"A100-80GB", std::nullopt}, {});
    REQUIRE_FALSE(comparison.options.empty());
    std::size_t longest = 0;
    for (const recommend::TcoOption& t : comparison.options) {
        const std::vector<double>& amounts = t.option.amounts;
        REQUIRE(t.cumulative.size() == comparison.months);
        REQUIRE(amounts.size() <= comparison.months);
        double sum = 0.0;
        for (std::size_t k = 0; k < comparison.months; ++k) {
            sum += k < amounts.size() ? amounts[k] : 0.0;
            CHECK(t.cumulative[k] == sum);
        }
        longest = std::max(longest, amounts.size());
    }
    CHECK(comparison.months == longest);
    CHECK(comparison.months > 1);
    CHECK_FALSE(comparison.conventions.currency.empty());
}

TEST_CASE("tco without a GPU model takes recommend's best configuration, rules included",
          "[recommend][tco]") {
    const catalog::Catalog catalog = cost_catalog();
    const decide::Tree tree = no_a100(catalog);
    const auto configuration = recommend::tco_configuration(
        finetune(), catalog, &tree, recommend::RuleUse::apply, cost::Settings{});
    REQUIRE(configuration);
    CHECK(configuration->gpu != "A100-80GB");
    const auto unruled = recommend::tco_configuration(finetune(), catalog, nullptr,
                                                      recommend::RuleUse::none, cost::Settings{});
    REQUIRE(unruled);
}
