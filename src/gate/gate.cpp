#include "gpuplan/gate/gate.hpp"

#include "gpuplan/numbers.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpuplan::gate {

namespace {

const PlanOption* find_option(const Plan& plan, std::string_view selector) {
    if (selector == "best") {
        // Rank 1, wherever a re-sorted or merged plan put it (the lowest rank on a tie).
        const auto best = std::min_element(
            plan.options.begin(), plan.options.end(),
            [](const PlanOption& a, const PlanOption& b) { return a.rank < b.rank; });
        return best == plan.options.end() ? nullptr : &*best;
    }
    const auto it = std::find_if(plan.options.begin(), plan.options.end(),
                                 [&](const PlanOption& option) { return option.id == selector; });
    return it == plan.options.end() ? nullptr : &*it;
}

std::string missing_option_message(const Plan& plan, std::string_view selector) {
    if (selector == "best") {
        return fmt::format("{} ranks no feasible option ({} rejected)", plan.source,
                           plan.rejected.size());
    }
    const auto it = std::find_if(plan.rejected.begin(), plan.rejected.end(),
                                 [&](const PlanRejection& r) { return r.id == selector; });
    if (it != plan.rejected.end()) {
        return fmt::format("{} rejects option {}: {}", plan.source, selector, it->reason);
    }
    return fmt::format("{} has no option {}", plan.source, selector);
}

Check at_most(std::string name, std::string unit, std::optional<double> actual, double limit,
              std::string message) {
    // Compared as output rounds them, so a verdict never contradicts the printed numbers.
    const bool passed = actual && round_money(*actual) <= round_money(limit) + 0.0;
    return {std::move(name), std::move(unit), actual, limit, passed, std::move(message)};
}

void check_increase(const Outcome& outcome, const Plan& plan, const Plan& base,
                    const Thresholds& thresholds, std::vector<Check>& checks) {
    const IncreaseLimit& limit = *thresholds.max_increase;
    const bool fraction = limit.kind == IncreaseLimit::Kind::fraction;
    const std::string unit = fraction ? "fraction" : plan.currency;
    if (!outcome.option) {
        return;
    }
    if (!outcome.base_option) {
        checks.push_back({"max_increase", unit, std::nullopt, limit.value, false,
                          missing_option_message(base, thresholds.option) +
                              ", so the increase cannot be measured"});
        return;
    }
    const double increase = outcome.option->total - outcome.base_option->total;
    const std::string change =
        fmt::format("total {} against {} in {}", format_money(outcome.option->total, plan.currency),
                    format_money(outcome.base_option->total, plan.currency), base.source);
    if (!fraction) {
        checks.push_back(
            at_most("max_increase", unit, increase, limit.value,
                    fmt::format("increase {} (limit {}): {}", format_money(increase, plan.currency),
                                format_money(limit.value, plan.currency), change)));
        return;
    }
    std::optional<double> relative;
    if (outcome.base_option->total > 0.0) {
        relative = increase / outcome.base_option->total;
    } else if (increase <= 0.0) {
        relative = 0.0;
    }
    const std::string shown =
        relative ? format_fixed(*relative * 100.0, 1) + "%" : std::string("unbounded");
    Check check{"max_increase",
                unit,
                relative,
                limit.value,
                false,
                fmt::format("increase {} (limit {}%): {}", shown,
                            format_fixed(limit.value * 100.0, 1), change)};
    check.passed = relative && round_to(*relative, 4) <= round_to(limit.value, 4);
    checks.push_back(std::move(check));
}

// The money limits on the option's total (a fleet plan's NPV) and commitments.
void check_costs(const Plan& plan, const Thresholds& thresholds, const PlanOption& option,
                 std::vector<Check>& checks) {
    const std::string& currency = plan.currency;
    if (thresholds.max_cost) {
        checks.push_back(
            at_most("max_cost", currency, option.total, *thresholds.max_cost,
                    fmt::format("{} {} (limit {})", plan.fleet ? "portfolio NPV" : "total",
                                format_money(option.total, currency),
                                format_money(*thresholds.max_cost, currency))));
    }
    if (thresholds.max_commitment) {
        checks.push_back(
            at_most("max_commitment", currency, option.commitment, *thresholds.max_commitment,
                    fmt::format("committed {} (limit {})",
                                format_money(option.commitment.value_or(0.0), currency),
                                format_money(*thresholds.max_commitment, currency))));
    }
}

} // namespace

bool Outcome::passed() const {
    return std::all_of(checks.begin(), checks.end(), [](const Check& c) { return c.passed; });
}

bool has_thresholds(const Plan& plan, const Thresholds& t) {
    return t.max_cost || t.max_monthly || t.max_commitment || t.max_hours || t.deadline_hours ||
           t.max_increase || t.max_catalog_age_days || plan.deadline_hours || plan.budget;
}

std::optional<IncreaseLimit> parse_increase_limit(std::string_view text) {
    if (!text.empty() && text.back() == '%') {
        auto fraction = parse_fraction(text);
        if (!fraction || *fraction < 0.0) {
            return std::nullopt;
        }
        return IncreaseLimit{IncreaseLimit::Kind::fraction, *fraction};
    }
    auto amount = parse_number(text);
    if (!amount) {
        auto money = parse_money(text);
        if (money) {
            amount = money->amount;
        }
    }
    if (!amount || *amount < 0.0) {
        return std::nullopt;
    }
    return IncreaseLimit{IncreaseLimit::Kind::amount, *amount};
}

namespace {

// Notes when the plan (or its base) was computed from another catalog than this gpuplan's.
void catalog_notes(const Plan& plan, const Plan* base, std::string_view current_digest,
                   std::vector<std::string>& notes) {
    if (!current_digest.empty() && !plan.catalog_digest.empty() &&
        plan.catalog_digest != current_digest) {
        notes.push_back(fmt::format(
            "{} was computed from catalog {}; this gpuplan's catalog is {}; checked as written",
            plan.source, plan.catalog_digest, current_digest));
    }
    if (base != nullptr && !base->catalog_digest.empty() &&
        base->catalog_digest != plan.catalog_digest) {
        notes.push_back(fmt::format("{} and {} were computed from different catalogs", plan.source,
                                    base->source));
    }
}

// The deadline and the workload's own budget.
void check_workload(const Plan& plan, const Thresholds& thresholds, const PlanOption& option,
                    std::vector<Check>& checks) {
    const std::optional<double> deadline =
        thresholds.deadline_hours ? thresholds.deadline_hours : plan.deadline_hours;
    if (deadline) {
        checks.push_back(
            at_most("deadline", "hours", option.wall_hours, *deadline,
                    fmt::format("wall time {} (deadline {})", format_duration(option.wall_hours),
                                format_duration(*deadline))));
    }
    if (plan.budget) {
        checks.push_back(at_most("budget", plan.currency, option.total, *plan.budget,
                                 fmt::format("total {} (workload budget {})",
                                             format_money(option.total, plan.currency),
                                             format_money(*plan.budget, plan.currency))));
    }
}

// --max-monthly and --max-hours.
void check_limits(const Plan& plan, const Thresholds& thresholds, const PlanOption& option,
                  std::vector<Check>& checks) {
    const std::string& currency = plan.currency;
    if (thresholds.max_monthly) {
        const std::string limit = format_money(*thresholds.max_monthly, currency);
        checks.push_back(
            at_most("max_monthly", currency, option.max_monthly, *thresholds.max_monthly,
                    option.max_monthly
                        ? fmt::format("largest monthly cash flow {} (limit {})",
                                      format_money(*option.max_monthly, currency), limit)
                        : fmt::format("{} has no cost.max_monthly (plan schema_version {}); re-run "
                                      "recommend with this gpuplan",
                                      plan.source, plan.schema_version)));
    }
    if (thresholds.max_hours) {
        checks.push_back(
            at_most("max_hours", "hours", option.wall_hours, *thresholds.max_hours,
                    fmt::format("wall time {} h (limit {} h)", format_fixed(option.wall_hours, 1),
                                format_fixed(*thresholds.max_hours, 1))));
    }
}

// --max-catalog-age: the age of the option's prices (else the plan's oldest) on `today`.
Check check_catalog_age(const Plan& plan, const PlanOption& option, double limit, Date today) {
    const std::optional<Date> dated =
        option.prices_as_of ? option.prices_as_of : plan.prices_oldest;
    if (!dated) {
        return {"max_catalog_age",
                "days",
                std::nullopt,
                limit,
                false,
                fmt::format("{} names no as_of of its prices", plan.source)};
    }
    const std::string whose =
        option.prices_as_of ? "the option's prices are" : "the plan's oldest price is";
    const auto age = static_cast<double>(today.days_since_epoch() - dated->days_since_epoch());
    return at_most("max_catalog_age", "days", age, limit,
                   fmt::format("{} from {}, {} days before {} (limit {} days)", whose,
                               dated->to_string(), format_fixed(age, 0), today.to_string(),
                               format_fixed(limit, 0)));
}

} // namespace

Outcome evaluate(const Plan& plan, const Thresholds& thresholds, const Plan* base,
                 std::string_view current_digest, Date today) {
    Outcome outcome;
    catalog_notes(plan, base, current_digest, outcome.notes);
    const PlanOption* option = find_option(plan, thresholds.option);
    if (option == nullptr) {
        outcome.checks.push_back({"option", "", std::nullopt, 0.0, false,
                                  missing_option_message(plan, thresholds.option)});
        return outcome;
    }
    outcome.option = *option;
    if (base != nullptr) {
        if (const PlanOption* same = find_option(*base, thresholds.option)) {
            outcome.base_option = *same;
        }
    }
    auto& checks = outcome.checks;
    PlanOption judged = *option;
    if (thresholds.percentile != 0) {
        if (!option->cost_p90 || !option->wall_p90_hours) {
            checks.push_back({"percentile", "", std::nullopt, 90.0, false,
                              fmt::format("{} has no confidence block for {}; make the plan with "
                                          "recommend --uncertainty",
                                          plan.source, option->id)});
            return outcome;
        }
        judged.total = *option->cost_p90;
        judged.wall_hours = *option->wall_p90_hours;
    }
    const std::size_t first = checks.size();
    check_workload(plan, thresholds, judged, checks);
    check_costs(plan, thresholds, judged, checks);
    check_limits(plan, thresholds, judged, checks);
    if (thresholds.percentile != 0) {
        for (std::size_t i = first; i < checks.size(); ++i) {
            checks[i].message = fmt::format("P{} {}", thresholds.percentile, checks[i].message);
        }
    }
    if (thresholds.max_increase && base != nullptr) {
        check_increase(outcome, plan, *base, thresholds, checks);
    }
    if (thresholds.max_catalog_age_days) {
        checks.push_back(check_catalog_age(plan, *option, *thresholds.max_catalog_age_days, today));
    }
    return outcome;
}

} // namespace gpuplan::gate
