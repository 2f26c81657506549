// Decision confidence (recommend --uncertainty): the Monte Carlo's shares and quantiles, its
// determinism, a clear and an uncertain answer, and flip points that reproduce on the pipeline.

#include "../support/files.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/uncertainty.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

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

recommend::Recommendation run(const workload::Workload& w, const catalog::Catalog& catalog,
                              std::uint64_t seed = 1, int draws = 2000) {
    recommend::Settings settings;
    settings.rules = recommend::RuleUse::none;
    settings.uncertainty = {.draws = draws, .seed = seed, .inputs = w.uncertainty};
    return recommend::recommend(w, catalog, nullptr, settings, {"gpuplan", "test"});
}

double p_best_sum(const recommend::Confidence& c) {
    return std::accumulate(
        c.options.begin(), c.options.end(), 0.0,
        [](double sum, const recommend::OptionConfidence& o) { return sum + o.p_best; });
}

} // namespace

TEST_CASE("the shares of being best add up to one and every P90 is at least its P50",
          "[uncertainty]") {
    const catalog::Catalog catalog = cost_catalog();
    for (const bool on_demand : {false, true}) {
        workload::Workload w = finetune();
        if (on_demand) {
            w.constraints.purchase = {PurchaseOption::on_demand};
        }
        const recommend::Recommendation r = run(w, catalog);
        REQUIRE(r.confidence);
        const recommend::Confidence& c = *r.confidence;
        REQUIRE(c.options.size() >= 2);
        CHECK(c.p_none < 1.0);
        CHECK(p_best_sum(c) == Approx(1.0).margin(1e-9));
        for (const recommend::OptionConfidence& o : c.options) {
            CHECK(o.npv_p90 >= o.npv_p50);
            CHECK(o.cost_p90 >= o.cost_p50);
            CHECK(o.p_best >= 0.0);
            CHECK(o.p_meets <= 1.0);
        }
        CHECK(c.top_p_best == c.options.front().p_best);
    }
}

TEST_CASE("the same seed gives the same confidence and another seed other draws", "[uncertainty]") {
    const catalog::Catalog catalog = cost_catalog();
    workload::Workload w = finetune();
    w.constraints.purchase = {PurchaseOption::on_demand};
    const recommend::Recommendation a = run(w, catalog, 7);
    const recommend::Recommendation b = run(w, catalog, 7);
    const recommend::Recommendation other = run(w, catalog, 8);
    CHECK(*a.confidence == *b.confidence);
    CHECK(a.confidence->options != other.confidence->options);
}

TEST_CASE("an answer far cheaper than the rest is clear and two within 3 percent are uncertain",
          "[uncertainty]") {
    const catalog::Catalog catalog = cost_catalog();
    workload::Workload w = finetune();
    const recommend::Recommendation clear = run(w, catalog);
    // #1 (spot) costs under 0.7 of every other option.
    REQUIRE(clear.groups.size() >= 2);
    CHECK(clear.shown(0).npv < 0.7 * clear.shown(1).npv);
    CHECK(clear.confidence->top_p_best > 0.95);
    CHECK_FALSE(clear.confidence->deciding.has_value());

    w.constraints.purchase = {PurchaseOption::on_demand};
    const recommend::Recommendation close = run(w, catalog);
    REQUIRE(close.groups.size() >= 2);
    CHECK(close.shown(1).npv < 1.03 * close.shown(0).npv);
    CHECK(close.confidence->top_p_best < recommend::k_uncertain_p_best);
    CHECK(close.confidence->deciding.has_value());
    CHECK_FALSE(close.confidence->flips.empty());
}

TEST_CASE("a discount flip reproduces: the named discount makes the winner first",
          "[uncertainty]") {
    const catalog::Catalog catalog = cost_catalog();
    workload::Workload w = finetune();
    w.constraints.purchase = {PurchaseOption::on_demand};
    const recommend::Recommendation r = run(w, catalog);
    const auto& flips = r.confidence->flips;
    const auto flip = std::find_if(flips.begin(), flips.end(), [](const recommend::Flip& f) {
        return f.input == recommend::UncertainInput::prices && !f.flag.empty();
    });
    REQUIRE(flip != flips.end());
    // `--discount PROVIDER=X%`: X rounded up past the point.
    const std::string value = flip->flag.substr(flip->flag.find('=') + 1);
    const double fraction = std::stod(value) / 100.0;
    CHECK(fraction >= flip->value);
    recommend::Settings settings;
    settings.rules = recommend::RuleUse::none;
    settings.cost.provider_discounts[flip->subject] = fraction;
    const recommend::Recommendation past =
        recommend::recommend(w, catalog, nullptr, settings, {"gpuplan", "test"});
    CHECK(past.shown(0).id() == flip->winner);
    settings.cost.provider_discounts[flip->subject] = fraction - 0.002;
    const recommend::Recommendation short_of =
        recommend::recommend(w, catalog, nullptr, settings, {"gpuplan", "test"});
    CHECK(short_of.shown(0).id() == r.shown(0).id());
}

TEST_CASE("a workload's utilisation range moves only what scales with the work", "[uncertainty]") {
    const catalog::Catalog catalog = cost_catalog();
    workload::Workload w = finetune();
    w.constraints.purchase = {PurchaseOption::on_demand};
    w.uncertainty.utilisation = workload::FactorRange{0.5, 0.5};
    w.uncertainty.estimate_error = 1e-9;
    w.uncertainty.price_error = 1e-9;
    const recommend::Recommendation r = run(w, catalog, 1, 50);
    // On demand, almost everything is paid by the hour: half the work costs about half.
    const recommend::OptionConfidence& top = r.confidence->options.front();
    CHECK(top.cost_p50 < 0.6 * r.shown(0).total);
}

TEST_CASE("the MFU flip reproduces: --mfu at the flag flips the ranking and just short of it "
          "does not",
          "[uncertainty]") {
    const catalog::Catalog& catalog = embedded::catalog();
    const workload::Workload w = workload::read_workload(
        {"weekly-finetune-aws.yaml", fixture("workloads/weekly-finetune-aws.yaml")});
    const decide::Tree tree = embedded::decision_tree(catalog);
    recommend::Settings settings;
    settings.accept_soft = true;
    settings.uncertainty = {.draws = 500, .seed = 1, .inputs = {}};
    const recommend::Recommendation r =
        recommend::recommend(w, catalog, &tree, settings, {"gpuplan", "test"});
    const auto& flips = r.confidence->flips;
    const auto flip = std::find_if(flips.begin(), flips.end(), [](const recommend::Flip& f) {
        return f.input == recommend::UncertainInput::estimate && !f.flag.empty();
    });
    REQUIRE(flip != flips.end());
    const double mfu = std::stod(flip->flag.substr(flip->flag.find(' ') + 1));
    const auto first_at = [&](double value) {
        workload::Workload x = w;
        x.training.mfu = value;
        recommend::Settings plain = settings;
        plain.uncertainty = {};
        return recommend::recommend(x, catalog, &tree, plain, {"gpuplan", "test"}).shown(0).id();
    };
    CHECK(first_at(mfu) == flip->winner);
    CHECK(first_at(flip->below ? mfu + 0.001 : mfu - 0.001) == r.shown(0).id());
}
