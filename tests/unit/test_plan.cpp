#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/finance/finance.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::cost;

namespace {

catalog::Catalog fixture() {
    const auto path =
        std::filesystem::path(GPUPLAN_SOURCE_DIR) / "tests" / "fixtures" / "catalog" / "cost.yaml";
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    const std::vector<TextFile> files{{"cost.yaml", text.str()}};
    return catalog::load_catalog(files);
}

workload::Workload training() {
    workload::Workload w;
    w.name = "t";
    w.task = workload::Task::train;
    w.model.params = 7e9;
    w.data.tokens = 1e9;
    w.horizon_months = 12;
    w.finance.discount_rate = 0.10;
    return w;
}

// 800 GPU-hours of work on any GPU, 100 GB checkpoints; fits when it has at least 8 GPUs.
struct FakeEstimator {
    int* calls;
    estimate::GpuEstimate operator()(const catalog::Gpu& gpu, const estimate::NodeShape& node,
                                     std::optional<int> count) const {
        ++*calls;
        estimate::GpuEstimate e;
        e.gpu = gpu.name;
        e.node = node;
        e.gpu_count = count.value_or(8);
        e.nodes = std::max(1, e.gpu_count / std::max(1, node.gpus_per_node));
        e.fits = e.gpu_count >= 8;
        e.memory_per_gpu_gib = 600.0 / e.gpu_count;
        e.gpu_hours = 800;
        e.wall_hours = 800.0 / e.gpu_count;
        e.checkpoint_gb = 100;
        return e;
    }
};

const Option& find(const Plan& plan, std::string_view id) {
    const auto it = std::find_if(plan.options().begin(), plan.options().end(),
                                 [id](const Option& o) { return o.id() == id; });
    REQUIRE(it != plan.options().end());
    return *it;
}

bool has(const Plan& plan, std::string_view id) {
    return std::any_of(plan.options().begin(), plan.options().end(),
                       [id](const Option& o) { return o.id() == id; });
}

} // namespace

TEST_CASE("on-demand adds storage and egress and discounts at the monthly rate", "[plan]") {
    int calls = 0;
    const Plan plan = cost::plan(training(), fixture(), Settings{}, FakeEstimator{&calls});
    const Option& od = find(plan, "testcloud/r1/big.8x/on_demand");
    // 100 h x 32/h; storage 2 x 100 GB x 0.023; egress 7e9 x 2 B = 14 GB x 0.09.
    CHECK(od.amounts.at(1) == Approx(3200 + 4.6 + 1.26));
    CHECK(od.total == Approx(3205.86));
    CHECK(od.npv == Approx(3205.86 / (1 + finance::monthly_rate(0.10))));
    CHECK(od.amounts.size() == 13);
    CHECK(od.gpu_count == 8);
    CHECK(od.nodes == 1);
    CHECK(od.per_gpu_hour == Approx(3205.86 / 800));
    const UnitCosts units = cost::unit_costs(training(), od.total);
    CHECK(units.per_run == Approx(3205.86));
    CHECK(units.per_million_tokens == Approx(3205.86 / 1000));
    CHECK_FALSE(od.rejection.has_value());
}

TEST_CASE("each distinct GPU, node shape and count is estimated once", "[plan]") {
    int calls = 0;
    const Plan plan = cost::plan(training(), fixture(), Settings{}, FakeEstimator{&calls});
    // A100 in 8-GPU NVLink nodes: big.8x on its stated 100 Gbps fabric, y.8a100 and the build
    // with no network stated (they differ only in host RAM and vCPUs, which cannot change an
    // estimate without a dataset); and L4 in 1-GPU nodes, whose chosen 8 GPUs are already whole
    // instances.
    CHECK(calls == 3);
    CHECK(plan.estimates == 3);
    const Option& l4 = find(plan, "testcloud/r1/small.1x/on_demand");
    CHECK(l4.gpu_count == 8);
    CHECK(l4.nodes == 8);
    CHECK(l4.amounts.at(1) == Approx(8 * 100 * 1.0 + 4.6 + 1.26));
}

TEST_CASE("host RAM separates estimates only where it changes the dataset's cache", "[plan]") {
    // 600 GB fits in half the RAM of big.8x (1152 GiB) but not of y.8a100 (1024 GiB) nor of the
    // build (RAM unknown): those two read from network storage alike and share one estimate.
    std::vector<std::optional<double>> rams;
    const auto estimator = [&](const catalog::Gpu& gpu, const estimate::NodeShape& node,
                               std::optional<int> count) {
        if (gpu.name == "A100-80GB") {
            rams.push_back(node.host_memory_gib);
        }
        int calls = 0;
        return FakeEstimator{&calls}(gpu, node, count);
    };
    workload::Workload w = training();
    w.data.dataset_gb = 600.0;
    (void)cost::plan(w, fixture(), Settings{}, estimator);
    REQUIRE(rams.size() == 2);
    CHECK(rams[0] == 1152.0);
    CHECK(rams[1] != 1152.0);
    estimate::NodeShape large;
    large.host_memory_gib = 1152.0;
    estimate::NodeShape smaller;
    smaller.host_memory_gib = 1024.0;
    CHECK(estimate::host_class(w, large).cache == estimate::DataCache::host_ram);
    CHECK(estimate::host_class(w, smaller) == estimate::host_class(w, estimate::NodeShape{}));
    // Without a dataset every host shares one class.
    CHECK(estimate::host_class(training(), large) ==
          estimate::host_class(training(), estimate::NodeShape{}));
}

TEST_CASE("spot takes the cheapest zone and is rejected unless interruptible", "[plan]") {
    int calls = 0;
    workload::Workload w = training();
    const Plan strict = cost::plan(w, fixture(), Settings{}, FakeEstimator{&calls});
    const Option& rejected = find(strict, "testcloud/r1/big.8x/spot");
    REQUIRE(rejected.rejection == Rejection::not_interruptible);
    CHECK(rejected.zone == "r1b");

    w.constraints.interruptible = true;
    const Plan loose = cost::plan(w, fixture(), Settings{}, FakeEstimator{&calls});
    const Option& spot = find(loose, "testcloud/r1/big.8x/spot");
    CHECK_FALSE(spot.rejection.has_value());
    const SpotOverhead overhead = spot_overhead(1, {.interruption_rate_per_node_hour = 0.01,
                                                    .checkpoint_hours = 100.0 / 1.0 / 3600.0,
                                                    .restart_hours = 0.25});
    CHECK(spot.wall_hours == Approx(100 * overhead.wall_factor));
    // Spot is billed like on-demand: whole hours here (the fixture's granularity).
    CHECK(spot.amounts.at(1) == Approx(std::ceil(100 * overhead.wall_factor) * 10.0 + 4.6 + 1.26));
}

TEST_CASE("an interruption-rate override changes the spot overhead", "[plan]") {
    int calls = 0;
    workload::Workload w = training();
    w.constraints.interruptible = true;
    Settings high;
    high.interruption_rate_per_node_hour = 0.2;
    const Plan low_plan = cost::plan(w, fixture(), Settings{}, FakeEstimator{&calls});
    const Plan high_plan = cost::plan(w, fixture(), high, FakeEstimator{&calls});
    CHECK(find(high_plan, "testcloud/r1/big.8x/spot").total >
          find(low_plan, "testcloud/r1/big.8x/spot").total);
}

TEST_CASE("reserved terms are owed in full and pick the payment with the lowest NPV", "[plan]") {
    int calls = 0;
    const Plan plan = cost::plan(training(), fixture(), Settings{}, FakeEstimator{&calls});
    const Option& one_year = find(plan, "testcloud/r1/big.8x/reserved_1y");
    CHECK(one_year.total == Approx(32 * 0.6 * 8760 + 4.6 + 1.26));
    const Option& three_years = find(plan, "testcloud/r1/big.8x/reserved_3y");
    // 36 monthly payments of 12.8 x 730 beat 12.16 x 26280 upfront at 10%/yr.
    CHECK(three_years.payment == catalog::Payment::no_upfront);
    CHECK(three_years.amounts.size() == 37);
    // No upfront: the largest month is one month's commitment, 12.8 x 730 (with storage).
    CHECK(three_years.max_monthly ==
          *std::max_element(three_years.amounts.begin(), three_years.amounts.end()));
    CHECK(three_years.max_monthly == Approx(12.8 * 730).epsilon(0.01));
    CHECK(three_years.total > one_year.total);
    CHECK(one_year.total > find(plan, "testcloud/r1/big.8x/on_demand").total);
}

TEST_CASE("prices convert to the output currency through the catalog's rates", "[plan]") {
    int calls = 0;
    const Plan plan = cost::plan(training(), fixture(), Settings{}, FakeEstimator{&calls});
    const Option& yun = find(plan, "yuncloud/cn-north/y.8a100/on_demand");
    CHECK(yun.price_currency == "CNY");
    CHECK(yun.fx_rate == Approx(1.0 / 7.0));
    CHECK(yun.total == Approx(100 * 210.0 / 7.0 + 4.6));
    REQUIRE(plan.fx.size() == 1);
    CHECK(plan.fx[0].from == "CNY");

    Settings cny;
    cny.currency = "CNY";
    const Plan in_cny = cost::plan(training(), fixture(), cny, FakeEstimator{&calls});
    CHECK(find(in_cny, "testcloud/r2/big.8x/on_demand").amounts.at(1) ==
          Approx((3000 + 4.6 + 1.26) * 7.0));
}

TEST_CASE("deadline, budget and max_gpus reject options with a reason", "[plan]") {
    int calls = 0;
    workload::Workload w = training();
    w.constraints.deadline_hours = 150;
    w.constraints.budget = Money{3100, "USD"};
    const Plan plan = cost::plan(w, fixture(), Settings{}, FakeEstimator{&calls});
    const Option& od_r1 = find(plan, "testcloud/r1/big.8x/on_demand");
    CHECK(od_r1.rejection == Rejection::over_budget);
    CHECK_FALSE(od_r1.within_budget);
    CHECK(od_r1.meets_deadline);
    const Option& own = find(plan, "self_built/8xA100-80GB");
    // Waits 12 weeks (2016 h) before 100 h of work.
    CHECK(own.wall_hours == Approx(2116));
    CHECK(own.rejection == Rejection::misses_deadline);
    CHECK_FALSE(find(plan, "testcloud/r2/big.8x/on_demand").rejection.has_value());

    w.constraints.max_gpus = 4;
    const Plan capped = cost::plan(w, fixture(), Settings{}, FakeEstimator{&calls});
    CHECK(find(capped, "testcloud/r2/big.8x/on_demand").rejection == Rejection::exceeds_max_gpus);
}

TEST_CASE("a budget in a currency the catalog cannot convert is an error, not a pass", "[plan]") {
    int calls = 0;
    workload::Workload w = training();
    w.constraints.budget = Money{10, "UDS"};
    CHECK_THROWS_AS(cost::plan(w, fixture(), Settings{}, FakeEstimator{&calls}), InputError);
}

TEST_CASE("constraints filter providers, regions and purchase options", "[plan]") {
    int calls = 0;
    workload::Workload w = training();
    w.constraints.providers = {"testcloud"};
    w.constraints.regions = {"r2"};
    w.constraints.purchase = {PurchaseOption::on_demand};
    const Plan plan = cost::plan(w, fixture(), Settings{}, FakeEstimator{&calls});
    REQUIRE(plan.options().size() == 1);
    CHECK(plan.options()[0].id() == "testcloud/r2/big.8x/on_demand");
}

TEST_CASE("a negotiated discount scales every charge of its provider", "[plan]") {
    int calls = 0;
    Settings settings;
    settings.provider_discounts["testcloud"] = 0.15;
    const Plan plan = cost::plan(training(), fixture(), settings, FakeEstimator{&calls});
    CHECK(find(plan, "testcloud/r2/big.8x/on_demand").total == Approx(0.85 * (3000 + 4.6 + 1.26)));
    CHECK(find(plan, "yuncloud/cn-north/y.8a100/on_demand").total == Approx(3000 + 4.6));
}

TEST_CASE("self-built is priced waiting, and bridged with --bridge", "[plan]") {
    int calls = 0;
    Settings settings;
    settings.bridge = true;
    const Plan plan = cost::plan(training(), fixture(), settings, FakeEstimator{&calls});
    const Option& waits = find(plan, "self_built/8xA100-80GB");
    const Option& bridged = find(plan, "self_built/8xA100-80GB/bridge");
    CHECK(waits.amounts.at(0) == Approx(210000));
    CHECK(bridged.wall_hours == Approx(100));
    // The bridge runs the whole 100 h job on the cheapest A100-80GB on-demand: 30/8 per GPU-hour.
    CHECK(bridged.item_totals[static_cast<std::size_t>(Item::bridge)] == Approx(100 * 30.0));
    const bool has_break_even =
        std::any_of(waits.notes.begin(), waits.notes.end(), [&](NoteIndex index) {
            const Note& n = plan.notes.at(index);
            // The cheapest on-demand is the CNY offer (no egress); a 100-hour job never pays
            // back 210,000 of capex.
            return n.kind == NoteKind::break_even && n.figures[0] < 0.0 &&
                   n.subject == "yuncloud/cn-north/y.8a100/on_demand";
        });
    CHECK(has_break_even);
    CHECK_FALSE(has(cost::plan(training(), fixture(), Settings{}, FakeEstimator{&calls}),
                    "self_built/8xA100-80GB/bridge"));
}

TEST_CASE("an output currency without an exchange rate rejects every option", "[plan]") {
    int calls = 0;
    Settings euros;
    euros.currency = "EUR";
    const Plan plan = cost::plan(training(), fixture(), euros, FakeEstimator{&calls});
    REQUIRE_FALSE(plan.options().empty());
    for (const Option& option : plan.options()) {
        // Spot is rejected first for the non-interruptible workload (the documented order).
        CHECK(option.rejection == (option.purchase == PurchaseOption::spot
                                       ? Rejection::not_interruptible
                                       : Rejection::no_exchange_rate));
    }
    CHECK(cost::reason(plan, find(plan, "testcloud/r2/big.8x/on_demand")) ==
          "no exchange rate from USD to EUR in the catalog");
}

// The training workload made interruptible, priced at `rate` spot interruptions per node-hour.
struct SpotCase {
    workload::Workload workload = training();
    Settings settings;
    int calls = 0;

    explicit SpotCase(double rate) {
        workload.constraints.interruptible = true;
        settings.interruption_rate_per_node_hour = rate;
    }
    Plan plan() { return cost::plan(workload, fixture(), settings, FakeEstimator{&calls}); }
};

TEST_CASE("a spot deadline is checked at the P90 wall time, not the mean", "[plan][spot]") {
    SpotCase run(0.05);
    const Plan free_run = run.plan();
    const Option& spot = find(free_run, "testcloud/r1/big.8x/spot");
    REQUIRE(spot.p90_wall_hours.has_value());
    CHECK(*spot.p90_wall_hours > spot.wall_hours);
    CHECK_FALSE(find(free_run, "testcloud/r1/big.8x/on_demand").p90_wall_hours.has_value());
    // A deadline between the mean and the P90 rejects the spot option, saying so.
    run.workload.constraints.deadline_hours = (spot.wall_hours + *spot.p90_wall_hours) / 2.0;
    const Plan tight = run.plan();
    const Option& late = find(tight, "testcloud/r1/big.8x/spot");
    CHECK(late.rejection == Rejection::misses_deadline);
    CHECK(cost::reason(tight, late).find("at P90") != std::string::npos);
    CHECK_FALSE(find(tight, "testcloud/r1/big.8x/on_demand").rejection.has_value());
}

TEST_CASE("work that would never finish is rejected, not priced", "[plan]") {
    SpotCase absurd(1e5);
    const Plan plan = absurd.plan();
    const Option& spot = find(plan, "testcloud/r1/big.8x/spot");
    CHECK(spot.rejection == Rejection::never_finishes);
    CHECK(std::isfinite(spot.npv));
    CHECK_FALSE(find(plan, "testcloud/r1/big.8x/on_demand").rejection.has_value());

    // 10^7 hours of work: more than k_max_plan_months on every option.
    struct Endless {
        estimate::GpuEstimate operator()(const catalog::Gpu& gpu, const estimate::NodeShape& node,
                                         std::optional<int> count) const {
            int unused = 0;
            estimate::GpuEstimate e = FakeEstimator{&unused}(gpu, node, count);
            e.wall_hours = 1e7;
            return e;
        }
    };
    const Plan endless = cost::plan(absurd.workload, fixture(), Settings{}, Endless{});
    for (const Option& option : endless.options()) {
        CHECK(option.rejection == Rejection::never_finishes);
    }
}

TEST_CASE("a self-built service waiting for hardware misses a deadline; bridged it does not",
          "[plan]") {
    int calls = 0;
    workload::Workload w = training();
    w.task = workload::Task::inference;
    w.constraints.deadline_hours = 100;
    Settings settings;
    settings.bridge = true;
    const Plan plan = cost::plan(w, fixture(), settings, FakeEstimator{&calls});
    const Option& waits = find(plan, "self_built/8xA100-80GB");
    CHECK(waits.rejection == Rejection::misses_deadline);
    CHECK(cost::reason(plan, waits) ==
          "the service can start only after the hardware's lead time, past the 100.0 h deadline");
    CHECK(find(plan, "self_built/8xA100-80GB/bridge").meets_deadline);
    CHECK(find(plan, "testcloud/r2/big.8x/on_demand").meets_deadline);
}

TEST_CASE("a service the estimate finds too slow is rejected, whatever it costs", "[plan]") {
    struct TooSlow {
        estimate::GpuEstimate operator()(const catalog::Gpu& gpu, const estimate::NodeShape& node,
                                         std::optional<int> count) const {
            int unused = 0;
            estimate::GpuEstimate e = FakeEstimator{&unused}(gpu, node, count);
            e.meets_deadline = false;
            e.notes.push_back("latency_target_missed: P90 latency 4.8 s > 4 s");
            return e;
        }
    };
    workload::Workload w = training();
    w.task = workload::Task::inference;
    w.inference.requests_per_second = 1;
    const Plan plan = cost::plan(w, fixture(), Settings{}, TooSlow{});
    const Option& od = find(plan, "testcloud/r1/big.8x/on_demand");
    CHECK(od.rejection == Rejection::misses_latency_target);
    CHECK(cost::reason(plan, od) == "latency_target_missed: P90 latency 4.8 s > 4 s");
}

TEST_CASE("larger counts double the nodes up to max_gpus, each with its own id", "[plan]") {
    int calls = 0;
    workload::Workload w = training();
    w.constraints.max_gpus = 32;
    Settings settings;
    CHECK_FALSE(has(cost::plan(w, fixture(), settings, FakeEstimator{&calls}),
                    "testcloud/r1/big.8x/on_demand@16"));
    settings.counts = GpuCounts::larger;
    const Plan plan = cost::plan(w, fixture(), settings, FakeEstimator{&calls});
    const Option& least = find(plan, "testcloud/r1/big.8x/on_demand");
    const Option& twice = find(plan, "testcloud/r1/big.8x/on_demand@16");
    const Option& four = find(plan, "testcloud/r1/big.8x/on_demand@32");
    CHECK_FALSE(has(plan, "testcloud/r1/big.8x/on_demand@64")); // over max_gpus
    CHECK(least.gpu_count == 8);
    CHECK_FALSE(least.larger_count);
    CHECK(twice.nodes == 2);
    CHECK(twice.wall_hours == Approx(50));
    CHECK(four.wall_hours == Approx(25));
    // 800 GPU-hours whatever the count: the same compute bill, shorter.
    CHECK(four.item_totals == least.item_totals);
    // Self-built keeps its minimum count: its lead time dominates the wall time.
    CHECK(std::none_of(plan.options().begin(), plan.options().end(), [](const Option& o) {
        return o.larger_count && o.purchase == PurchaseOption::self_built;
    }));
}

TEST_CASE("an exact gpu_count or a service is priced at its count only", "[plan]") {
    int calls = 0;
    Settings settings;
    settings.counts = GpuCounts::larger;
    workload::Workload w = training();
    w.constraints.gpu_count = 8;
    const Plan plan = cost::plan(w, fixture(), settings, FakeEstimator{&calls});
    CHECK(std::none_of(plan.options().begin(), plan.options().end(),
                       [](const Option& o) { return o.larger_count; }));
}

TEST_CASE("a region's stated spot interruption band sets its spot rate", "[plan][spot]") {
    const std::vector<TextFile> bands{
        {"bands.yaml", "schema_version: 1\n"
                       "sources:\n"
                       "  advisor: {title: Spot advisor copy, url: https://example.com/a, as_of: "
                       "2025-06-28}\n"
                       "products:\n"
                       "  - provider: testcloud\n"
                       "    spot_bands:\n"
                       "      - {instance: big.8x, band: \"15-20%\", regions: [r1], source: "
                       "advisor, as_of: 2025-06-28}\n"}};
    const catalog::Catalog catalog = catalog::overlay_catalog(fixture(), bands);
    int calls = 0;
    workload::Workload w = training();
    w.constraints.interruptible = true;
    const Plan plan = cost::plan(w, catalog, Settings{}, FakeEstimator{&calls});
    const Option& spot = find(plan, "testcloud/r1/big.8x/spot");
    // 20% a month: a hazard of -ln(0.8) / 730 per node-hour.
    const double rate = -std::log(0.8) / k_hours_per_month;
    const SpotOverhead overhead = spot_overhead(1, {.interruption_rate_per_node_hour = rate,
                                                    .checkpoint_hours = 100.0 / 1.0 / 3600.0,
                                                    .restart_hours = 0.25});
    CHECK(spot.wall_hours == Approx(100 * overhead.wall_factor));
    const auto note = std::find_if(spot.notes.begin(), spot.notes.end(), [&](NoteIndex i) {
        return plan.notes[i].kind == NoteKind::spot_risk;
    });
    REQUIRE(note != spot.notes.end());
    CHECK(plan.notes[*note].subject ==
          "its region's band 15-20% a month as of 2025-06-28: 20% taken");
    // A run's own rate still wins over the band.
    Settings set;
    set.interruption_rate_per_node_hour = 0.01;
    const Plan overridden = cost::plan(w, catalog, set, FakeEstimator{&calls});
    CHECK(find(overridden, "testcloud/r1/big.8x/spot").wall_hours ==
          Approx(
              find(cost::plan(w, fixture(), set, FakeEstimator{&calls}), "testcloud/r1/big.8x/spot")
                  .wall_hours));
}
