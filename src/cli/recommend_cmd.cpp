#include "cli/recommend_cmd.hpp"

#include "cli/rules_cmd.hpp"
#include "gpuplan/cost/rules.hpp"
#include "gpuplan/decide/decide.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/report/recommend.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <spdlog/spdlog.h>

namespace gpuplan::cli {

namespace {

double positive_number(const std::string& flag, const std::string& text) {
    const auto value = parse_number(text);
    if (!value || *value <= 0.0) {
        throw UsageError(fmt::format("{}: expected a positive number, got '{}'", flag, text));
    }
    return *value;
}

cost::Estimator estimator_for(const workload::Workload& workload, const catalog::Catalog& catalog) {
    return [&workload, &catalog](const catalog::Gpu& gpu, const estimate::NodeShape& shape,
                                 std::optional<int> count) {
        return estimate::estimate(workload, gpu, shape, count, catalog);
    };
}

// Walks the decision tree for the workload and applies its verdict to the plan; the only place
// recommend meets the rules. Returns the tree's file name.
std::string apply_rules(const RulesChoice& rules, const workload::Workload& workload,
                        const catalog::Catalog& catalog, const cost::Settings& settings,
                        cost::Plan& plan, std::optional<decide::Decision>& decision) {
    const decide::Tree tree = load_tree(rules.file, catalog);
    const std::vector<estimate::GpuEstimate> estimates = estimate::estimate_all(workload, catalog);
    decision =
        decide::decide(tree, decide::make_facts(workload, estimates, catalog, settings.currency));
    cost::apply_decision(plan, *decision,
                         rules.explain ? cost::ExcludedOptions::keep : cost::ExcludedOptions::drop);
    spdlog::info("decision tree {}: {} steps, {} GPU models excluded", tree.file,
                 decision->trace.size(), decision->excluded_gpus.size());
    return tree.file;
}

} // namespace

cost::Plan plan_for(const RecommendOptions& options, const workload::Workload& workload,
                    const catalog::Catalog& catalog, const cost::Settings& settings) {
    cost::Plan plan = cost::plan(workload, catalog, settings, estimator_for(workload, catalog));
    if (!options.rules.none) {
        std::optional<decide::Decision> decision;
        (void)apply_rules(options.rules, workload, catalog, settings, plan, decision);
    }
    return plan;
}

cost::Settings parse_cost_flags(const CostFlags& flags, const CommonOptions& common) {
    cost::Settings settings;
    settings.currency = common.currency;
    for (const std::string& entry : flags.discounts) {
        const auto eq = entry.find('=');
        const auto fraction =
            eq == std::string::npos ? std::nullopt : parse_fraction(entry.substr(eq + 1));
        if (eq == 0 || !fraction || *fraction < 0.0 || *fraction >= 1.0) {
            throw UsageError(fmt::format(
                "--discount: expected PROVIDER=FRACTION such as aws=15% or aws=0.15, got '{}'",
                entry));
        }
        settings.provider_discounts[entry.substr(0, eq)] = *fraction;
    }
    if (flags.interruption_rate) {
        const auto value = parse_number(*flags.interruption_rate);
        if (!value || *value < 0.0 || *value > catalog::k_max_interruption_rate_per_node_hour) {
            throw UsageError(fmt::format("--interruption-rate: expected interruptions per "
                                         "node-hour (a number from 0 to {}), got '{}'",
                                         catalog::k_max_interruption_rate_per_node_hour,
                                         *flags.interruption_rate));
        }
        settings.interruption_rate_per_node_hour = *value;
    }
    if (flags.checkpoint_gb_per_s) {
        settings.checkpoint_gb_per_s_per_node =
            positive_number("--checkpoint-gb-per-s", *flags.checkpoint_gb_per_s);
    }
    if (flags.storage_price) {
        const auto value = parse_number(*flags.storage_price);
        if (!value || *value < 0.0) {
            throw UsageError(
                fmt::format("--storage-price: expected USD per GB-month (a number >= 0), got '{}'",
                            *flags.storage_price));
        }
        settings.storage_per_gb_month_usd = *value;
    }
    if (flags.simulate < 0) {
        throw UsageError("--simulate: expected a number of samples >= 0");
    }
    settings.bridge = flags.bridge;
    settings.simulate = flags.simulate;
    settings.seed = flags.seed;
    return settings;
}

report::RecommendReport make_recommendation(const CommonOptions& common,
                                            const RecommendOptions& options,
                                            const catalog::Catalog& catalog) {
    const auto objective = rank::parse_objective(options.objective);
    if (!objective) {
        throw UsageError(fmt::format("--objective: expected cost, time or balanced, got '{}'",
                                     options.objective));
    }
    if (options.top < 0) {
        throw UsageError("--top: expected a number of options >= 0 (0 = all)");
    }
    const cost::Settings settings = parse_cost_flags(options.cost, common);
    const workload::Workload workload =
        timed("workload", [&] { return resolve_workload(options.input, common); });
    if (options.rules.none && (!options.rules.file.empty() || options.rules.explain)) {
        throw UsageError("--no-rules cannot be combined with --rules or --explain");
    }
    cost::Plan plan = timed("estimate + cost", [&] {
        return cost::plan(workload, catalog, settings, estimator_for(workload, catalog));
    });
    spdlog::info("{} options priced from {} estimates", plan.options.size(), plan.estimates);
    std::optional<decide::Decision> decision;
    std::string rules_file;
    if (!options.rules.none) {
        rules_file = timed("rules", [&] {
            return apply_rules(options.rules, workload, catalog, settings, plan, decision);
        });
    }
    report::RecommendReport report = timed("rank", [&] {
        return report::make_recommend_report(generator_info(), catalog, workload, settings,
                                             *objective, std::move(plan), options.top);
    });
    report.decision = std::move(decision);
    report.rules_file = rules_file;
    report.explain = options.rules.explain;
    return report;
}

Exit run_recommend(const CommonOptions& common, const RecommendOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    (void)check_catalog_age(catalog, common, io);
    const report::RecommendReport report = make_recommendation(common, options, catalog);
    const std::string text = timed(
        "render", [&] { return report::render_recommend(report, common.format, common.wide); });
    timed("write", [&] { write_output(common, text, io); });
    if (options.fail_if_none && report.ranked.empty()) {
        io.err << "gpuplan: no feasible option (--fail-if-none)\n";
        return Exit::gate_failed;
    }
    return Exit::ok;
}

Exit run_tco(const CommonOptions& common, const TcoOptions& options, Io& io) {
    cost::Settings settings = parse_cost_flags(options.cost, common);
    settings.itemise = true;
    const catalog::Catalog catalog = load_catalog(common);
    workload::Workload workload = resolve_workload(options.input, common);
    const auto estimator = estimator_for(workload, catalog);
    std::string gpu;
    if (workload.constraints.gpu_models.size() == 1) {
        const catalog::Gpu* found = catalog::find_gpu(catalog, workload.constraints.gpu_models[0]);
        if (found == nullptr) {
            throw UsageError(fmt::format("--gpu: no GPU model '{}' in the catalog",
                                         workload.constraints.gpu_models[0]));
        }
        gpu = found->name;
    } else {
        // No single GPU given: the configuration of recommend's best option.
        const cost::Plan all = cost::plan(workload, catalog, settings, estimator);
        const auto ranked = rank::rank(all.options, rank::Objective::cost);
        if (ranked.empty()) {
            throw UsageError("no feasible option to take a configuration from; give --gpu "
                             "(and --gpu-count, --provider)");
        }
        const cost::Option& best = all.options[ranked.front()];
        gpu = best.gpu;
        workload.constraints.gpu_count = best.gpu_count;
        spdlog::info("tco: taking {} x {} from the best option {}", best.gpu_count, best.gpu,
                     best.id());
    }
    workload.constraints.gpu_models = {gpu};
    const std::string provider =
        workload.constraints.providers.size() == 1 ? workload.constraints.providers[0] : "";
    // tco prices every purchase option, owning included; the ones the workload rules out say why.
    workload.constraints.purchase.clear();
    if (!workload.constraints.providers.empty() &&
        std::find(workload.constraints.providers.begin(), workload.constraints.providers.end(),
                  "self_built") == workload.constraints.providers.end()) {
        workload.constraints.providers.push_back("self_built");
    }
    const cost::Plan plan = cost::plan(workload, catalog, settings, estimator);
    const report::TcoReport report =
        report::make_tco_report(generator_info(), catalog, workload, plan, gpu, provider);
    write_output(common, report::render_tco(report, common.format), io);
    return Exit::ok;
}

} // namespace gpuplan::cli
