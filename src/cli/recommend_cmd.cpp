#include "cli/recommend_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "cli/rules_cmd.hpp"
#include "detail/strings.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/tco.hpp"
#include "gpuplan/report/launch.hpp"
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

recommend::RuleUse rule_use(const RulesChoice& rules) {
    if (rules.none && (!rules.file.empty() || rules.explain)) {
        throw UsageError("--no-rules cannot be combined with --rules or --explain");
    }
    return rules.none      ? recommend::RuleUse::none
           : rules.explain ? recommend::RuleUse::explain
                           : recommend::RuleUse::apply;
}

std::optional<decide::Tree> tree_for(const RulesChoice& rules, const catalog::Catalog& catalog) {
    if (rules.none) {
        return std::nullopt;
    }
    return timed("rules", [&] { return load_tree(rules.file, catalog); });
}

// A discount for a provider the catalog lacks would be ignored: a typo (`gpc=10%`) must not pass
// for a negotiated price.
void check_discounts(const cost::Settings& settings, const catalog::Catalog& catalog) {
    if (settings.provider_discounts.empty()) {
        return;
    }
    std::vector<std::string_view> names;
    for (const catalog::Provider& provider : catalog.providers) {
        names.emplace_back(provider.name);
    }
    for (const auto& [provider, fraction] : settings.provider_discounts) {
        if (catalog::find_provider(catalog, provider) != nullptr) {
            continue;
        }
        const std::string hint = detail::closest_match(provider, names);
        throw UsageError(fmt::format(
            "--discount: no provider '{}' in the catalog{} (discounts "
            "come from --discount, GPUPLAN_DISCOUNT and the "
            "configuration file)",
            provider, hint.empty() ? std::string() : fmt::format("; did you mean '{}'?", hint)));
    }
}

// The row --option names: a row number of the table (its group) or an option id, ranked; the
// group's rank and the option.
std::pair<std::size_t, const cost::Option*> chosen_option(const recommend::Recommendation& r,
                                                          const std::string& choice) {
    const auto& options = r.plan.options();
    if (!choice.empty() &&
        std::all_of(choice.begin(), choice.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const auto row = parse_number(choice);
        if (!row || *row < 1.0 || *row > static_cast<double>(r.groups.size())) {
            throw UsageError(fmt::format("--option: row {} is not among the {} ranked rows", choice,
                                         r.groups.size()));
        }
        const auto index = static_cast<std::size_t>(*row);
        return {index, &r.shown(index - 1)};
    }
    for (std::size_t g = 0; g < r.groups.size(); ++g) {
        for (const std::size_t member : r.groups[g].members) {
            if (options[member].id() == choice) {
                return {g + 1, &options[member]};
            }
        }
    }
    std::vector<std::string> ids;
    for (const std::size_t index : r.rejected) {
        if (options[index].id() == choice) {
            throw UsageError(fmt::format("--option: {} was rejected: {}", choice,
                                         cost::reason(r.plan, options[index])));
        }
    }
    for (const std::size_t index : r.ranked) {
        ids.push_back(options[index].id());
    }
    const std::string hint =
        detail::closest_match(choice, std::vector<std::string_view>(ids.begin(), ids.end()));
    throw UsageError(
        fmt::format("--option: no ranked option '{}'{}", choice,
                    hint.empty() ? std::string() : fmt::format("; did you mean '{}'?", hint)));
}

// The launch files --emit asks for, of the option --option names (row 1 by default).
std::vector<OutputFile> launch_files(const RecommendOptions& options,
                                     const recommend::Recommendation& r) {
    std::vector<OutputFile> files;
    if (options.emit.empty()) {
        if (options.option) {
            throw UsageError("--option: names the option --emit writes; give --emit KIND FILE");
        }
        return files;
    }
    if (r.ranked.empty()) {
        throw UsageError("--emit: no feasible option to launch");
    }
    const auto [rank, option] = chosen_option(r, options.option.value_or("1"));
    for (std::size_t i = 0; i + 1 < options.emit.size(); i += 2) {
        const auto launcher = report::parse_launcher(options.emit[i]);
        if (!launcher) {
            throw UsageError(fmt::format(
                "--emit: expected KIND FILE with KIND skypilot, dstack or dstack-fleet, got '{}'",
                options.emit[i]));
        }
        const std::string refusal = report::launch_refusal(*launcher, *option);
        if (!refusal.empty()) {
            std::string other;
            for (std::size_t g = 0; g < r.groups.size() && other.empty(); ++g) {
                if (report::launch_refusal(*launcher, r.shown(g)).empty()) {
                    other = fmt::format("; row {} ({}) is the first it can launch: --option {}",
                                        g + 1, r.shown(g).id(), g + 1);
                }
            }
            throw UsageError(fmt::format("--emit {}: option {} cannot be launched: {}{}",
                                         options.emit[i], rank, refusal, other));
        }
        files.push_back({options.emit[i + 1], report::launch_file(*launcher, r, *option, rank)});
    }
    return files;
}

} // namespace

cost::Settings parse_cost_flags(const CostFlags& flags, const CommonOptions& common) {
    cost::Settings settings;
    settings.currency = common.currency;
    std::vector<std::string> discounts = common.discounts; // the flags come last and win
    discounts.insert(discounts.end(), flags.discounts.begin(), flags.discounts.end());
    for (const std::string& entry : discounts) {
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
        if (!value || *value < 0.0 || *value > limits::k_max_price_per_hour) {
            throw UsageError(fmt::format("--storage-price: expected USD per GB-month (a number "
                                         "from 0 to {:g}), got '{}'",
                                         limits::k_max_price_per_hour, *flags.storage_price));
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

recommend::Recommendation make_recommendation(const CommonOptions& common,
                                              const RecommendOptions& options,
                                              const catalog::Catalog& catalog, const Io& io,
                                              bool with_sensitivity,
                                              const std::optional<recommend::PriceCache>& cache) {
    const auto objective = rank::parse_objective(options.objective);
    if (!objective) {
        throw UsageError(fmt::format("--objective: expected cost, time or balanced, got '{}'",
                                     options.objective));
    }
    if (options.top < 0) {
        throw UsageError("--top: expected a number of options >= 0 (0 = all)");
    }
    cost::Settings cost = parse_cost_flags(options.cost, common);
    check_discounts(cost, catalog);
    cost.counts = options.counts;
    // The best option's prices are aged to today: against --max-catalog-age when given (its
    // syntax is checked by check_catalog_age), else the default quarter.
    const std::optional<double> age_limit = common.max_catalog_age.empty()
                                                ? std::nullopt
                                                : parse_duration_hours(common.max_catalog_age);
    const workload::Workload workload =
        timed("workload", [&] { return resolve_workload(options.input, common, catalog); });
    if (options.draws < 1 || options.draws > recommend::k_max_draws) {
        throw UsageError(fmt::format("--draws: expected a number of draws from 1 to {}",
                                     recommend::k_max_draws));
    }
    const std::uint64_t seed = cost.seed;
    const recommend::Settings settings{
        .cost = std::move(cost),
        .objective = *objective,
        .rules = rule_use(options.rules),
        .top = options.top,
        .sensitivity = with_sensitivity,
        .expand_regions = options.expand_regions,
        .accept_soft = options.accept_soft || common.accept_soft,
        .today = today(io),
        .max_price_age_days =
            age_limit ? *age_limit / k_hours_per_day : recommend::k_default_max_price_age_days,
        .uncertainty = {.draws = options.uncertainty ? options.draws : 0,
                        .seed = seed,
                        .inputs = workload.uncertainty}};
    const std::optional<decide::Tree> tree = tree_for(options.rules, catalog);
    recommend::Recommendation recommendation = timed("recommend", [&] {
        return recommend::recommend(workload, catalog, tree ? &*tree : nullptr, settings,
                                    generator_info(common));
    });
    recommendation.catalog.cache = cache;
    spdlog::info("{} options priced from {} estimates", recommendation.plan.options().size(),
                 recommendation.plan.estimates);
    if (recommendation.decision) {
        spdlog::info("decision tree {}: {} steps, {} GPU models excluded",
                     recommendation.rules_file, recommendation.decision->trace.size(),
                     recommendation.decision->excluded_gpus.size());
    }
    return recommendation;
}

Exit run_recommend(const CommonOptions& common, const RecommendOptions& options, Io& io) {
    std::optional<recommend::PriceCache> cache;
    auto catalog = std::make_unique<const catalog::Catalog>(load_catalog(common, &cache));
    (void)check_catalog_age(*catalog, common, io);
    auto recommendation = std::make_unique<const recommend::Recommendation>(
        make_recommendation(common, options, *catalog, io, false, cache));
    const std::vector<OutputFile> launches = launch_files(options, *recommendation);
    const report::Screen screen{.command = common.command_line, .details = options.details};
    const std::optional<curve::CurvePlan> curve =
        timed("curve", [&] { return curve::plan_curve(*recommendation, *catalog); });
    const std::string text = timed("render", [&] {
        return report::render_recommend(*recommendation, common.format, common.width, screen,
                                        curve ? &*curve : nullptr);
    });
    timed("write", [&] { write_output(common, text, io, launches); });
    const bool none = recommendation->ranked.empty();
    release(std::move(recommendation), io);
    release(std::move(catalog), io);
    if (options.fail_if_none && none) {
        io.err << "gpuplan: no feasible option (--fail-if-none)\n";
        return Exit::gate_failed;
    }
    return Exit::ok;
}

Exit run_tco(const CommonOptions& common, const TcoOptions& options, Io& io) {
    const cost::Settings settings = parse_cost_flags(options.cost, common);
    std::optional<recommend::PriceCache> cache;
    const catalog::Catalog catalog = load_catalog(common, &cache);
    check_discounts(settings, catalog);
    const workload::Workload workload = resolve_workload(options.input, common, catalog);
    if (workload.constraints.gpu_models.size() == 1 &&
        catalog::find_gpu(catalog, workload.constraints.gpu_models[0]) == nullptr) {
        throw UsageError(fmt::format("--gpu: no GPU model '{}' in the catalog",
                                     workload.constraints.gpu_models[0]));
    }
    const decide::Tree tree = load_tree("", catalog);
    const auto rules = recommend::RuleUse::apply;
    const std::optional<recommend::Configuration> configuration =
        recommend::tco_configuration(workload, catalog, &tree, rules, settings);
    if (!configuration) {
        throw UsageError("no feasible option to take a configuration from; give --gpu "
                         "(and --gpu-count, --provider)");
    }
    if (workload.constraints.gpu_models.size() != 1) {
        spdlog::info("tco: taking {} x {} from recommend's best option",
                     configuration->gpu_count.value_or(0), configuration->gpu);
    }
    recommend::TcoComparison comparison = recommend::tco(workload, catalog, &tree, rules, settings,
                                                         *configuration, generator_info(common));
    comparison.catalog.cache = cache;
    write_output(common, report::render_tco(comparison, common.format, common.width), io);
    return Exit::ok;
}

} // namespace gpuplan::cli
