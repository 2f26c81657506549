#include "cli/app.hpp"

#include "cli/catalog_cmd.hpp"
#include "cli/check_cmd.hpp"
#include "cli/cli_doc.hpp"
#include "cli/command_notes.hpp"
#include "cli/completion_values.hpp"
#include "cli/config.hpp"
#include "cli/config_cmd.hpp"
#include "cli/estimate_cmd.hpp"
#include "cli/exit_report.hpp"
#include "cli/feeds_cmd.hpp"
#include "cli/fleet_cmd.hpp"
#include "cli/global_options.hpp"
#include "cli/help_format.hpp"
#include "cli/logging.hpp"
#include "cli/output_writer.hpp"
#include "cli/parse_errors.hpp"
#include "cli/recommend_cmd.hpp"
#include "cli/report_cmd.hpp"
#include "cli/rules_cmd.hpp"
#include "cli/runs_cmd.hpp"
#include "cli/update_cmd.hpp"
#include "cli/workload_flags.hpp"
#include "detail/strings.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/limits.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <charconv>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

namespace {

// A check of a whole-number flag on its text, before CLI11 converts it (which clamps what
// overflows): digits only, at most `max`.
CLI::Validator whole_number(std::int64_t max) {
    return {[max](std::string& text) -> std::string {
                std::int64_t value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, error] = std::from_chars(text.data(), end, value);
                const bool digits = !text.empty() && text.front() != '-';
                if (!digits || error != std::errc() || stop != end || value > max) {
                    return fmt::format("expected a whole number from 0 to {}, got '{}'", max, text);
                }
                return {};
            },
            "N"};
}

void add_common_options(CLI::App& app, Parsed& parsed) {
    CommonOptions& c = parsed.common;
    app.add_option("--catalog", c.catalogs,
                   "Catalog file or folder to overlay on the embedded catalog (repeatable)")
        ->type_name("PATH")
        ->allow_extra_args(false);
    app.add_flag("--no-default-catalog", c.no_default_catalog, "Do not load the embedded catalog");
    app.add_option("--format", parsed.format_text,
                   "Output format: table, json or markdown (report: markdown or html; fleet: "
                   "also html)")
        ->type_name("FORMAT");
    app.add_option("-o,--output", c.output, "Write the output to FILE (atomically)")
        ->type_name("FILE")
        ->check(CLI::Validator(
            [](const std::string& value) {
                // Empty would mean standard output: a script's unset variable, not a request.
                return value.empty() ? std::string("expected a file name, got ''") : std::string();
            },
            "FILE"));
    app.add_option("--currency", c.currency, "Currency of money in the output (ISO 4217)")
        ->type_name("CODE");
    app.add_flag("-v,--verbose", parsed.verbose_count, "More log output on stderr (repeatable)");
    app.add_flag("-q,--quiet", parsed.quiet, "Only errors on stderr");
    app.add_option("--color", parsed.color,
                   "Colours: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always "
                   "or never")
        ->type_name("WHEN");
    app.add_flag("--no-color", parsed.no_color, "No colours: --color=never");
    app.add_flag("--wide", c.wide,
                 "Do not fit tables and text to the terminal width (default: the terminal's, "
                 "else COLUMNS, else 80)");
    app.add_option("--as-of", c.as_of,
                   "Date of the prices in CSV price feeds (default: each file's modification "
                   "date)")
        ->type_name("DATE");
    app.add_option("--max-catalog-age", c.max_catalog_age,
                   "Warn (recommend, catalog list) or fail (check) when prices are older than "
                   "this, e.g. 30d")
        ->type_name("DURATION");
    app.add_flag("--offline", c.offline,
                 "Leave out the price cache of 'gpuplan catalog update' (embedded prices only)");
    app.add_flag("--timestamp", parsed.timestamp,
                 "Add the time of the run (generated_at) to JSON and the report");
}

void add_catalog_commands(CLI::App& app, Parsed& parsed) {
    CLI::App* catalog = app.add_subcommand("catalog", "Inspect, check and extend the catalog");
    catalog->require_subcommand(1);

    auto list_options = std::make_shared<CatalogListOptions>();
    CLI::App* list = catalog->add_subcommand("list", "List GPU models and instance offers");
    list->add_option("--gpu", list_options->filter.gpus, "Only this GPU model (repeatable)")
        ->allow_extra_args(false);
    list->add_option("--provider", list_options->filter.providers,
                     "Only this provider (repeatable)")
        ->allow_extra_args(false);
    list->add_option("--region", list_options->filter.regions, "Only this region (repeatable)")
        ->allow_extra_args(false);
    list->add_option("--sort", list_options->sort,
                     "Row order: gpu (default), price (on-demand per GPU-hour, cheapest first) "
                     "or provider");
    list->callback([&parsed, list_options] {
        parsed.action = [&parsed, list_options](Io& io) {
            return run_catalog_list(parsed.common, *list_options, io);
        };
    });

    auto show_options = std::make_shared<CatalogShowOptions>();
    CLI::App* show =
        catalog->add_subcommand("show", "Show a GPU model, provider, instance type or build");
    show->add_option("NAME", show_options->name, "What to show")->required()->type_name("NAME");
    show->callback([&parsed, show_options] {
        parsed.action = [&parsed, show_options](Io& io) {
            return run_catalog_show(parsed.common, *show_options, io);
        };
    });

    auto validate_options = std::make_shared<CatalogValidateOptions>();
    CLI::App* validate = catalog->add_subcommand(
        "validate", "Check catalog files (default: the embedded catalog); exit 3 on problems");
    validate->add_option("PATH", validate_options->paths, "Catalog files or folders")
        ->type_name("PATH");
    validate->callback([&parsed, validate_options] {
        parsed.action = [&parsed, validate_options](Io& io) {
            return run_catalog_validate(parsed.common, *validate_options, io);
        };
    });

    auto audit_options = std::make_shared<CatalogAuditOptions>();
    CLI::App* audit = catalog->add_subcommand(
        "audit",
        "Check prices for spot above on-demand, outliers, resale and dates; exit 4 on errors");
    audit
        ->add_option("PATH", audit_options->paths,
                     "Catalog files or feeds whose added or changed rows to audit (default: all)")
        ->type_name("PATH");
    audit
        ->add_option("--today", audit_options->today,
                     "Date price ages are measured to (default: today, UTC)")
        ->type_name("DATE");
    audit->callback([&parsed, audit_options] {
        parsed.action = [&parsed, audit_options](Io& io) {
            return run_catalog_audit(parsed.common, *audit_options, io);
        };
    });
}

void add_check_commands(CLI::App& app, Parsed& parsed) {
    auto options = std::make_shared<CheckOptions>();
    CLI::App* check =
        app.add_subcommand("check", "CI gate: exit 0 when every threshold holds, 4 when one fails");
    check->add_option("PLAN", options->plan, "Plan file (recommend or fleet --format json)")
        ->required()
        ->type_name("PLAN.json|WORKLOAD.yaml");
    check->add_option("--max-cost", options->max_cost, "Limit on the option's total cost")
        ->type_name("AMOUNT");
    check
        ->add_option("--max-monthly", options->max_monthly,
                     "Limit on the option's largest monthly cash flow")
        ->type_name("AMOUNT");
    check
        ->add_option("--max-commitment", options->max_commitment,
                     "Limit on a fleet plan's committed money (terms' obligations, capex)")
        ->type_name("AMOUNT");
    check->add_option("--max-hours", options->max_hours, "Limit on the option's wall time")
        ->type_name("H");
    check
        ->add_option("--deadline", options->deadline,
                     "Deadline for the option's wall time (default: the workload's)")
        ->type_name("DURATION");
    check->add_option("--option", options->option, "Option to check: best (rank 1) or an id")
        ->type_name("best|ID");
    check->add_option("--compare-to", options->compare_to, "Baseline plan file")
        ->type_name("BASE.json");
    check
        ->add_option("--max-increase", options->max_increase,
                     "Limit on the cost increase over the baseline: 10% or an amount")
        ->type_name("PCT|AMOUNT");
    check
        ->add_option("--percentile", options->percentile,
                     "90: hold the cost and time limits at the plan's P90 (recommend "
                     "--uncertainty; a workload file is drawn with --seed 1)")
        ->type_name("90");
    check->add_option("--today", options->today, "Date ages are measured to (default: today, UTC)")
        ->type_name("YYYY-MM-DD");
    check->callback([&parsed, options] {
        parsed.action = [&parsed, options](Io& io) {
            return run_check(parsed.common, *options, io);
        };
    });
}

// Registers one workload flag on `command`, writing its value as typed into `overrides`.
void add_workload_flag(CLI::App* command, const WorkloadFlag& flag,
                       workload::WorkloadOverrides& overrides) {
    const std::string name(flag.name);
    const std::string help(flag.help);
    switch (flag.kind) {
    case FlagKind::text: {
        std::optional<std::string>& target = overrides.*flag.text;
        command
            ->add_option_function<std::string>(
                name, [&target](const std::string& value) { target = value; }, help)
            ->type_name(std::string(flag.type));
        return;
    }
    case FlagKind::list:
        command->add_option(name, overrides.*flag.list, help)
            ->type_name(std::string(flag.type))
            ->allow_extra_args(false);
        return;
    case FlagKind::toggle:
        command->add_flag_callback(
            name, [&overrides] { overrides.interruptible = true; }, help);
        return;
    case FlagKind::shared:
        return;
    }
}

// Workload flags shared by every command that takes a workload (design.md section 4).
void add_workload_options(CLI::App* command, WorkloadInput& input) {
    command->add_option("WORKLOAD", input.path, "Workload file (YAML)")->type_name("FILE");
    command->add_option("--preset", input.preset, "Bundled workload preset (see 'gpuplan presets')")
        ->type_name("NAME");
    for (const WorkloadFlag& flag : workload_flags()) {
        add_workload_flag(command, flag, input.overrides);
    }
}

// --calibration FILE: speed factors from `gpuplan calibrate` (docs/runs-format.md).
void add_calibration_option(CLI::App* command, Parsed& parsed) {
    command
        ->add_option("--calibration", parsed.common.calibration,
                     "Scale the estimator's speed by the factors of a calibration file "
                     "(gpuplan calibrate)")
        ->type_name("FILE");
}

void add_estimate_commands(CLI::App& app, Parsed& parsed) {
    auto options = std::make_shared<EstimateOptions>();
    CLI::App* estimate =
        app.add_subcommand("estimate", "Time, memory and GPU count per GPU type, no prices");
    add_workload_options(estimate, options->input);
    add_calibration_option(estimate, parsed);
    estimate->callback([&parsed, options] {
        parsed.action = [&parsed, options](Io& io) {
            return run_estimate(parsed.common, *options, io);
        };
    });
    CLI::App* presets = app.add_subcommand("presets", "List bundled workload presets");
    presets->callback([&parsed] {
        parsed.action = [&parsed](Io& io) { return run_presets(parsed.common, io); };
    });
}

// Cost-engine flags of recommend and tco (docs/cli.md).
void add_cost_options(CLI::App* command, CostFlags& flags) {
    command
        ->add_option("--discount", flags.discounts,
                     "Negotiated discount on every charge of a provider, PROVIDER=FRACTION "
                     "(aws=15%; repeatable)")
        ->type_name("PROVIDER=FRACTION");
    command
        ->add_option_function<std::string>(
            "--interruption-rate",
            [&flags](const std::string& value) { flags.interruption_rate = value; },
            "Spot interruptions per node-hour for every offer (overrides the catalog)")
        ->type_name("RATE");
    command
        ->add_option_function<std::string>(
            "--checkpoint-gb-per-s",
            [&flags](const std::string& value) { flags.checkpoint_gb_per_s = value; },
            "Checkpoint write bandwidth per node, GB/s (default 1)")
        ->type_name("GB/S");
    command
        ->add_option_function<std::string>(
            "--storage-price", [&flags](const std::string& value) { flags.storage_price = value; },
            "Cloud storage, USD per GB-month (default 0.023)")
        ->type_name("USD");
    command->add_flag("--bridge", flags.bridge,
                      "Also price self-built bridged on cloud on-demand during the lead time");
    command
        ->add_option("--simulate", flags.simulate,
                     "Monte Carlo samples for spot (P50/P90), at most 100000")
        ->type_name("N")
        ->check(CLI::Range(0, static_cast<int>(limits::k_max_simulate_samples)));
    command->add_option("--seed", flags.seed, "Monte Carlo seed (default 1)")
        ->type_name("N")
        ->check(whole_number(std::numeric_limits<std::int64_t>::max()));
}

// The decision-confidence flags of recommend, report and check (docs/cli.md).
void add_uncertainty_options(CLI::App* command, RecommendOptions& options) {
    command->add_flag("--uncertainty", options.uncertainty,
                      "Monte Carlo over the uncertain inputs: P(best), P50/P90 cost and wall "
                      "time per option, and where the top two swap (seeded by --seed)");
    command
        ->add_option("--draws", options.draws,
                     fmt::format("Draws of --uncertainty (default {}, at most {})",
                                 recommend::k_default_draws, recommend::k_max_draws))
        ->type_name("N");
}

void add_recommend_command(CLI::App& app, Parsed& parsed) {
    auto recommend_options = std::make_shared<RecommendOptions>();
    CLI::App* recommend =
        app.add_subcommand("recommend", "Rank every feasible way to run a workload by NPV");
    add_workload_options(recommend, recommend_options->input);
    add_calibration_option(recommend, parsed);
    add_cost_options(recommend, recommend_options->cost);
    recommend
        ->add_option("--objective", recommend_options->objective,
                     "Ranking: cost (lowest NPV, default), time or balanced")
        ->type_name("OBJECTIVE");
    recommend->add_option("--top", recommend_options->top, "Options shown (default 10; 0 = all)")
        ->type_name("N");
    recommend->add_flag("--expand-regions", recommend_options->expand_regions,
                        "One row per option: do not group identical offers in several regions");
    recommend->add_flag("--accept-soft", recommend_options->accept_soft,
                        "Rank soft answers (undated or outlier prices, derived commitments, "
                        "marketplace capacity, quotes) among the firm ones");
    recommend
        ->add_option("--rules", recommend_options->rules.file,
                     "Use this decision tree instead of the shipped one")
        ->type_name("FILE");
    recommend->add_flag("--no-rules", recommend_options->rules.none,
                        "Rank without the decision tree");
    recommend->add_flag("--explain", recommend_options->rules.explain,
                        "Price the options the rules exclude, list every rejected option and "
                        "print the full decision trace");
    recommend->add_flag("--fail-if-none", recommend_options->fail_if_none,
                        "Exit 4 when no option is feasible");
    recommend->add_flag("--details", recommend_options->details,
                        "After the first screen: every table, the rejected options, the "
                        "assumptions and the rules");
    recommend
        ->add_option("--emit", recommend_options->emit,
                     "Also write a launch file for option 1 (or --option): KIND is skypilot, "
                     "dstack or dstack-fleet (repeatable)")
        ->type_size(2)
        ->type_name("KIND FILE");
    recommend
        ->add_option("--option", recommend_options->option,
                     "The option --emit writes: a row number of the table or an option id")
        ->type_name("N|ID");
    add_uncertainty_options(recommend, *recommend_options);
    recommend->callback([&parsed, recommend_options] {
        parsed.action = [&parsed, recommend_options](Io& io) {
            return run_recommend(parsed.common, *recommend_options, io);
        };
    });
}

void add_report_command(CLI::App& app, Parsed& parsed) {
    auto report_options = std::make_shared<ReportOptions>();
    CLI::App* report_command =
        app.add_subcommand("report", "Full markdown report of a recommendation, with a chart");
    add_workload_options(report_command, report_options->recommend.input);
    add_calibration_option(report_command, parsed);
    add_cost_options(report_command, report_options->recommend.cost);
    report_command
        ->add_option("--objective", report_options->recommend.objective,
                     "Rank by cost, time or balanced")
        ->type_name("OBJECTIVE");
    report_command->add_flag(
        "--expand-regions", report_options->recommend.expand_regions,
        "One row per option: do not group identical offers in several regions");
    report_command->add_flag("--accept-soft", report_options->recommend.accept_soft,
                             "Rank soft answers among the firm ones");
    add_uncertainty_options(report_command, report_options->recommend);
    report_command
        ->add_option("--chart", report_options->chart,
                     "Also write the cumulative-cost chart as a standalone SVG")
        ->type_name("FILE.svg");
    report_command->callback([&parsed, report_options] {
        parsed.action = [&parsed, report_options](Io& io) {
            return run_report(parsed.common, *report_options, io);
        };
    });
}

void add_fleet_command(CLI::App& app, Parsed& parsed) {
    auto fleet_options = std::make_shared<FleetOptions>();
    CLI::App* fleet = app.add_subcommand(
        "fleet", "What to commit to (reservations, subscriptions, owned servers) for a portfolio");
    fleet->add_option("PORTFOLIO", fleet_options->portfolio, "Portfolio file (YAML)")
        ->required()
        ->type_name("PORTFOLIO.yaml");
    fleet
        ->add_option("--chart", fleet_options->chart,
                     "Also write the demand-against-capacity chart as a standalone SVG")
        ->type_name("FILE.svg");
    add_calibration_option(fleet, parsed);
    fleet->add_flag("--accept-soft", fleet_options->accept_soft,
                    "Also commit to soft offers: derived or unsold commitment terms, servers "
                    "bought on a quote");
    fleet
        ->add_option("--solver-time", fleet_options->solver_seconds,
                     fmt::format("Wall time the solver may take for the whole run, then the best "
                                 "plan found with its proven gap (seconds, default {})",
                                 fleet::k_default_solver_seconds))
        ->type_name("SECONDS")
        ->check(CLI::Validator(
            [](const std::string& text) {
                return parse_solver_seconds(text)
                           ? std::string()
                           : fmt::format("expected seconds above 0 and at most {}, got '{}'",
                                         fleet::k_max_solver_seconds, text);
            },
            ""));
    fleet->callback([&parsed, fleet_options] {
        parsed.action = [&parsed, fleet_options](Io& io) {
            return run_fleet(parsed.common, *fleet_options, io);
        };
    });
}

// The --max-median-error gate's value: a fraction from 0 to 10.
std::string check_fraction(const std::string& text) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    constexpr double k_max_error = 10.0;
    if (error != std::errc() || end != text.data() + text.size() || value < 0.0 ||
        value > k_max_error) {
        return fmt::format("expected a fraction from 0 to 10 (0.15 = 15 %), got '{}'", text);
    }
    return {};
}

void add_runs_commands(CLI::App& app, Parsed& parsed) {
    auto validate_options = std::make_shared<ValidateOptions>();
    CLI::App* validate = app.add_subcommand(
        "validate", "Compare measured runs with the estimator: per-run error and its summary");
    validate->add_option("RUNS", validate_options->runs, "Runs file (YAML, docs/runs-format.md)")
        ->required()
        ->type_name("RUNS.yaml");
    add_calibration_option(validate, parsed);
    validate
        ->add_option("--max-median-error", validate_options->max_median_error,
                     "Exit 4 when the median |error| is above this fraction (CI gate)")
        ->type_name("FRACTION")
        ->check(CLI::Validator(check_fraction, ""));
    validate->callback([&parsed, validate_options] {
        parsed.action = [&parsed, validate_options](Io& io) {
            return run_validate(parsed.common, *validate_options, io);
        };
    });
    auto calibrate_options = std::make_shared<CalibrateOptions>();
    CLI::App* calibrate = app.add_subcommand(
        "calibrate", "Fit speed factors from measured runs into a calibration file (-o FILE)");
    calibrate->add_option("RUNS", calibrate_options->runs, "Runs file (YAML)")
        ->required()
        ->type_name("RUNS.yaml");
    calibrate->callback([&parsed, calibrate_options] {
        parsed.action = [&parsed, calibrate_options](Io& io) {
            return run_calibrate(parsed.common, *calibrate_options, io);
        };
    });
    auto import_options = std::make_shared<ImportOptions>();
    CLI::App* runs_command = app.add_subcommand("runs", "Work with runs files");
    runs_command->require_subcommand(1);
    CLI::App* import =
        runs_command->add_subcommand("import", "Append runs read from a benchmark tool's result "
                                               "file to the runs file -o (stdout: a new one)");
    import
        ->add_option("--from", import_options->from,
                     "The result file's tool: vllm, genai-perf, aiperf, mlperf or csv")
        ->required()
        ->type_name("TOOL")
        ->check(CLI::IsMember({"vllm", "genai-perf", "aiperf", "mlperf", "csv"}));
    import->add_option("FILE", import_options->file, "The result file")
        ->required()
        ->type_name("FILE");
    import
        ->add_option("--workload", import_options->workload,
                     "Workload file each run names (relative to the runs file)")
        ->type_name("WORKLOAD.yaml");
    import->add_option("--gpu", import_options->gpu, "GPU model the runs ran on")->type_name("GPU");
    import->add_option("--gpu-count", import_options->gpu_count, "GPUs the runs ran on")
        ->type_name("N");
    import->add_option("--engine", import_options->engine, "Serving or training engine")
        ->type_name("NAME");
    import->add_option("--name", import_options->name, "Run name (default: from the file)")
        ->type_name("NAME");
    import
        ->add_option("--source", import_options->source,
                     "Where the results come from (default: the file's name)")
        ->type_name("TEXT");
    import->callback([&parsed, import_options] {
        parsed.action = [&parsed, import_options](Io& io) {
            return run_runs_import(parsed.common, *import_options, io);
};
} // namespace
);
} // namespace gpuplan::cli

void add_tco_command(CLI::App& app, Parsed& parsed) {
    auto tco_options = std::make_shared<TcoOptions>();
    CLI::App* tco = app.add_subcommand(
        "tco", "Month-by-month cash flows and NPV of each purchase option for one configuration");
    add_workload_options(tco, tco_options->input);
    add_cost_options(tco, tco_options->cost);
    tco->callback([&parsed, tco_options] {
        parsed.action = [&parsed, tco_options](Io& io) {
            return run_tco(parsed.common, *tco_options, io);
        };
    });
}

void add_rules_commands(CLI::App& app, Parsed& parsed) {
    CLI::App* rules =
        app.add_subcommand("rules", "Show, check and apply the decision tree (rules of thumb)");
    rules->require_subcommand(1);

    auto show_options = std::make_shared<RulesShowOptions>();
    CLI::App* show = rules->add_subcommand("show", "Print the decision tree");
    show->add_option("--rules", show_options->rules, "Show this tree instead of the shipped one")
        ->type_name("FILE");
    show->callback([&parsed, show_options] {
        parsed.action = [&parsed, show_options](Io& io) {
            return run_rules_show(parsed.common, *show_options, io);
        };
    });

    auto check_options = std::make_shared<RulesCheckOptions>();
    CLI::App* check =
        rules->add_subcommand("check", "Validate a decision tree file; exit 3 on problems");
    check->add_option("FILE", check_options->path, "Decision tree YAML")
        ->required()
        ->type_name("FILE");
    check->callback([&parsed, check_options] {
        parsed.action = [&parsed, check_options](Io& io) {
            return run_rules_check(parsed.common, *check_options, io);
        };
    });

    auto explain_options = std::make_shared<RulesExplainOptions>();
    CLI::App* explain = rules->add_subcommand(
        "explain", "Print a workload's facts, the path through the tree and the decision");
    add_workload_options(explain, explain_options->input);
    explain
        ->add_option("--rules", explain_options->rules, "Use this tree instead of the shipped one")
        ->type_name("FILE");
    explain
        ->add_option("--fact", explain_options->facts,
                     "Override a fact, NAME=VALUE; NAME= makes it unknown (repeatable)")
        ->type_name("NAME=VALUE")
        ->allow_extra_args(false);
    explain->callback([&parsed, explain_options] {
        parsed.action = [&parsed, explain_options](Io& io) {
            return run_rules_explain(parsed.common, *explain_options, io);
        };
    });
}

void add_feed_commands(CLI::App& app, Parsed& parsed) {
    CLI::App* catalog = app.get_subcommand("catalog");

    auto import_options = std::make_shared<CatalogImportOptions>();
    CLI::App* import_command = catalog->add_subcommand(
        "import", "Read price feeds (SkyPilot vms.csv) and write catalog YAML");
    import_command->add_option("--from", import_options->from, "Feed layout: skypilot")
        ->type_name("LAYOUT");
    import_command
        ->add_option("--provider", import_options->provider,
                     "Provider of every file (default: from the file name or its columns)")
        ->type_name("NAME");
    import_command->add_flag("--undated", import_options->undated,
                             "The snapshots carry no date of their own: --as-of (or the file "
                             "date) is when they were read; mark their source undated");
    import_command->add_option("FILE", import_options->files, "Feed files (.csv)")
        ->required()
        ->type_name("FILE");
    import_command->callback([&parsed, import_options] {
        parsed.action = [&parsed, import_options](Io& io) {
            return run_catalog_import(parsed.common, *import_options, io);
        };
    });

    auto update_options = std::make_shared<CatalogUpdateOptions>();
    CLI::App* update = catalog->add_subcommand(
        "update", "Download current price feeds (SkyPilot vms.csv) into the price cache");
    update
        ->add_option("--source", update_options->source,
                     "Root URL laid out as BASE/<cloud>/vms.csv (default: the public SkyPilot "
                     "catalog)")
        ->type_name("BASE");
    update->add_option("--cloud", update_options->clouds, "Only this cloud (repeatable)")
        ->type_name("NAME")
        ->allow_extra_args(false);
    update
        ->add_option("--timeout", update_options->timeout_seconds,
                     "Give up on a file when connecting or waiting for data takes longer "
                     "(seconds, default 30)")
        ->type_name("SECONDS")
        ->check(whole_number(k_max_update_timeout_seconds));
    update->callback([&parsed, update_options] {
        parsed.action = [&parsed, update_options](Io& io) {
            return run_catalog_update(parsed.common, *update_options, io);
        };
    });

    auto diff_options = std::make_shared<CatalogDiffOptions>();
    CLI::App* diff = catalog->add_subcommand(
        "diff", "Show price changes from catalog A to catalog B (files, folders or feeds)");
    diff->add_option("A", diff_options->a, "The earlier catalog")->required()->type_name("PATH");
    diff->add_option("B", diff_options->b, "The later catalog")->required()->type_name("PATH");
    diff->callback([&parsed, diff_options] {
        parsed.action = [&parsed, diff_options](Io& io) {
            return run_catalog_diff(parsed.common, *diff_options, io);
        };
    });
}

std::string path_of(const CLI::App& command) {
    std::string path;
    for (const CLI::App* at = &command; at->get_parent() != nullptr; at = at->get_parent()) {
        path.insert(0, path.empty() ? at->get_name() : at->get_name() + ' ');
    }
    return path;
}

// The help of every command ends with its global options and two examples.
void add_footers(CLI::App& command) {
    for (CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
        if (std::optional<std::string> footer = help_footer(path_of(*sub))) {
            sub->footer(*footer);
        }
        add_footers(*sub);
    }
}

OptionDoc describe_option(const CLI::Option& option) {
    OptionDoc doc;
    for (const std::string& name : option.get_snames()) {
        doc.names.push_back("-" + name);
    }
    for (const std::string& name : option.get_lnames()) {
        doc.names.push_back("--" + name);
    }
    if (option.get_items_expected_max() > 0) {
        doc.value = option.get_type_name();
        if (doc.value.empty()) {
            doc.value = option.get_name();
        }
    }
    doc.description = option.get_description();
    return doc;
}

// The command line as values, hidden commands and options left out (cli_doc.hpp).
CommandDoc describe(const CLI::App& command) {
    CommandDoc doc;
    doc.path = path_of(command);
    doc.description = command.get_description();
    const bool root = command.get_parent() == nullptr;
    for (const CLI::Option* option : command.get_options()) {
        if (option->get_group().empty() || (!root && option == command.get_help_ptr())) {
            continue;
        }
        OptionDoc described = describe_option(*option);
        if (!described.value.empty() && !described.names.empty()) {
            described.values = option_values(doc.path, described.names.back());
        }
        (described.names.empty() ? doc.positionals : doc.options).push_back(std::move(described));
    }
    for (const CLI::App* sub :
         command.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
        doc.subcommands.push_back(describe(*sub));
    }
    if (std::optional<CommandNotes> notes = command_notes(doc.path)) {
        doc.globals = std::move(notes->globals);
        doc.examples = std::move(notes->examples);
    }
    return doc;
}

void add_config_commands(CLI::App& app, Parsed& parsed) {
    CLI::App* config =
        app.add_subcommand("config", "Show the settings of the configuration file and GPUPLAN_*");
    config->require_subcommand(1);
    CLI::App* show =
        config->add_subcommand("show", "Print the resolved settings and where each came from");
    show->callback([&parsed] {
        parsed.action = [&parsed](Io& io) { return run_config_show(parsed.common, io); };
    });
}

// The hidden generators of the man page and the completions (docs/install.md).
void add_doc_commands(CLI::App& app, Parsed& parsed) {
    auto shell = std::make_shared<std::string>();
    CLI::App* completions =
        app.add_subcommand("completions", "Print a completion script: bash, zsh or fish");
    completions->group("");
    completions->add_option("SHELL", *shell, "bash, zsh or fish")->required()->type_name("SHELL");
    completions->callback([&parsed, &app, shell] {
        parsed.reads_settings = false;
        parsed.action = [&parsed, &app, shell](Io& io) {
            auto script = render_completion(describe(app), *shell);
            if (!script) {
                throw UsageError("completions: expected bash, zsh or fish, got '" + *shell + "'");
            }
            write_output(parsed.common, *script, io);
            return Exit::ok;
        };
    });
    CLI::App* man = app.add_subcommand("man", "Print the gpuplan(1) man page (roff)");
    man->group("");
    man->callback([&parsed, &app] {
        parsed.reads_settings = false;
        parsed.action = [&parsed, &app](Io& io) {
            write_output(parsed.common, render_man_page(describe(app), GPUPLAN_VERSION), io);
            return Exit::ok;
        };
    });
}

// Adds the commands. CLI11 builds every option eagerly, a large share of a short run's start-up,
// so when the first word names a command only that command's group is built: what the run can
// reach is the same, and help and errors of other words see every command.
void add_commands(CLI::App& app, Parsed& parsed, std::string_view first) {
    using Adder = void (*)(CLI::App&, Parsed&);
    struct Group {
        std::string_view command;
        std::array<Adder, 2> adders;
    };
    static constexpr std::array<Group, 13> k_groups{{
        {"config", {add_config_commands, nullptr}},
        {"catalog", {add_catalog_commands, add_feed_commands}},
        {"check", {add_check_commands, nullptr}},
        {"estimate", {add_estimate_commands, nullptr}},
        {"fleet", {add_fleet_command, nullptr}},
        {"presets", {add_estimate_commands, nullptr}},
        {"recommend", {add_recommend_command, nullptr}},
        {"report", {add_report_command, nullptr}},
        {"tco", {add_tco_command, nullptr}},
        {"rules", {add_rules_commands, nullptr}},
        {"validate", {add_runs_commands, nullptr}},
        {"calibrate", {add_runs_commands, nullptr}},
        {"runs", {add_runs_commands, nullptr}},
    }};
    for (const Group& group : k_groups) {
        if (group.command == first) {
            for (Adder add : group.adders) {
                if (add != nullptr) {
                    add(app, parsed);
                }
            }
            return;
        }
    }
    add_catalog_commands(app, parsed);
    add_feed_commands(app, parsed);
    add_check_commands(app, parsed);
    add_estimate_commands(app, parsed);
    add_fleet_command(app, parsed);
    add_recommend_command(app, parsed);
    add_report_command(app, parsed);
    add_tco_command(app, parsed);
    add_rules_commands(app, parsed);
    add_runs_commands(app, parsed);
    add_config_commands(app, parsed);
    add_doc_commands(app, parsed);
}

} // namespace

namespace {

// The command tree as parse_errors.hpp reads it.
CommandShape shape_of(const CLI::App& command) {
    CommandShape shape{command.get_name(), !command.get_group().empty(), {}, {}};
    for (const CLI::Option* option : command.get_options()) {
        for (const std::string& name : option->get_lnames()) {
            shape.option_names.push_back("--" + name);
        }
        for (const std::string& name : option->get_snames()) {
            shape.option_names.push_back("-" + name);
        }
    }
    for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
        shape.subcommands.push_back(shape_of(*sub));
    }
    return shape;
}

// gpuplan's own wording of a CLI11 parse error, most specific first.
std::string parse_error_message(const CLI::App& app, const std::vector<std::string>& args,
                                const CLI::ParseError& e) {
    const CommandShape shape = shape_of(app);
    if (auto typo = command_typo(shape, args)) {
        return *typo;
    }
    if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
        if (auto conversion = conversion_message(e.what())) {
            return *conversion;
        }
    }
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
        if (auto flag = unknown_flag(shape, args)) {
            return *flag;
        }
    }
    return e.what();
}

// Parses `args` into what `app` binds; the exit code when the run ends there (help, version or
// a parse error, reported in gpuplan's words), nullopt when a command is to run. Help is fitted
// to the width the run's --wide and terminal give (`help`, the formatter `app` shares).
std::optional<int> parse_command_line(CLI::App& app, const std::vector<std::string>& args, Io& io,
                                      FittedFormatter& help, const bool& wide) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        help.set_width(output_width(wide, io));
        return write_text(io, app.help());
    } catch (const CLI::CallForAllHelp&) {
        help.set_width(output_width(wide, io));
        return write_text(io, app.help("", CLI::AppFormatMode::All));
    } catch (const CLI::CallForVersion& e) {
        return write_text(io, std::string(e.what()) + '\n');
    } catch (const CLI::ParseError& e) {
        return report_error(io, Exit::usage,
                            "gpuplan: error: " + parse_error_message(app, args, e) +
                                "\nRun 'gpuplan --help' for usage.");
    }
    return std::nullopt;
}

} // namespace

int run(const std::vector<std::string>& args_given, Io& io) {
    // `gpuplan help [COMMAND]` and `gpuplan version` are the words users try first.
    std::vector<std::string> args = args_given;
    if (!args.empty() && args.front() == "help") {
        args.erase(args.begin());
        args.emplace_back("--help");
    } else if (args.size() == 1 && args.front() == "version") {
        args.front() = "--version";
    }
    Parsed parsed;
    CLI::App app{"gpuplan: plan where to run a deep-learning job and what it will cost", "gpuplan"};
    app.set_version_flag("--version", std::string("gpuplan ") + GPUPLAN_VERSION);
    app.fallthrough();
    app.require_subcommand(1);
    // Set before any command is added: each subcommand shares its parent's formatter.
    auto help = std::make_shared<FittedFormatter>();
    app.formatter(help);
    add_common_options(app, parsed);
    add_commands(app, parsed, args.empty() ? std::string_view() : std::string_view(args.front()));
    add_footers(app);
    if (const std::optional<int> code =
            parse_command_line(app, args, io, *help, parsed.common.wide)) {
        return *code;
    }

    resolve_common(parsed, io);
    parsed.common.command_line = shell_command(args_given);
    set_up_logging(io, parsed.common.verbosity);
    try {
        apply_settings(parsed, io);
        resolve_output(parsed, app.get_subcommands().empty()
                                   ? std::string_view()
                                   : std::string_view(app.get_subcommands().front()->get_name()));
        if (!parsed.action) {
            throw UsageError("no command given; run 'gpuplan --help'");
        }
        const Exit code = parsed.action(io);
        flush_stream(io.out); // lines written straight to io.out ("ok: ...", summaries)
        return static_cast<int>(code);
    } catch (const InputError& e) {
        return report_diagnostics(io, e);
    } catch (const UsageError& e) {
        return report_error(io, Exit::usage, std::string("gpuplan: error: ") + e.what());
    } catch (const RuntimeError& e) {
        return report_error(io, Exit::runtime, e.what());
    } catch (const std::exception& e) {
        return report_error(io, Exit::runtime, std::string("gpuplan: internal error: ") + e.what());
    }
}

} // namespace gpuplan::cli
