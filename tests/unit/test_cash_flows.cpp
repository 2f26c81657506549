#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/finance/finance.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace gpuplan;
using namespace gpuplan::cost;

namespace {

const catalog::Billing k_hourly{.granularity_seconds = 3600, .minimum_seconds = 0, .sources = {}};
const catalog::Billing k_per_second{.granularity_seconds = 1, .minimum_seconds = 60, .sources = {}};

double item(const CashFlows& flows, Item which) {
    return flows.item_totals()[static_cast<std::size_t>(which)];
}

} // namespace

TEST_CASE("on-demand bills a short job's hours at the end of its month", "[cost][on_demand]") {
    const Usage usage{.nodes = 2, .busy_hours_per_run = 100};
    const CashFlows flows = on_demand_cash_flows(usage, 10.0, k_hourly);
    REQUIRE(flows.months.size() == 2);
    CHECK(flows.at(0) == 0.0);
    CHECK(flows.at(1) == Approx(2 * 100 * 10.0));
}

TEST_CASE("on-demand rounds each session up to the billing granularity", "[cost][on_demand]") {
    const Usage usage{.nodes = 1, .busy_hours_per_run = 100.25};
    CHECK(on_demand_cash_flows(usage, 10.0, k_hourly).total() == Approx(1010.0));
    CHECK(on_demand_cash_flows(usage, 10.0, k_per_second).total() == Approx(1002.5));
    CHECK(billed_hours(0.001, k_per_second) == Approx(60.0 / 3600.0));
}

TEST_CASE("a long job spreads over 730-hour months", "[cost][on_demand]") {
    const Usage usage{.nodes = 1, .busy_hours_per_run = 1000};
    const CashFlows flows = on_demand_cash_flows(usage, 1.0, k_hourly);
    CHECK(flows.at(1) == Approx(730.0));
    CHECK(flows.at(2) == Approx(270.0));
}

TEST_CASE("8 hours a day stretches the same work over three times the calendar",
          "[cost][on_demand]") {
    const Usage day_shift{.nodes = 1, .busy_hours_per_run = 300, .hours_per_day = 8};
    const CashFlows flows = on_demand_cash_flows(day_shift, 1.0, k_hourly);
    CHECK(flows.at(1) == Approx(730.0 / 3.0));
    CHECK(flows.at(2) == Approx(300.0 - 730.0 / 3.0));
    CHECK(usage_profile(day_shift, 0.0).end_hour == Approx(900.0));
}

TEST_CASE("repeated runs start on schedule, or when the previous run ends", "[cost][on_demand]") {
    const Usage monthly{.nodes = 1, .busy_hours_per_run = 100, .runs = 3, .every_months = 1};
    const Profile profile = usage_profile(monthly, 0.0);
    CHECK(profile.node_hours.at(1) == Approx(100));
    CHECK(profile.node_hours.at(2) == Approx(100));
    CHECK(profile.node_hours.at(3) == Approx(100));
    const Usage back_to_back{.nodes = 1, .busy_hours_per_run = 1000, .runs = 2, .every_months = 1};
    CHECK(usage_profile(back_to_back, 0.0).end_hour == Approx(2000));
}

TEST_CASE("a commitment is owed for every month of its term, used or not", "[cost][reserved]") {
    // 40% off a 10/h on-demand rate, no upfront, one node for a 1-year term.
    const Commitment one_year{.term_months = 12, .effective_per_hour = 6.0, .upfront_fraction = 0};
    const Usage round_the_clock{.nodes = 1, .busy_hours_per_run = 8760};
    const Usage day_shift{.nodes = 1, .busy_hours_per_run = 8 * 365, .hours_per_day = 8};
    const CashFlows reserved = reserved_cash_flows(day_shift, one_year);
    CHECK(reserved.at(0) == 0.0);
    CHECK(reserved.at(1) == Approx(6.0 * 730));
    CHECK(reserved.at(12) == Approx(6.0 * 730));
    CHECK(reserved.total() == Approx(6.0 * 8760));
    CHECK(reserved_cash_flows(round_the_clock, one_year) == reserved);
    // Break-even duty is 1 - discount = 60%: 24 h/day favours the commitment, 8 h/day does not.
    CHECK(on_demand_cash_flows(round_the_clock, 10.0, k_hourly).total() == Approx(87600));
    CHECK(on_demand_cash_flows(day_shift, 10.0, k_hourly).total() == Approx(29200));
    const CommitmentUse use = commitment_use(day_shift, one_year);
    CHECK(use.terms == 1);
    CHECK(use.unused_node_hours() == Approx(8760 - 2920));
}

TEST_CASE("a 3-month job is not cheaper on a 3-year commitment", "[cost][reserved]") {
    const Usage three_months{.nodes = 1, .busy_hours_per_run = 3 * 730};
    const Commitment three_years{
        .term_months = 36, .effective_per_hour = 4.3, .upfront_fraction = 0};
    const CashFlows reserved = reserved_cash_flows(three_months, three_years);
    CHECK(reserved.months.size() == 37);
    CHECK(reserved.total() == Approx(4.3 * 36 * 730));
    CHECK(reserved.total() > on_demand_cash_flows(three_months, 10.0, k_hourly).total());
}

TEST_CASE("no further term is bought past the horizon: the spill is paid on demand",
          "[cost][reserved]") {
    // Busy round the clock for 36 months and 100 hours: the work spills into month 37.
    const Usage busy{.nodes = 1, .busy_hours_per_run = 36 * 730 + 100};
    const Commitment one_year{
        .term_months = 12, .effective_per_hour = 6.0, .upfront_fraction = 0, .horizon_months = 36};
    const Commitment three_years{
        .term_months = 36, .effective_per_hour = 4.0, .upfront_fraction = 0, .horizon_months = 36};
    CHECK(commitment_use(busy, one_year).terms == 3);
    CHECK(commitment_use(busy, three_years).terms == 1);
    CHECK(reserved_cash_flows(busy, one_year).total() == Approx(3 * 6.0 * 8760));
    CHECK(reserved_cash_flows(busy, three_years).total() == Approx(4.0 * 3 * 8760));
    const CashFlows spill = commitment_spill(busy, three_years);
    CHECK(spill.total() == Approx(100));
    CHECK(spill.at(37) == Approx(100));
    CHECK(commitment_spill(busy, one_year) == spill);
    const CommitmentUse use = commitment_use(busy, three_years);
    CHECK(use.spill_node_hours == Approx(100));
    CHECK(use.unused_node_hours() == Approx(0).margin(1e-6));
    // Without a horizon, a second 3-year term covers the 100 hours (the old over-buying).
    Commitment unlimited = three_years;
    unlimited.horizon_months = 0;
    CHECK(commitment_use(busy, unlimited).terms == 2);
    CHECK(commitment_spill(busy, unlimited).total() == 0.0);
    // The first term is always bought, even when it outlasts the horizon.
    const Usage short_job{.nodes = 1, .busy_hours_per_run = 100};
    Commitment long_term = three_years;
    long_term.horizon_months = 12;
    CHECK(commitment_use(short_job, long_term).terms == 1);
    CHECK(commitment_spill(short_job, long_term).total() == 0.0);
}

TEST_CASE("a monthly subscription is prepaid month by month while the work runs",
          "[cost][subscription]") {
    // 4,032 a month (Alibaba gn6i-c8g1.2xlarge), one node busy for 2.5 months.
    const Usage usage{.nodes = 1, .busy_hours_per_run = 2.5 * 730};
    const Commitment monthly{.term_months = 1,
                             .effective_per_hour = 4032.0 / 730,
                             .upfront_fraction = 1,
                             .horizon_months = 12};
    const CashFlows flows = reserved_cash_flows(usage, monthly);
    CHECK(flows.at(0) == Approx(4032));
    CHECK(flows.at(1) == Approx(4032));
    CHECK(flows.at(2) == Approx(4032));
    CHECK(flows.total() == Approx(3 * 4032));
    CHECK(commitment_use(usage, monthly).unused_node_hours() == Approx(0.5 * 730));
}

TEST_CASE("all upfront pays the whole term at month 0", "[cost][reserved]") {
    const Usage usage{.nodes = 2, .busy_hours_per_run = 100};
    const Commitment all_upfront{
        .term_months = 12, .effective_per_hour = 5.0, .upfront_fraction = 1};
    const CashFlows flows = reserved_cash_flows(usage, all_upfront);
    CHECK(flows.at(0) == Approx(2 * 5.0 * 8760));
    CHECK(flows.at(1) == 0.0);
    CHECK(item(flows, Item::upfront) == Approx(2 * 5.0 * 8760));
}

TEST_CASE("terms renew back to back while the workload still runs", "[cost][reserved]") {
    const Usage service{.nodes = 1, .busy_hours_per_run = 30 * 730};
    const Commitment one_year{
        .term_months = 12, .effective_per_hour = 1.0, .upfront_fraction = 0.5};
    const CashFlows flows = reserved_cash_flows(service, one_year);
    CHECK(commitment_use(service, one_year).terms == 3);
    CHECK(flows.at(0) == Approx(0.5 * 8760));
    CHECK(flows.at(12) == Approx(0.5 * 8760 + 0.5 * 730));
    CHECK(flows.at(24) == Approx(0.5 * 8760 + 0.5 * 730));
    CHECK(flows.total() == Approx(3 * 8760));
}

TEST_CASE("spot overhead reproduces the worked Young/Daly example", "[cost][spot]") {
    // lambda_node 0.1/h, 4 nodes -> M = 2.5 h; delta 5 min; R 15 min: tau_Daly 0.59 h. The
    // first-order W is 1.36; Daly's exact expectation 2.5 e^0.1 (e^(0.6733/2.5) - 1) / 0.59
    // = 1.447.
    const SpotRisk high{.interruption_rate_per_node_hour = 0.1,
                        .checkpoint_hours = 5.0 / 60.0,
                        .restart_hours = 0.25};
    const SpotOverhead overhead = spot_overhead(4, high);
    CHECK(overhead.interruption_rate_per_hour == Approx(0.4));
    CHECK(overhead.checkpoint_interval_hours == Approx(0.59).margin(0.005));
    CHECK(overhead.wall_factor == Approx(1.447).margin(0.002));
    // At 35% of the on-demand price the effective cost is about 0.51x on-demand, not 0.35x.
    CHECK(0.35 * overhead.wall_factor == Approx(0.51).margin(0.01));
}

TEST_CASE("a low interruption rate costs little; none costs nothing", "[cost][spot]") {
    const SpotRisk low{.interruption_rate_per_node_hour = 0.0003,
                       .checkpoint_hours = 5.0 / 60.0,
                       .restart_hours = 0.25};
    const SpotOverhead overhead = spot_overhead(1, low);
    CHECK(overhead.wall_factor > 1.0);
    CHECK(overhead.wall_factor < 1.01);
    CHECK(spot_overhead(1, SpotRisk{}).wall_factor == 1.0);
    const Usage usage{.nodes = 1, .busy_hours_per_run = 100};
    CHECK(spot_cash_flows(usage, 3.0, overhead).total() ==
          Approx(100 * overhead.wall_factor * 3.0));
}

TEST_CASE("spot Monte Carlo is reproducible and centred on the expected wall time",
          "[cost][spot]") {
    const SpotRisk risk{.interruption_rate_per_node_hour = 0.1,
                        .checkpoint_hours = 5.0 / 60.0,
                        .restart_hours = 0.25};
    const SpotOverhead overhead = spot_overhead(4, risk);
    const SpotSimulation a = simulate_spot(200, 1, overhead, risk, 400, 42);
    const SpotSimulation b = simulate_spot(200, 1, overhead, risk, 400, 42);
    CHECK(a == b);
    CHECK(a.samples == 400);
    CHECK(a.p50_wall_hours == Approx(200 * overhead.wall_factor).epsilon(0.03));
    CHECK(a.p90_wall_hours >= a.p50_wall_hours);
}

namespace {

SelfBuiltPlan site_plan() {
    return SelfBuiltPlan{.nodes = 1,
                         .capex_per_node = 100000,
                         .network_capex_per_node = 0,
                         .node_kw = 10,
                         .lead_time_hours = 0,
                         .electricity_per_kwh = 0.1,
                         .pue = 1.5,
                         .colocation_per_kw_month = 200,
                         .staff_fte_per_node = 0.1,
                         .staff_cost_per_fte_year = 120000,
                         .maintenance_rate_per_year = 0.12,
                         .utilisation = 0.8,
                         .resale_curve = {{0, 1.0}, {12, 0.5}},
                         .horizon_months = 12,
                         .bridge_price_per_hour = std::nullopt};
}

} // namespace

TEST_CASE("self-built without lead time: capex now, opex monthly, resale at the horizon",
          "[cost][self_built]") {
    const Usage year{.nodes = 1, .busy_hours_per_run = 8760};
    const CashFlows flows = self_built_cash_flows(year, site_plan());
    CHECK(flows.at(0) == Approx(100000));
    // power 730 x 10 kW x 0.8 x 1.5 x 0.1 = 876; colocation 2000; staff 1000; maintenance 1000.
    CHECK(flows.at(1) == Approx(876 + 2000 + 1000 + 1000));
    CHECK(item(flows, Item::resale) == Approx(-50000));
    CHECK(flows.total() == Approx(100000 + 12 * 4876 - 50000));
}

TEST_CASE("self-built with lead time waits, or bridges on the cloud", "[cost][self_built]") {
    const Usage year{.nodes = 1, .busy_hours_per_run = 8760};
    SelfBuiltPlan waits = site_plan();
    waits.lead_time_hours = 730;
    const CashFlows waited = self_built_cash_flows(year, waits);
    CHECK(self_built_end_hour(year, waits) == Approx(9490));
    CHECK(waited.at(1) == 0.0);
    CHECK(waited.months.size() == 14);
    CHECK(waited.total() == Approx(100000 + 12 * 4876 - 50000));

    SelfBuiltPlan bridged = waits;
    bridged.bridge_price_per_hour = 50.0;
    const CashFlows flows = self_built_cash_flows(year, bridged);
    CHECK(self_built_end_hour(year, bridged) == Approx(8760));
    CHECK(item(flows, Item::bridge) == Approx(730 * 50.0));
    CHECK(item(flows, Item::power) == Approx(11 * 876));
    // Sold after 11 months of service: 1 - 0.5 x 11/12 of capex.
    CHECK(item(flows, Item::resale) == Approx(-100000 * (1 - 0.5 * 11.0 / 12.0)));
}

TEST_CASE("break-even utilisation solves owned PV = rented PV", "[cost][self_built]") {
    // rate 0: fixed = 100000 - 50000 + 4000 x 12 = 98000; margin = 730 x 12 x (30 - 1.2).
    const auto u = break_even_utilisation(site_plan(), 30.0, 0.0);
    REQUIRE(u.has_value());
    CHECK(*u == Approx(98000.0 / (730 * 12 * 28.8)));
    CHECK_FALSE(break_even_utilisation(site_plan(), 5.0, 0.0).has_value());
}

TEST_CASE("resale interpolates the curve and stays flat past its ends", "[cost][self_built]") {
    const std::vector<catalog::ResalePoint> curve{{0, 1.0}, {12, 0.6}, {36, 0.3}};
    CHECK(resale_fraction(curve, 6) == Approx(0.8));
    CHECK(resale_fraction(curve, 24) == Approx(0.45));
    CHECK(resale_fraction(curve, 60) == Approx(0.3));
    CHECK(resale_fraction({}, 12) == 0.0);
}

// The seed articles' claims, reproduced with the cost model (docs/methodology.md, "Cost engine",
// "What gpuplan says about the seed articles' claims").
namespace {

const catalog::Billing k_aws{.granularity_seconds = 1, .minimum_seconds = 60, .sources = {}};

double npv_of(const CashFlows& flows) {
    return finance::npv(finance::monthly_rate(0.10), flows.amounts());
}

// Seed 000: 8-GPU server 200K USD, operations 30K USD/yr, cloud 15K USD a month. Power, PUE and
// colocation from the reference defaults (6.5 kW DGX A100, EIA 2023 industrial, Uptime 1.58,
// CBRE H2 2024), resale 65% / 45% / 30% after 12 / 24 / 36 months (3rd-party curve).
SelfBuiltPlan seed_server(double horizon_months) {
    return SelfBuiltPlan{.nodes = 1,
                         .capex_per_node = 200000,
                         .network_capex_per_node = 0,
                         .node_kw = 6.5,
                         .lead_time_hours = 0,
                         .electricity_per_kwh = 0.0806,
                         .pue = 1.58,
                         .colocation_per_kw_month = 184.06,
                         .staff_fte_per_node = 0.3,
                         .staff_cost_per_fte_year = 100000,
                         .maintenance_rate_per_year = 0,
                         .utilisation = 0.8,
                         .resale_curve = {{12, 0.65}, {24, 0.45}, {36, 0.30}},
                         .horizon_months = horizon_months,
                         .bridge_price_per_hour = std::nullopt};
}

constexpr double k_seed_cloud_per_hour = 15000.0 / 730.0;

} // namespace

TEST_CASE("claim: reserved is 40-60% below on-demand only for long, continuous use",
          "[cost][claims]") {
    // AWS default discounts in the catalog: 1y no-upfront 37%, 3y no-upfront 57%.
    const Usage continuous{.nodes = 1, .busy_hours_per_run = 36 * 730};
    const double on_demand = npv_of(on_demand_cash_flows(continuous, 10.0, k_aws));
    const double one_year =
        npv_of(reserved_cash_flows(continuous, {.term_months = 12, .effective_per_hour = 6.3}));
    const double three_years =
        npv_of(reserved_cash_flows(continuous, {.term_months = 36, .effective_per_hour = 4.3}));
    CHECK(1.0 - one_year / on_demand == Approx(0.37));
    CHECK(1.0 - three_years / on_demand == Approx(0.57));
    // At 8 hours a day the same 1-year commitment costs 0.63 / (8/24) = 1.89x on-demand.
    const Usage day_shift{.nodes = 1, .busy_hours_per_run = 12 * 730 / 3.0, .hours_per_day = 8};
    CHECK(npv_of(reserved_cash_flows(day_shift, {.term_months = 12, .effective_per_hour = 6.3})) /
              npv_of(on_demand_cash_flows(day_shift, 10.0, k_aws)) ==
          Approx(1.89).epsilon(0.01));
}

TEST_CASE("claim: spot is 60-90% cheaper before overheads take some back", "[cost][claims]") {
    // p4d.24xlarge us-east-1: on-demand 21.957642, cheapest zone spot 6.5303 (70% off). A 7B
    // full-training checkpoint is 112 GB (16 B/param) written at 1 GB/s per node; restart 15 min.
    const double list_ratio = 6.5303 / 21.957642;
    auto effective = [&](double rate, int nodes) {
        const SpotRisk risk{.interruption_rate_per_node_hour = rate,
                            .checkpoint_hours = 112.0 / nodes / 3600.0,
                            .restart_hours = 0.25};
        return list_ratio * spot_overhead(nodes, risk).wall_factor;
    };
    CHECK(1.0 - list_ratio == Approx(0.703).margin(0.001));
    CHECK(1.0 - effective(0.0003057, 1) == Approx(0.701).margin(0.001)); // AWS worst band
    CHECK(1.0 - effective(0.05, 8) == Approx(0.652).margin(0.001));      // reference default
    CHECK(1.0 - effective(0.2, 8) == Approx(0.503).margin(0.001));       // reference stress
}

TEST_CASE("claim: owning 8 GPUs pays back near 18 months of continuous use", "[cost][claims]") {
    SelfBuiltPlan kept = seed_server(36);
    kept.resale_curve.clear(); // payback without selling the servers
    const Usage continuous{.nodes = 1, .busy_hours_per_run = 36 * 730};
    const auto own = self_built_cash_flows(continuous, kept).amounts();
    const auto rent = on_demand_cash_flows(continuous, k_seed_cloud_per_hour, k_aws).amounts();
    CHECK(finance::break_even_month(0.0, own, rent) == 19);
    CHECK(finance::break_even_month(finance::monthly_rate(0.10), own, rent) == 21);
    const auto u = break_even_utilisation(kept, k_seed_cloud_per_hour, finance::monthly_rate(0.10));
    REQUIRE(u.has_value());
    CHECK(*u == Approx(0.696).margin(0.001));
}

TEST_CASE("claim: the cloud is cheaper for short projects", "[cost][claims]") {
    auto compare = [](int months) {
        const Usage project{.nodes = 1, .busy_hours_per_run = months * 730.0};
        return npv_of(self_built_cash_flows(project, seed_server(months))) /
               npv_of(on_demand_cash_flows(project, k_seed_cloud_per_hour, k_aws));
    };
    CHECK(compare(3) > 1.9); // 3 months: owning costs about twice as much
    CHECK(compare(7) > 1.0); // still the cloud at 7 months
    CHECK(compare(8) < 1.0); // owning wins from 8 months when sold at 65% afterwards
    CHECK(compare(36) < 0.65);
}

TEST_CASE("spot overhead stays finite at absurd interruption rates", "[cost][spot]") {
    const SpotRisk absurd{
        .interruption_rate_per_node_hour = 1e6, .checkpoint_hours = 0.1, .restart_hours = 0.25};
    const SpotOverhead overhead = spot_overhead(4096, absurd);
    CHECK(std::isfinite(overhead.wall_factor));
    CHECK(overhead.wall_factor == k_max_wall_factor);
}

TEST_CASE("no commitment is bought for a term in which the workload does not run",
          "[cost][reserved]") {
    // Two 100-hour runs 30 months apart: terms 1 (months 1-12) and 3 (months 25-36) are bought,
    // term 2 (months 13-24) is not.
    const Usage sparse{.nodes = 1, .busy_hours_per_run = 100, .runs = 2, .every_months = 30};
    const Commitment one_year{.term_months = 12, .effective_per_hour = 1.0};
    const CashFlows flows = reserved_cash_flows(sparse, one_year);
    CHECK(commitment_use(sparse, one_year).terms == 2);
    CHECK(flows.at(12) == Approx(730));
    CHECK(flows.at(13) == 0.0);
    CHECK(flows.at(24) == 0.0);
    CHECK(flows.at(25) == Approx(730));
    CHECK(flows.total() == Approx(2 * 8760));
}
