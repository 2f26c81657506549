// The CI gate: reading plan files (versions, diagnostics) and judging thresholds.

#include "gpuplan/error.hpp"
#include "gpuplan/gate/gate.hpp"
#include "gpuplan/generator.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;
using namespace gpuplan::gate;

namespace {

const char* const k_plan = R"({
  "schema_version": "1.3",
  "generator": {"name": "gpuplan", "version": "0.1.0"},
  "catalog": {"digest": "fnv1a64:aaaaaaaaaaaaaaaa", "as_of": {"oldest": "2026-01-01", "newest": "2026-07-01"}, "offers": 1},
  "currency": "USD",
  "workload": {"constraints": {"deadline_hours": 100.0, "budget": {"amount": 1000.0, "currency": "USD"}}},
  "future_field": [1, 2, 3],
  "options": [
    {"rank": 1, "id": "p/r/i/spot", "purchase": "spot", "wall_hours": 90.0, "meets_deadline": true,
     "within_budget": true, "cost": {"total": 110.0, "npv": 109.0, "max_monthly": 80.0}, "prices_as_of": "2026-06-01"},
    {"rank": 2, "id": "p/r/i/on_demand", "purchase": "on_demand", "wall_hours": 80.0, "meets_deadline": true,
     "within_budget": true, "cost": {"total": 150.0, "npv": 149.0}}
  ],
  "rejected": [{"id": "p/r/i/reserved_1y", "reason_code": "over_budget", "reason": "too dear"}]
})";

Plan base_plan(double best_total) {
    Plan plan = read_plan("base.json", k_plan);
    plan.options.front().total = best_total;
    return plan;
}

std::vector<std::string> messages(const InputError& e) {
    std::vector<std::string> out;
    for (const Diagnostic& d : e.diagnostics()) {
        out.push_back(format_diagnostic(d));
    }
    return out;
}

} // namespace

TEST_CASE("a plan of the same major version is read, unknown fields ignored", "[gate]") {
    const Plan plan = read_plan("plan.json", k_plan);
    CHECK(plan.schema_version == "1.3");
    CHECK(plan.currency == "USD");
    CHECK(plan.catalog_digest == "fnv1a64:aaaaaaaaaaaaaaaa");
    CHECK(plan.prices_oldest == Date{2026, 1, 1});
    CHECK(plan.deadline_hours == 100.0);
    CHECK(plan.budget == 1000.0);
    REQUIRE(plan.options.size() == 2);
    CHECK(plan.options[0].max_monthly == 80.0);
    CHECK(plan.options[0].prices_as_of == Date{2026, 6, 1});
    CHECK_FALSE(plan.options[1].max_monthly);
    CHECK(plan.rejected == std::vector<PlanRejection>{{"p/r/i/reserved_1y", "too dear"}});
}

TEST_CASE("a plan of another major version fails alone, naming the versions read", "[gate]") {
    for (const char* version : {"2.0", "0.9", "1", "one.zero", "1.x"}) {
        const std::string text = std::string(R"({"schema_version": ")") + version + R"("})";
        try {
            (void)read_plan("p.json", text);
            FAIL("read a plan of schema_version " << version);
        } catch (const InputError& e) {
            REQUIRE(e.diagnostics().size() == 1);
            CHECK(
                messages(e).front() ==
                std::string("p.json: error: /schema_version: unsupported plan schema_version \"") +
                    version +
                    "\"; this gpuplan (" GPUPLAN_VERSION
                    ") reads plan files of schema_version 1.0 to 1.x (it writes " +
                    std::string(k_json_schema_version) + ")");
        }
    }
}

TEST_CASE("every missing or mistyped field of a plan is reported at once", "[gate]") {
    const char* text = R"({"schema_version": "1.0", "currency": 5,
        "options": [{"rank": 1, "id": "x", "purchase": "spot", "wall_hours": "soon",
                     "meets_deadline": true, "within_budget": "yes", "cost": {"npv": 1}}]})";
    try {
        (void)read_plan("p.json", text);
        FAIL("read a broken plan");
    } catch (const InputError& e) {
        CHECK(messages(e) ==
              std::vector<std::string>{
                  "p.json: error: /generator: missing; a plan file is the output of `gpuplan "
                  "recommend --format json`",
                  "p.json: error: /catalog: missing; a plan file is the output of `gpuplan "
                  "recommend --format json`",
                  "p.json: error: /currency: expected a string, got number 5",
                  "p.json: error: /workload: missing; a plan file is the output of `gpuplan "
                  "recommend --format json`",
                  "p.json: error: /options/0/wall_hours: expected a number, got string \"soon\"",
                  "p.json: error: /options/0/within_budget: expected true or false, got string "
                  "\"yes\"",
                  "p.json: error: /options/0/cost/total: missing; a plan file is the output of "
                  "`gpuplan recommend --format json`",
                  "p.json: error: /rejected: missing; a plan file is the output of `gpuplan "
                  "recommend --format json`"});
    }
}

TEST_CASE("a JSON syntax error names its line and column", "[gate]") {
    try {
        (void)read_plan("p.json", "{\n  \"a\": [1,\n  2,,\n]}");
        FAIL("parsed invalid JSON");
    } catch (const InputError& e) {
        REQUIRE(e.diagnostics().size() == 1);
        CHECK(e.diagnostics()[0].line == 3);
        CHECK(e.diagnostics()[0].column == 5);
    }
}

TEST_CASE("thresholds compare at the printed precision", "[gate]") {
    Plan plan = read_plan("plan.json", k_plan);
    plan.options.front().total = 500.004; // prints as 500.00
    Thresholds t;
    t.max_cost = 500.0;
    CHECK(evaluate(plan, t, nullptr, "", {2026, 7, 1}).passed());
    plan.options.front().total = 500.006; // prints as 500.01
    CHECK_FALSE(evaluate(plan, t, nullptr, "", {2026, 7, 1}).passed());
}

TEST_CASE("the workload's deadline and budget are checked; --deadline overrides", "[gate]") {
    const Plan plan = read_plan("plan.json", k_plan);
    Outcome outcome = evaluate(plan, {}, nullptr, "", {2026, 7, 1});
    REQUIRE(outcome.checks.size() == 2);
    CHECK(outcome.checks[0].name == "deadline");
    CHECK(outcome.checks[0].passed); // 90 h within 100 h
    CHECK(outcome.checks[1].name == "budget");
    Thresholds t;
    t.deadline_hours = 89.0;
    outcome = evaluate(plan, t, nullptr, "", {2026, 7, 1});
    CHECK_FALSE(outcome.checks[0].passed);
    CHECK(outcome.checks[0].message == "wall time 3d 18h (deadline 3d 17h)");
}

TEST_CASE("the increase over a baseline is relative to the baseline's same option", "[gate]") {
    const Plan plan = read_plan("plan.json", k_plan); // best total 110
    Thresholds t;
    t.max_increase = parse_increase_limit("10%");
    const Plan base = base_plan(100.0);
    Outcome outcome = evaluate(plan, t, &base, "", {2026, 7, 1});
    REQUIRE(outcome.checks.back().name == "max_increase");
    CHECK(outcome.checks.back().actual == Approx(0.10));
    CHECK(outcome.checks.back().passed); // exactly 10% holds
    const Plan cheaper_base = base_plan(99.0);
    CHECK_FALSE(evaluate(plan, t, &cheaper_base, "", {2026, 7, 1}).passed()); // 11.1%
    t.max_increase = parse_increase_limit("10 USD");
    CHECK(evaluate(plan, t, &base, "", {2026, 7, 1}).passed());
    CHECK_FALSE(evaluate(plan, t, &cheaper_base, "", {2026, 7, 1}).passed());
    const Plan free_base = base_plan(0.0);
    t.max_increase = parse_increase_limit("50%");
    const Outcome unbounded = evaluate(plan, t, &free_base, "", {2026, 7, 1});
    CHECK_FALSE(unbounded.passed());
    CHECK_FALSE(unbounded.checks.back().actual);
}

TEST_CASE("parse_increase_limit reads percentages and amounts", "[gate]") {
    CHECK(parse_increase_limit("10%")->kind == IncreaseLimit::Kind::fraction);
    CHECK(parse_increase_limit("10%")->value == Approx(0.10));
    CHECK(parse_increase_limit("2500")->kind == IncreaseLimit::Kind::amount);
    CHECK(parse_increase_limit("2500")->value == 2500.0);
    CHECK_FALSE(parse_increase_limit("-5%"));
    CHECK_FALSE(parse_increase_limit("lots"));
}

TEST_CASE("a selected option missing from the plan fails with the plan's reason", "[gate]") {
    const Plan plan = read_plan("plan.json", k_plan);
    Thresholds t;
    t.option = "p/r/i/reserved_1y";
    const Outcome outcome = evaluate(plan, t, nullptr, "", {2026, 7, 1});
    REQUIRE(outcome.checks.size() == 1);
    CHECK(outcome.checks[0].name == "option");
    CHECK(outcome.checks[0].message == "plan.json rejects option p/r/i/reserved_1y: too dear");
    t.option = "nope";
    CHECK(evaluate(plan, t, nullptr, "", {2026, 7, 1}).checks[0].message ==
          "plan.json has no option nope");
}

TEST_CASE("catalog age counts days from the option's prices, else the plan's oldest", "[gate]") {
    Plan plan = read_plan("plan.json", k_plan);
    Thresholds t;
    t.max_catalog_age_days = 30.0;
    // 2026-06-01 to 2026-07-01 is 30 days: holds.
    Outcome outcome = evaluate(plan, t, nullptr, "", {2026, 7, 1});
    CHECK(outcome.checks.back().actual == 30.0);
    CHECK(outcome.passed());
    plan.options.front().prices_as_of.reset(); // falls back to 2026-01-01: 181 days
    outcome = evaluate(plan, t, nullptr, "", {2026, 7, 1});
    CHECK(outcome.checks.back().actual == 181.0);
    CHECK_FALSE(outcome.passed());
}

TEST_CASE("a plan from another catalog is checked with a note", "[gate]") {
    const Plan plan = read_plan("plan.json", k_plan);
    const Outcome outcome = evaluate(plan, {}, nullptr, "fnv1a64:bbbbbbbbbbbbbbbb", {2026, 7, 1});
    CHECK(outcome.passed());
    REQUIRE(outcome.notes.size() == 1);
    CHECK(outcome.notes[0].find("computed from catalog fnv1a64:aaaaaaaaaaaaaaaa") !=
          std::string::npos);
}

TEST_CASE("a fleet plan is one option: its NPV and the money its commitments commit", "[gate]") {
    const char* text =
        R"({"schema_version": "1.2", "generator": {"name": "gpuplan", "version": "0.1.0"},
        "catalog": {"digest": "fnv1a64:aaaaaaaaaaaaaaaa", "as_of": {"oldest": "2026-07-01", "newest": "2026-07-01"}},
        "currency": "USD", "npv": 5000.0,
        "commitments": [
          {"purchase": "reserved_1y", "gpu_count": 8, "months": 12, "per_gpu_hour": 0.5, "capex_per_gpu": null},
          {"purchase": "self_built", "gpu_count": 8, "months": 30, "per_gpu_hour": null, "capex_per_gpu": 1000.0}
        ]})";
    const Plan plan = read_plan("fleet.json", text);
    CHECK(plan.fleet);
    REQUIRE(plan.options.size() == 1);
    CHECK(plan.options[0].id == "portfolio");
    CHECK(plan.options[0].npv == 5000.0);
    // 0.5 x 8 GPUs x 12 months x 730 h + 1000 x 8 GPUs
    CHECK(plan.options[0].commitment == Approx(35040.0 + 8000.0));
    Thresholds t;
    t.max_commitment = 43040.0;
    CHECK(evaluate(plan, t, nullptr, "", Date{2026, 7, 1}).passed());
    t.max_commitment = 43039.99;
    CHECK_FALSE(evaluate(plan, t, nullptr, "", Date{2026, 7, 1}).passed());
}

TEST_CASE("a fleet commitment without a price is reported at its path", "[gate]") {
    const char* text = R"({"schema_version": "1.2", "generator": {"version": "0.1.0"},
        "catalog": {"digest": "x"}, "currency": "USD", "npv": 1.0,
        "commitments": [{"gpu_count": 8, "months": 12, "per_gpu_hour": null}]})";
    try {
        (void)read_plan("f.json", text);
        FAIL("read a fleet plan without prices");
    } catch (const InputError& e) {
        CHECK(messages(e) ==
              std::vector<std::string>{"f.json: error: /commitments/0: expected per_gpu_hour or "
                                       "capex_per_gpu"});
    }
}
