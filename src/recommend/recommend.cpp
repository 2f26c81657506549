#include "gpuplan/recommend/recommend.hpp"

#include "gpuplan/decide/facts.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/recommend/provenance.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <stdexcept>
#include <utility>

namespace gpuplan::recommend {

CatalogInfo catalog_info(const catalog::Catalog& catalog) {
    CatalogInfo info;
    const auto range = catalog::price_date_range(catalog);
    if (range) {
        info.oldest = range->first.to_string();
        info.newest = range->second.to_string();
    }
    info.digest = "fnv1a64:" + catalog.digest;
    info.offers = catalog::offer_count(catalog);
    return info;
}

CatalogInfo catalog_info(const catalog::Catalog& catalog, std::span<const cost::Option> priced) {
    CatalogInfo info = catalog_info(catalog);
    const auto used = prices_used_range(priced);
    info.oldest = used ? used->first.to_string() : std::string();
    info.newest = used ? used->second.to_string() : std::string();
    return info;
}

CatalogInfo estimate_catalog_info(const catalog::Catalog& catalog,
                                  std::span<const estimate::GpuEstimate> estimates) {
    CatalogInfo info = catalog_info(catalog);
    std::optional<std::pair<Date, Date>> range;
    for (const estimate::GpuEstimate& e : estimates) {
        if (const catalog::Gpu* gpu = catalog::find_gpu(catalog, e.gpu)) {
            range = range ? std::pair{std::min(range->first, gpu->as_of),
                                      std::max(range->second, gpu->as_of)}
                          : std::pair{gpu->as_of, gpu->as_of};
        }
    }
    info.oldest = range ? range->first.to_string() : std::string();
    info.newest = range ? range->second.to_string() : std::string();
    return info;
}

cost::Plan plan(const workload::Workload& workload, const catalog::Catalog& catalog,
                const decide::Tree* tree, RuleUse rules, const cost::Settings& settings,
                std::optional<decide::Decision>* decision) {
    if (rules != RuleUse::none && tree == nullptr) {
        throw std::invalid_argument("recommend::plan: rules without a decision tree");
    }
    // One memo for the facts and the cost stage: each configuration is estimated once.
    estimate::Memo memo(
        [&](const catalog::Gpu& gpu, const estimate::NodeShape& node, std::optional<int> count) {
            return estimate::estimate(workload, gpu, node, count, catalog);
        },
        workload);
    const estimate::Estimator estimator =
        [&memo](const catalog::Gpu& gpu, const estimate::NodeShape& node,
                std::optional<int> count) { return memo.get(gpu, node, count); };
    std::optional<decide::Decision> verdict;
    if (rules != RuleUse::none) {
        const std::vector<estimate::GpuEstimate> estimates =
            estimate::estimate_all(workload, catalog, estimator);
        verdict = decide::decide(
            *tree, decide::make_facts(workload, estimates, catalog, settings.currency));
    }
    const cost::RuleFilter filter{.decision = verdict ? &*verdict : nullptr,
                                  .excluded = rules == RuleUse::explain
                                                  ? cost::ExcludedOptions::keep
                                                  : cost::ExcludedOptions::drop};
    cost::Plan out = cost::plan(workload, catalog, settings, estimator, filter);
    if (decision != nullptr) {
        *decision = std::move(verdict);
    }
    return out;
}

namespace {

// Moves the options only a rule excludes out of `r.plan`, keeping those that would have ranked
// among the first k_left_out_rank in `r.left_out`.
void leave_out_excluded(Recommendation& r, rank::Objective objective, rank::Soft soft) {
    const std::vector<std::size_t> without_rules =
        rank::rank_first(r.plan.options(), objective, rank::Candidates::feasible_or_rule_excluded,
                         k_left_out_rank, soft);
    for (std::size_t place = 0; place < without_rules.size(); ++place) {
        const cost::Option& option = r.plan.options()[without_rules[place]];
        if (option.rejection == cost::Rejection::excluded_by_rule) {
            r.left_out.push_back({option, place + 1});
        }
    }
    r.plan.option_list.erase_if([](const cost::Option& option) {
        return option.rejection == cost::Rejection::excluded_by_rule;
    });
}

// The default behind the best option's price, and the best option priced without one.
std::optional<DefaultDecides> default_decides(const Recommendation& r) {
    if (r.ranked.empty()) {
        return std::nullopt;
    }
    const auto kind = default_price(r.plan, r.plan.options()[r.ranked.front()]);
    if (!kind) {
        return std::nullopt;
    }
    DefaultDecides out{*kind, std::nullopt};
    for (const std::size_t index : r.ranked) {
        if (!default_price(r.plan, r.plan.options()[index])) {
            out.best_without_defaults = index;
            break;
        }
    }
    return out;
}

// The best option's price date against the limit, when the run ages prices.
std::optional<StalePrices> stale_prices(const Recommendation& r, const Settings& settings) {
    if (r.ranked.empty() || !settings.today) {
        return std::nullopt;
    }
    const std::optional<Date>& as_of = r.plan.options()[r.ranked.front()].prices_as_of;
    if (!as_of) {
        return StalePrices{std::nullopt, 0.0, settings.max_price_age_days};
    }
    const auto age =
        static_cast<double>(settings.today->days_since_epoch() - as_of->days_since_epoch());
    if (age <= settings.max_price_age_days) {
        return std::nullopt;
    }
    return StalePrices{as_of, age, settings.max_price_age_days};
}

// Releases the monthly cash flows of the rejected options but the cheapest of each purchase
// option (the report charts it, purchase_curves()): nothing else reads them (their figures and
// reasons stay), and a large catalog's peak memory falls by their size (bench/README.md).
void release_rejected_flows(cost::Plan& plan) {
    const std::span<cost::Option> options = plan.options();
    std::map<PurchaseOption, std::size_t> cheapest;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const cost::Option& o = options[i];
        if (!o.rejection || o.amounts.empty()) {
            continue;
        }
        const auto [it, inserted] = cheapest.emplace(o.purchase, i);
        const cost::Option& kept = options[it->second];
        if (!inserted && (o.npv < kept.npv || (o.npv == kept.npv && cost::id_less(o, kept)))) {
            it->second = i;
        }
    }
    for (std::size_t i = 0; i < options.size(); ++i) {
        cost::Option& o = options[i];
        const auto it = cheapest.find(o.purchase);
        if (o.rejection && (it == cheapest.end() || it->second != i)) {
            std::vector<double>().swap(o.amounts);
            cost::CashFlows().months.swap(o.cash_flows.months);
        }
    }
}

// The best option's service: its hours and monthly cost, and each stated target against the
// serving model's figures at the option's GPU model, node shape and count.
std::optional<Service> service_of(const workload::Workload& w, const catalog::Catalog& catalog,
                                  const cost::Option& best, double horizon_months) {
    const catalog::Gpu* gpu = catalog::find_gpu(catalog, best.gpu);
    if (w.task != workload::Task::inference || gpu == nullptr) {
        return std::nullopt;
    }
    estimate::NodeShape shape;
    shape.gpus_per_node = best.gpus_per_node;
    shape.nvlink = best.nvlink;
    shape.network_gbps = best.network_gbps;
    const estimate::GpuEstimate e = estimate::estimate(w, *gpu, shape, best.gpu_count, catalog);
    const workload::Inference& in = w.inference;
    Service out;
    out.hours_per_month = best.wall_hours;
    out.hours_per_day = in.hours_per_day;
    out.cost_per_month = horizon_months > 0.0 ? best.total / horizon_months : best.total;
    out.percentile = in.percentile;
    out.expert_parallel = e.expert_parallel;
    const double capacity = e.throughput.requests_per_second_capacity.value_or(0.0);
    out.targets.push_back(
        {"requests/s", in.requests_per_second, capacity, capacity >= in.requests_per_second});
    const bool p90 = in.percentile == 90;
    const auto time = [&](const char* what, const std::optional<double>& target, double p50_ms,
                          double p90_ms) {
        if (target) {
            const double achieved = p90 ? p90_ms : p50_ms;
            out.targets.push_back({what, *target, achieved, achieved <= *target});
        }
    };
    const estimate::ServingTime& t = e.serving;
    time("latency", in.latency_ms, t.latency_p50_ms, t.latency_p90_ms);
    time("TTFT", in.ttft_ms, t.ttft_p50_ms, t.ttft_p90_ms);
    time("TPOT", in.tpot_ms, t.tpot_p50_ms, t.tpot_p90_ms);
    return out;
}

} // namespace

std::optional<cost::NoteKind> default_price(const cost::Plan& plan, const cost::Option& option) {
    for (const cost::NoteIndex index : option.notes) {
        const cost::Note& note = plan.notes[index];
        if (note.kind == cost::NoteKind::default_commitment_price ||
            (note.kind == cost::NoteKind::spot_risk &&
             (note.subject == cost::k_rate_from_provider ||
              note.subject == cost::k_rate_from_gpuplan))) {
            return note.kind;
        }
    }
    return std::nullopt;
}

Recommendation recommend(const workload::Workload& workload, const catalog::Catalog& catalog,
                         const decide::Tree* tree, const Settings& settings,
                         GeneratorInfo generator) {
    Recommendation r;
    r.generator = std::move(generator);
    // Time and balanced weigh a shorter run, so they also price the larger GPU counts that buy it.
    cost::Settings priced = settings.cost;
    priced.today = settings.today;
    if (settings.objective != rank::Objective::cost) {
        priced.counts = cost::GpuCounts::larger;
    }
    // The Monte Carlo re-prices options from their itemised cash flows.
    priced.itemise = priced.itemise || settings.uncertainty.draws > 0;
    // Applied rules still price what they exclude, to name the excluded options that would have
    // ranked high; the plan then keeps only what the rules allow.
    const RuleUse pricing = settings.rules == RuleUse::apply ? RuleUse::explain : settings.rules;
    r.plan = plan(workload, catalog, tree, pricing, priced, &r.decision);
    if (settings.rules == RuleUse::apply) {
        leave_out_excluded(r, settings.objective,
                           settings.accept_soft ? rank::Soft::mixed : rank::Soft::after);
    }
    release_rejected_flows(r.plan);
    r.catalog = catalog_info(catalog, r.plan.options());
    r.workload = workload;
    r.settings = priced;
    r.objective = settings.objective;
    r.ranked = rank::rank(r.plan.options(), settings.objective, rank::Candidates::feasible,
                          settings.accept_soft ? rank::Soft::mixed : rank::Soft::after);
    r.rejected = rank::rejected(r.plan.options());
    for (const std::size_t index : r.rejected) {
        ++r.rejection_counts[std::string(cost::to_string(*r.plan.options()[index].rejection))];
    }
    r.default_decides = default_decides(r);
    r.stale_prices = stale_prices(r, settings);
    r.top = settings.top;
    if (settings.rules != RuleUse::none) {
        r.rules_file = tree->file;
    }
    r.explain = settings.rules == RuleUse::explain;
    if (settings.sensitivity) {
        // Exclusions only change which options are listed, not which one is best.
        const RuleUse rules = settings.rules == RuleUse::none ? RuleUse::none : RuleUse::apply;
        r.sensitivity = sensitivity(workload, catalog, tree, rules, priced, settings.objective);
    }
    r.expand_regions = settings.expand_regions;
    r.groups = rank::group_identical(r.plan.options(), r.ranked, settings.expand_regions);
    r.best_per_purchase = rank::best_per_purchase(r.plan.options(), r.groups);
    r.best_per_gpu = rank::best_per_gpu(r.plan.options(), r.groups);
    if (workload.task != workload::Task::inference) {
        r.frontier = rank::frontier(r.plan.options(), r.groups);
    }
    if (!r.groups.empty()) {
        r.service = service_of(workload, catalog, r.shown(0), r.plan.horizon_months);
    }
    r.unit_costs.reserve(shown_count(r));
    for (std::size_t i = 0; i < shown_count(r); ++i) {
        r.unit_costs.push_back(cost::unit_costs(workload, r.shown(i).total));
    }
    r.purchase_curves = purchase_curves(r);
    if (settings.uncertainty.draws > 0) {
        r.confidence = confidence(r, catalog, tree, settings.rules, settings.uncertainty,
                                  settings.accept_soft ? rank::Soft::mixed : rank::Soft::after);
    }
    return r;
}

std::size_t shown_count(const Recommendation& r) {
    return r.top <= 0 ? r.groups.size()
                      : std::min(r.groups.size(), static_cast<std::size_t>(r.top));
}

} // namespace gpuplan::recommend
