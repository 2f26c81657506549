#include "cli/check_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "cli/input_file.hpp"
#include "cli/recommend_cmd.hpp"
#include "detail/strings.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/gate/gate.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/recommend/check_plan.hpp"
#include "gpuplan/report/check_view.hpp"
#include "gpuplan/report/escape.hpp"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

namespace {

std::optional<double> money_flag(const std::optional<std::string>& text, const char* flag,
                                 const std::string& currency) {
    if (!text) {
        return std::nullopt;
    }
    const auto money = parse_money(*text, currency);
    if (!money || money->amount < 0.0 || money->amount > limits::k_max_money) {
        throw UsageError(fmt::format("{}: expected an amount up to 1e18 such as 250000 or 250000 "
                                     "{}, got '{}'",
                                     flag, currency, *text));
    }
    if (money->currency != currency) {
        throw UsageError(
            fmt::format("{}: the plan's amounts are in {}, got '{}'", flag, currency, *text));
    }
    return money->amount;
}

std::optional<double> duration_flag(const std::optional<std::string>& text, const char* flag) {
    if (!text) {
        return std::nullopt;
    }
    const auto hours = parse_duration_hours(*text);
    if (!hours || *hours < 0.0 || *hours > limits::k_max_hours) {
        throw UsageError(
            fmt::format("{}: expected a duration such as 72 (hours), 12h, 30d, 6w or 3mo, got '{}'",
                        flag, *text));
    }
    return hours;
}

bool is_workload_path(const std::string& path) {
    const auto ends_with = [&](std::string_view suffix) {
        return path.size() >= suffix.size() &&
               path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends_with(".yaml") || ends_with(".yml");
}

// A plan file as written, or a workload file recommended in process (every option ranked, so
// --option can name any of them, and priced at larger GPU counts when it names one, ID@N); both
// go through the same reader.
gate::Plan load_plan(const std::string& path, const CommonOptions& common,
                     const catalog::Catalog& catalog, const Io& io, const std::string& selector,
                     bool uncertainty) {
    if (is_workload_path(path)) {
        RecommendOptions options;
        options.input.path = path;
        options.top = 0;
        options.uncertainty = uncertainty;
        if (selector.find('@') != std::string::npos) {
            options.counts = cost::GpuCounts::larger;
        }
        return recommend::check_plan(make_recommendation(common, options, catalog, io), path);
    }
    const TextFile file = read_text_file(path, limits::k_max_plan_bytes);
    gate::Plan plan = gate::read_plan(file.name, file.text);
    // Amounts in a currency the catalog cannot convert cannot be gated against a threshold.
    const std::vector<std::string> known = catalog::currencies(catalog);
    if (std::find(known.begin(), known.end(), plan.currency) == known.end()) {
        const std::vector<std::string_view> views(known.begin(), known.end());
        const std::string hint = detail::closest_match(plan.currency, views);
        throw InputError(
            {{file.name, 0, 0, "/currency",
              fmt::format("unknown currency '{}'{}; the catalog converts {}", plan.currency,
                          hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint),
                          fmt::join(known, ", "))}});
    }
    return plan;
}

// --option names an option of the plan: a ranked or rejected id, or best. Any other id is a
// usage error with the closest id, not a failed gate.
void check_option_exists(const gate::Plan& plan, const std::string& selector) {
    std::vector<std::string_view> ids{"best"};
    ids.reserve(plan.options.size() + plan.rejected.size() + 1);
    for (const gate::PlanOption& option : plan.options) {
        ids.emplace_back(option.id);
    }
    for (const gate::PlanRejection& rejection : plan.rejected) {
        ids.emplace_back(rejection.id);
    }
    if (std::find(ids.begin(), ids.end(), selector) != ids.end()) {
        return;
    }
    const std::string hint = detail::closest_match(selector, ids);
    std::string help = fmt::format("; did you mean '{}'?", hint);
    if (hint.empty()) {
        help = fmt::format(
            " ({} ranked{}, {} rejected)", plan.options.size(),
            plan.options.empty() ? "" : fmt::format(", the best '{}'", plan.options.front().id),
            plan.rejected.size());
    }
    throw UsageError(fmt::format("--option: {} has no option '{}'{}", plan.source, selector, help));
}

gate::Thresholds thresholds_from(const CommonOptions& common, const CheckOptions& options,
                                 const gate::Plan& plan) {
    gate::Thresholds t;
    t.max_cost = money_flag(options.max_cost, "--max-cost", plan.currency);
    t.max_monthly = money_flag(options.max_monthly, "--max-monthly", plan.currency);
    t.max_commitment = money_flag(options.max_commitment, "--max-commitment", plan.currency);
    if (t.max_commitment && !plan.fleet) {
        throw UsageError(
            "--max-commitment applies to a fleet plan (`gpuplan fleet --format json`); "
            "a recommend plan commits to nothing beyond its total (--max-cost)");
    }
    t.max_hours = duration_flag(options.max_hours, "--max-hours");
    t.deadline_hours = duration_flag(options.deadline, "--deadline");
    if (plan.fleet && (t.max_monthly || t.max_hours || t.deadline_hours)) {
        throw UsageError("--max-monthly, --max-hours and --deadline do not apply to a fleet plan "
                         "(it has no monthly cash flows or wall time); check its NPV with "
                         "--max-cost and its commitments with --max-commitment");
    }
    t.option = options.option;
    t.percentile = options.percentile;
    if (t.percentile != 0 && plan.fleet) {
        throw UsageError("--percentile applies to a recommend plan; a fleet plan has no "
                         "confidence block");
    }
    if (options.max_increase) {
        if (!options.compare_to) {
            throw UsageError("--max-increase needs --compare-to BASE.json");
        }
        t.max_increase = gate::parse_increase_limit(*options.max_increase);
        if (!t.max_increase) {
            throw UsageError(fmt::format(
                "--max-increase: expected a percentage such as 10% or an amount such as 5000, "
                "got '{}'",
                *options.max_increase));
        }
    } else if (options.compare_to) {
        throw UsageError("--compare-to needs --max-increase (a percentage or an amount)");
    }
    const std::optional<std::string> max_age =
        common.max_catalog_age.empty() ? std::nullopt : std::optional(common.max_catalog_age);
    if (auto age = duration_flag(max_age, "--max-catalog-age")) {
        t.max_catalog_age_days = *age / k_hours_per_day;
    }
    return t;
}

} // namespace

Exit run_check(const CommonOptions& common, const CheckOptions& options, Io& io) {
    const Date today = cli::today(io, options.today);
    const catalog::Catalog catalog = load_catalog(common);
    if (options.percentile != 0 && options.percentile != 90) {
        throw UsageError(fmt::format("--percentile: expected 90 (the confidence block's P90), "
                                     "got {}",
                                     options.percentile));
    }
    const bool uncertainty = options.percentile != 0;
    const gate::Plan plan =
        load_plan(options.plan, common, catalog, io, options.option, uncertainty);
    check_option_exists(plan, options.option);
    const gate::Thresholds thresholds = thresholds_from(common, options, plan);
    std::optional<gate::Plan> base;
    if (options.compare_to) {
        base = load_plan(*options.compare_to, common, catalog, io, options.option, uncertainty);
        if (base->fleet != plan.fleet) {
            throw UsageError("--compare-to: compare a fleet plan with a fleet plan and a recommend "
                             "plan with a recommend plan");
        }
        if (base->currency != plan.currency) {
            throw InputError({{base->source, 0, 0, "/currency",
                               fmt::format("the baseline is in {} and {} in {}; compare plans "
                                           "made with the same --currency",
                                           base->currency, plan.source, plan.currency)}});
        }
    }
    if (!gate::has_thresholds(plan, thresholds)) {
        throw UsageError(
            "nothing to check: give --max-cost, --max-monthly, --max-commitment, --max-hours, "
            "--deadline, --max-increase or --max-catalog-age, or a plan whose "
            "workload has a deadline or budget");
    }
    const gate::Outcome outcome = gate::evaluate(plan, thresholds, base ? &*base : nullptr,
                                                 "fnv1a64:" + catalog.digest, today);
    const report::CheckView view{plan, base ? &*base : nullptr, outcome, use_colour(common, io),
                                 common.width};
    write_output(common, report::render_check(view, common.format, generator_info(common)), io);
    if (common.verbosity >= 0) {
        for (const std::string& note : outcome.notes) {
            io.err << "gpuplan: note: " << report::escape_control(note) << '\n';
        }
    }
    for (const gate::Check& check : outcome.checks) {
        if (!check.passed) {
            io.err << "gpuplan: check failed: " << check.name << ": "
                   << report::escape_control(check.message) << '\n';
        }
    }
    io.err.flush();
    return outcome.passed() ? Exit::ok : Exit::gate_failed;
}

} // namespace gpuplan::cli
