#pragma once
// The CI gate behind `gpuplan check`: a plan (recommend's JSON, or a recommendation computed in
// process) judged against budget, deadline, baseline and catalog-age thresholds. Pure functions;
// the CLI reads the files, picks the date and maps the verdict to exit codes (docs/cli.md).

#include "gpuplan/units.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::gate {

// Plan files of this schema MAJOR are read, whatever their MINOR (added fields are ignored).
inline constexpr int k_plan_schema_major = 1;

// One ranked option of a plan, with the figures the gate compares.
struct PlanOption {
    int rank = 0;
    std::string id;
    std::string purchase;
    double wall_hours = 0.0;
    double total = 0.0; // undiscounted sum of every cash flow, plan currency
    double npv = 0.0;
    std::optional<double> max_monthly; // largest net cash flow of one month
    std::optional<Date> prices_as_of;  // date of the catalog prices behind this option
    std::optional<double> commitment;  // fleet plans: the money its commitments commit to
    bool meets_deadline = true;
    bool within_budget = true;
    // The confidence block's P90 total and wall time (recommend --uncertainty); absent without.
    std::optional<double> cost_p90;
    std::optional<double> wall_p90_hours;

    bool operator==(const PlanOption&) const = default;
};

// An option the plan rejected, with its reason.
struct PlanRejection {
    std::string id;
    std::string reason;

    bool operator==(const PlanRejection&) const = default;
};

// What the gate needs from a plan.
struct Plan {
    std::string source; // file name, or the workload file it was computed from
    std::string schema_version;
    std::string generator_version;
    std::string catalog_digest;
    std::optional<Date> prices_oldest; // as_of range of the prices the plan used
    std::optional<Date> prices_newest;
    std::string currency;
    std::optional<double> deadline_hours; // the workload's own constraints
    std::optional<double> budget;         // in `currency`
    std::vector<PlanOption> options;      // ranked, best first
    std::vector<PlanRejection> rejected;
    bool fleet = false; // a `gpuplan fleet --format json` plan (it has `commitments`)

    bool operator==(const Plan&) const = default;
};

// Reads a plan file (`gpuplan recommend --format json`, or `gpuplan fleet --format json`: a
// document with a top-level `commitments` array, read as one option `portfolio` whose total and
// npv are the portfolio NPV and whose commitment is the sum of its commitments' obligations).
// Throws InputError: a syntax error as `FILE:LINE:COL: error: ...`, a missing or mistyped field
// with its JSON path, every one at once; a schema_version outside MAJOR k_plan_schema_major alone,
// naming the versions that are read.
[[nodiscard]] Plan read_plan(std::string_view file, std::string_view text);

// A limit on the cost increase over a baseline: a fraction (`10%` = 0.10) or an amount.
struct IncreaseLimit {
    enum class Kind { fraction, amount } kind = Kind::fraction;
    double value = 0.0;

    bool operator==(const IncreaseLimit&) const = default;
};

// Parses `10%` (a fraction of the baseline) or `5000` / `5000 USD` (an amount); nullopt when
// malformed or negative.
[[nodiscard]] std::optional<IncreaseLimit> parse_increase_limit(std::string_view text);

// The thresholds of one check run; amounts are in the plan's currency.
struct Thresholds {
    std::optional<double> max_cost;             // on the option's total
    std::optional<double> max_monthly;          // on the option's largest monthly cash flow
    std::optional<double> max_commitment;       // fleet plans: on the money committed
    std::optional<double> max_hours;            // on the option's wall time
    std::optional<double> deadline_hours;       // default: the workload's deadline
    std::string option = "best";                // `best` (rank 1) or an option id
    std::optional<IncreaseLimit> max_increase;  // against the baseline's same option
    std::optional<double> max_catalog_age_days; // on the option's prices (else the plan's oldest)
    // 90: the cost and time limits (and the deadline and budget) hold at the confidence block's
    // P90 instead of the point figures; 0 = the point figures.
    int percentile = 0;

    bool operator==(const Thresholds&) const = default;
};

// One threshold and how the plan fared; `actual` and `limit` are in `unit`.
struct Check {
    std::string name; // max_cost, max_monthly, max_hours, deadline, budget, max_increase, ...
    std::string unit; // a currency code, `hours`, `days` or `fraction`
    std::optional<double> actual; // absent when the plan lacks the figure
    double limit = 0.0;
    bool passed = false;
    std::string message; // one sentence saying what was compared

    bool operator==(const Check&) const = default;
};

// The verdict of a check run.
struct Outcome {
    std::optional<PlanOption> option;      // the option checked; absent when none matched
    std::optional<PlanOption> base_option; // the baseline's same option, with --compare-to
    std::vector<Check> checks;             // in a fixed order; failed ones included
    std::vector<std::string> notes;        // facts that do not fail the gate

    [[nodiscard]] bool passed() const;
    bool operator==(const Outcome&) const = default;
};

// Evaluates every threshold for the selected option of `plan`. The workload's own deadline and
// budget are checked when the plan carries them (a --deadline overrides the former). Notes a
// plan made from another catalog than `current_digest` (empty = unknown). Ages are counted up to
// `today`. Throws nothing; a missing option is a failed `option` check.
[[nodiscard]] Outcome evaluate(const Plan& plan, const Thresholds& thresholds, const Plan* base,
                               std::string_view current_digest, Date today);

// True when `thresholds` or the plan's workload give at least one thing to check.
[[nodiscard]] bool has_thresholds(const Plan& plan, const Thresholds& thresholds);

} // namespace gpuplan::gate
