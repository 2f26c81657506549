#include "cost/commitments.hpp"
#include "cost/firmness.hpp"
#include "cost/planner.hpp"
#include "cost/regions.hpp"
#include "gpuplan/units.hpp"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace gpuplan::cost::detail {

namespace {

// The spot risk of an instance in a region: the rate set for the run, the region's stated
// interruption band (`band`), the instance's, the provider's or the default, in that order, and
// the provider's restart time; with where the rate came from.
std::pair<SpotRisk, std::string> spot_risk(const Settings& settings,
                                           const catalog::Provider& provider,
                                           const catalog::Instance& instance,
                                           const catalog::SpotBand* band) {
    SpotRisk risk;
    std::string source(k_rate_from_instance);
    if (settings.interruption_rate_per_node_hour) {
        risk.interruption_rate_per_node_hour = *settings.interruption_rate_per_node_hour;
        source = k_rate_from_settings;
    } else if (band != nullptr) {
        const auto index = static_cast<std::size_t>(band->band);
        const double monthly = catalog::k_spot_band_monthly.at(index);
        // A monthly interruption fraction p is a per-instance-hour hazard -ln(1 - p) / 730.
        risk.interruption_rate_per_node_hour = -std::log1p(-monthly) / k_hours_per_month;
        const bool floor = index + 1 == catalog::k_spot_band_names.size();
        // Regions of one band share a plan (plan_spot): the words name no region.
        source = fmt::format(
            "its region's band {} a month{}: {:.0f}%{}", catalog::k_spot_band_names[index],
            band->as_of ? " as of " + band->as_of->to_string() : "", 100.0 * monthly,
            floor ? ", a floor: the band has no upper edge" : " taken");
    } else if (instance.spot_interruption_rate_per_node_hour) {
        risk.interruption_rate_per_node_hour = instance.spot_interruption_rate_per_node_hour->value;
    } else if (provider.spot) {
        const catalog::Parameter& rate = provider.spot->interruption_rate_per_node_hour;
        risk.interruption_rate_per_node_hour = rate.value;
        // A rate no source states is flagged where it is used.
        source = rate.note.rfind("placeholder", 0) == 0
                     ? fmt::format("{}, a PLACEHOLDER: no published rate", k_rate_from_provider)
                     : std::string(k_rate_from_provider);
    } else {
        risk.interruption_rate_per_node_hour = k_default_interruption_rate_per_node_hour;
        source = k_rate_from_gpuplan;
    }
    risk.interruption_rate_per_node_hour *= settings.interruption_rate_factor;
    risk.restart_hours =
        (provider.spot ? provider.spot->restart_minutes.value : k_default_restart_minutes) / 60.0;
    return {risk, source};
}

// The overhead interruptions add to the work of `spot_proto` (a spot prototype): its wall time
// stretched and its P90 set, and `risk`'s checkpoint time for a job.
SpotOverhead stretch_for_spot(const Workload& w, const Settings& settings,
                              const estimate::GpuEstimate& e, SpotRisk& risk, Option& spot_proto) {
    SpotOverhead overhead;
    const int nodes = spot_proto.nodes;
    if (w.task == Task::inference) {
        // A service has no lost work to redo, only replacement time to pay for.
        overhead.interruption_rate_per_hour = nodes * risk.interruption_rate_per_node_hour;
        overhead.wall_factor = 1.0 + overhead.interruption_rate_per_hour * risk.restart_hours;
        return overhead;
    }
    risk.checkpoint_hours =
        e.checkpoint_gb / (nodes * settings.checkpoint_gb_per_s_per_node) / k_seconds_per_hour;
    overhead = spot_overhead(nodes, risk);
    spot_proto.wall_hours = e.wall_hours * overhead.wall_factor;
    // Interruptions arrive as a Poisson process at lambda over the wall time; each costs the
    // work since the last checkpoint (uniform over tau) plus the restart, so the overhead is
    // compound Poisson with variance lambda W E[L^2], E[L^2] = (tau/2 + R)^2 + tau^2/12.
    const double tau = overhead.checkpoint_interval_hours;
    const double loss = tau / 2.0 + risk.restart_hours;
    const double variance = overhead.interruption_rate_per_hour * spot_proto.wall_hours *
                            (loss * loss + tau * tau / 12.0);
    spot_proto.p90_wall_hours = spot_proto.wall_hours + k_z90 * std::sqrt(variance);
    return overhead;
}

} // namespace

// A commitment's flows at a price of 1 for the instance type's usage, as sparse cells.
struct Planner::UnitCommitment {
    Flows flows;
    Flows spill;
    double npv = 0.0;
    CommitmentUse use;
};

// What every region of an instance type shares: its estimate, the prototypes of its options and
// their flows at a price of 1 (cash flows are linear in the price, so each purchase option's
// flows are computed once per instance type and scaled per region).
// The spot prototype of an offer for one interruption band: its overhead, notes, simulation and
// unit flows.
struct Planner::SpotPlan {
    const catalog::SpotBand* band = nullptr;
    Option spot_proto{};
    Flows unit_spot{};
    SpotOverhead overhead{};
    std::optional<SpotSimulation> simulation{};
};

struct Planner::CloudOffer {
    const catalog::Provider& provider;
    const catalog::Instance& instance;
    const catalog::Gpu& gpu;
    const catalog::GpuSlice* slice;
    const estimate::GpuEstimate& e;
    std::optional<double> rate;
    Usage usage{};
    bool endless = false; // the work outlasts k_max_plan_months at on-demand speed
    CashFlows hidden{};
    const catalog::Product* product = nullptr;
    const catalog::Cluster* cluster = nullptr; // the type's scale-out facts; nullptr = unknown
    bool undated = false;                      // the provider's prices have no date of their own
    PriceBasis basis = PriceBasis::snapshot;
    std::vector<double> spot_shares{}; // each row's spot price as a share of on-demand, sorted
    // The risks every option of the offer shares, noted once (assess_offer).
    std::optional<NoteIndex> undated_risk{};
    std::optional<NoteIndex> marketplace_risk{};
    std::optional<NoteIndex> cluster_risk{}; // several nodes of a cluster product: a quote

    Option proto{}; // of the commitments
    Option on_demand_proto{};
    Flows unit_on_demand{};
    // One spot plan per interruption band the offer's regions state (nullptr: none stated).
    std::vector<SpotPlan> spot_plans{};
    std::optional<Discount> discount{};
    // unit_commitment(): by term, upfront share and horizon.
    std::map<std::tuple<int, double, double>, UnitCommitment> unit_reserved{};
    std::vector<CommitmentChoice> choices{}; // a buffer reused across regions and kinds
};

void Planner::add_cloud(const catalog::Provider& provider, const catalog::Instance& instance,
                        const catalog::Gpu& gpu, const catalog::GpuSlice* slice,
                        std::optional<int> gpu_count) {
    // A slice is one GPU of its own figures (gpu is already slice_gpu's): the workload runs on
    // one slice or not at all, never across several.
    const int per_node = slice != nullptr ? 1 : static_cast<int>(instance.gpu_count);
    const catalog::Cluster* cluster =
        slice != nullptr ? nullptr : catalog::find_cluster(m_catalog, provider.name, instance.type);
    estimate::NodeShape shape = estimate::node_shape(instance);
    if (slice == nullptr) {
        shape.nvlink = catalog::has_nvlink(instance, gpu);
        // The fabric's bandwidth is what a multi-node job's collectives cross.
        if (cluster != nullptr && cluster->gbps_per_node) {
            shape.network_gbps = cluster->gbps_per_node;
        }
    }
    const estimate::GpuEstimate& e = slice != nullptr ? m_cache.get_one(gpu, shape)
                                     : gpu_count      ? m_cache.at(gpu, shape, *gpu_count)
                                                      : m_cache.get(gpu, shape);
    CloudOffer offer{.provider = provider,
                     .instance = instance,
                     .gpu = gpu,
                     .slice = slice,
                     .e = e,
                     .rate = fx(provider.currency),
                     .product = catalog::find_product(m_catalog, provider.name),
                     .cluster = cluster,
                     .undated = catalog::is_undated(m_catalog, provider.sources),
                     .basis = price_basis_of(m_catalog, provider.sources)};
    if (allowed(m_plan.purchase_options, PurchaseOption::spot)) {
        offer.spot_shares = spot_shares(instance);
    }
    Option& proto = offer.proto;
    proto = base_option(gpu, e, per_node);
    proto.larger_count = gpu_count.has_value();
    if (slice != nullptr) {
        proto.gpu = instance.gpu;
        proto.gpu_slice = slice->label;
    }
    proto.provider = provider.name;
    proto.instance = instance.type;
    proto.price_currency = provider.currency;
    proto.nvlink = shape.nvlink;
    proto.network_gbps = shape.network_gbps;
    describe_interconnect(proto, cluster, shape.nvlink, per_node);
    proto.capacity =
        offer.product != nullptr ? offer.product->capacity : catalog::Capacity::unknown;
    proto.fx_rate = offer.rate.value_or(1.0);
    add_startup(proto, offer.product);
    proto.wall_hours = e.wall_hours + proto.startup_hours;
    offer.usage = usage_of(m_workload, e, proto.nodes);
    offer.usage.busy_hours_per_run += proto.startup_hours;
    note_offer_risks(offer);
    offer.endless = usage_end_hour(offer.usage, 0.0) > k_max_plan_months * k_hours_per_month;
    if (!offer.endless) {
        offer.hidden = hidden_flows(e, offer.usage, provider, proto.fx_rate);
    }
    offer.unit_on_demand = flows_of(
        offer.endless ? CashFlows{} : on_demand_cash_flows(offer.usage, 1.0, provider.billing),
        offer.hidden);
    proto.finishes = !offer.endless;
    offer.on_demand_proto = proto;
    offer.on_demand_proto.purchase = PurchaseOption::on_demand;
    const catalog::Billing& billing = provider.billing;
    if (billing.granularity_seconds > 1.0 || billing.minimum_seconds > 0.0) {
        offer.on_demand_proto.notes.push_back(add_note(
            make_note(NoteKind::billing, {billing.granularity_seconds, billing.minimum_seconds})));
    }
    if (const auto found = m_settings.provider_discounts.find(provider.name);
        found != m_settings.provider_discounts.end()) {
        offer.discount = Discount{
            found->second, add_note(make_note(NoteKind::negotiated_discount, {found->second}))};
    }
    for (const Region& region : regions_of(provider, instance)) {
        if (m_workload.constraints.regions.empty() ||
            contains(m_workload.constraints.regions, region.name)) {
            add_region(offer, region);
        }
    }
}

const Planner::SpotPlan& Planner::plan_spot(CloudOffer& offer, const Region& region) {
    const catalog::SpotBand* band =
        catalog::find_spot_band(offer.product, offer.instance.type, region.name);
    for (const SpotPlan& plan : offer.spot_plans) {
        if (plan.band == band ||
            (plan.band != nullptr && band != nullptr && plan.band->band == band->band &&
             plan.band->as_of == band->as_of)) {
            return plan;
        }
    }
    SpotPlan& plan = offer.spot_plans.emplace_back();
    plan.band = band;
    const auto risk = spot_risk(m_settings, offer.provider, offer.instance, band);
    SpotRisk spot = risk.first;
    Option& spot_proto = plan.spot_proto;
    spot_proto = offer.proto;
    spot_proto.purchase = PurchaseOption::spot;
    spot_proto.finishes = !offer.endless;
    plan.overhead = stretch_for_spot(m_workload, m_settings, offer.e, spot, spot_proto);
    spot_proto.wall_hours += spot_proto.startup_hours;
    if (spot_proto.p90_wall_hours) {
        *spot_proto.p90_wall_hours += spot_proto.startup_hours;
    }
    const SpotOverhead& overhead = plan.overhead;
    const int nodes = offer.proto.nodes;
    if (m_workload.task != Task::inference && nodes > 1 &&
        spot_proto.wall_hours > k_spot_gang_caveat_hours) {
        spot_proto.risks.push_back(add_risk(make_note(
            NoteKind::spot_capacity, {static_cast<double>(nodes), spot_proto.wall_hours})));
    }
    spot_proto.notes.push_back(add_note(
        make_note(NoteKind::spot_risk,
                  {spot.interruption_rate_per_node_hour, static_cast<double>(nodes),
                   offer.e.checkpoint_gb, spot.checkpoint_hours, overhead.checkpoint_interval_hours,
                   spot.restart_hours, overhead.wall_factor},
                  risk.second)));

    Usage stretched = offer.usage;
    stretched.busy_hours_per_run *= overhead.wall_factor;
    const bool spot_endless =
        offer.endless || usage_end_hour(stretched, 0.0) > k_max_plan_months * k_hours_per_month;
    if (m_settings.simulate > 0 && m_workload.task != Task::inference &&
        allowed(m_plan.purchase_options, PurchaseOption::spot) && !spot_endless) {
        plan.simulation = simulate_spot(offer.e.wall_hours, offer.usage.runs, overhead, spot,
                                        m_settings.simulate, m_settings.seed);
    }
    plan.unit_spot =
        flows_of(spot_endless ? CashFlows{}
                              : spot_cash_flows(offer.usage, 1.0, overhead, offer.provider.billing),
                 offer.hidden);
    spot_proto.finishes = !spot_endless;
    return plan;
}

void Planner::add_region(CloudOffer& offer, const Region& region) {
    const std::vector<PurchaseOption>& purchase = m_plan.purchase_options;
    if (region.on_demand && offer.rate && offer.slice == nullptr) {
        const double per_gpu_hour = *region.on_demand * offer.proto.fx_rate *
                                    (1.0 - (offer.discount ? offer.discount->fraction : 0.0)) /
                                    offer.instance.gpu_count;
        auto [it, inserted] =
            m_cheapest_on_demand_per_gpu_hour.emplace(offer.gpu.name, per_gpu_hour);
        if (!inserted) {
            it->second = std::min(it->second, per_gpu_hour);
        }
    }
    if (region.on_demand && allowed(purchase, PurchaseOption::on_demand)) {
        Option& option = options().emplace_back(offer.on_demand_proto);
        option.region = region.name;
        option.prices_as_of = region.as_of;
        price_and_judge(offer, option, offer.unit_on_demand, *region.on_demand);
    }
    for (const PurchaseOption kind : k_commitment_kinds) {
        if (allowed(purchase, kind)) {
            add_commitment(offer, region, kind);
        }
    }
    // A spot price at or above the region's on-demand price is no discount to gamble on.
    if (!allowed(purchase, PurchaseOption::spot) || !region.spot) {
        return;
    }
    if (usable_spot(region)) {
        add_spot(offer, region);
    } else {
        ++m_unusable_spot;
    }
}

const Planner::UnitCommitment& Planner::unit_commitment(CloudOffer& offer,
                                                        const Commitment& commitment) {
    const auto key =
        std::tuple{commitment.term_months, commitment.upfront_fraction, commitment.horizon_months};
    auto it = offer.unit_reserved.find(key);
    if (it == offer.unit_reserved.end()) {
        const CommittedUsage none;
        const CommittedUsage& unit = offer.endless ? none : committed(offer.usage, commitment);
        it = offer.unit_reserved
                 .emplace(key, UnitCommitment{flows_of(unit.flows, offer.hidden),
                                              flows_of(unit.spill, {}), unit.npv, unit.use})
                 .first;
    }
    return it->second;
}

void Planner::add_commitment(CloudOffer& offer, const Region& region, PurchaseOption kind) {
    commitments_for(offer.provider, offer.product, offer.instance, region, kind,
                    m_workload.horizon_months, offer.choices);
    if (offer.choices.empty()) {
        return;
    }
    // Of the payment plans offered, the one with the lowest present value.
    const CommitmentChoice* best =
        cheapest_choice(offer.choices, [&](const CommitmentChoice& choice) {
            return choice.commitment.effective_per_hour *
                   unit_commitment(offer, choice.commitment).npv;
        });
    Option& option = options().emplace_back(offer.proto);
    // Room for the notes a commitment adds (use, spill, default price, discount): one block.
    option.notes.reserve(option.notes.size() + 4);
    option.region = region.name;
    option.purchase = kind;
    option.payment = best->payment;
    const bool reserved = is_reserved(kind);
    const std::optional<Date> own_date =
        reserved ? reserved_as_of(offer.product, offer.instance, region, reserved_term(kind))
                 : std::nullopt;
    option.prices_as_of = own_date ? own_date : region.as_of;
    const UnitCommitment& unit = unit_commitment(offer, best->commitment);
    add_commitment_notes(option, unit.use, best->commitment,
                         reserved ? std::string(catalog::to_string(best->payment))
                                  : std::string("prepaid"));
    if (best->is_default) {
        option.notes.push_back(add_note(make_note(NoteKind::default_commitment_price)));
    }
    if (reserved) {
        const bool published = !best->from_discount;
        assess_commitment(offer, option, published, best->is_default,
                          published && own_date.has_value());
    }
    // A spill exists only where the region has an on-demand price (commitments_for).
    price_and_judge(offer, option, unit.flows, best->commitment.effective_per_hour,
                    unit.spill.cells.empty() ? nullptr : &unit.spill,
                    region.on_demand.value_or(0.0));
}

void Planner::add_spot(CloudOffer& offer, const Region& region) {
    const SpotPlan& plan = plan_spot(offer, region);
    Option& option = options().emplace_back(plan.spot_proto);
    option.region = region.name;
    option.zone = region.spot_zone;
    option.prices_as_of = region.spot_as_of;
    assess_spot(offer, option, region);
    if (const std::optional<SpotSimulation>& simulation = plan.simulation) {
        option.p90_wall_hours = simulation->p90_wall_hours;
        const double per_hour = *region.spot * offer.proto.nodes * offer.proto.fx_rate;
        option.simulation = SpotQuantiles{simulation->samples,
                                          m_settings.seed,
                                          simulation->p50_wall_hours,
                                          simulation->p90_wall_hours,
                                          simulation->p50_wall_hours * per_hour,
                                          simulation->p90_wall_hours * per_hour};
        option.notes.push_back(add_note(make_note(
            NoteKind::spot_simulation,
            {static_cast<double>(simulation->samples), simulation->p50_wall_hours,
             simulation->p90_wall_hours, option.simulation->p50_cost, option.simulation->p90_cost},
            m_plan.currency, std::to_string(m_settings.seed))));
    }
    price_and_judge(offer, option, plan.unit_spot, *region.spot);
}

void Planner::add_startup(Option& proto, const catalog::Product* product) {
    if (m_workload.task == Task::inference) {
        return; // a service starts once over its horizon
    }
    const bool stated = product != nullptr && product->startup_minutes.has_value();
    const double minutes = stated ? product->startup_minutes->value : k_default_startup_minutes;
    const bool placeholder = !stated || product->startup_minutes->note.rfind("PLACEHOLDER", 0) == 0;
    proto.startup_hours = minutes / 60.0;
    proto.notes.push_back(add_note(
        make_note(NoteKind::startup, {minutes}, placeholder ? "placeholder" : std::string())));
}

void Planner::note_offer_risks(CloudOffer& offer) {
    const Option& proto = offer.proto;
    if (offer.undated) {
        offer.undated_risk = add_risk(make_note(NoteKind::risk_undated_price,
                                                {m_workload.horizon_months}, offer.provider.name));
    }
    if (proto.nodes > 1 && proto.sold_as == catalog::SoldAs::cluster) {
        offer.cluster_risk = add_risk(
            make_note(NoteKind::risk_cluster_quote,
                      {static_cast<double>(proto.nodes),
                       static_cast<double>(
                           offer.cluster != nullptr ? offer.cluster->min_nodes.value_or(0) : 0)},
                      offer.provider.name));
    }
    if (proto.capacity == catalog::Capacity::guaranteed) {
        return;
    }
    const bool service = m_workload.task == Task::inference;
    const double hours = service ? 0.0 : offer.usage.busy_hours_per_run;
    if (service || proto.gpu_count > k_marketplace_max_gpus || hours > k_marketplace_max_hours) {
        offer.marketplace_risk = add_risk(
            make_note(NoteKind::risk_marketplace, {static_cast<double>(proto.gpu_count), hours},
                      offer.provider.name, std::string(catalog::to_string(proto.capacity))));
    }
}

void Planner::assess_offer(const CloudOffer& offer, Option& option) {
    if (!is_reserved(option.purchase)) {
        option.price_basis = offer.discount ? PriceBasis::negotiated : offer.basis;
        if (offer.undated_risk) {
            option.prices_as_of.reset();
            option.risks.push_back(*offer.undated_risk);
        }
    }
    if (offer.marketplace_risk) {
        option.risks.push_back(*offer.marketplace_risk);
    }
}

void Planner::assess_commitment(const CloudOffer& offer, Option& option, bool published,
                                bool is_default, bool own_date) {
    option.price_basis = !published ? (is_default ? PriceBasis::derived : PriceBasis::list)
                         : own_date ? PriceBasis::list
                                    : offer.basis;
    if (is_default) {
        option.risks.push_back(add_risk(make_note(NoteKind::risk_derived_commitment)));
    }
    if (offer.undated_risk && !own_date) {
        option.prices_as_of.reset();
        option.risks.push_back(*offer.undated_risk);
    }
    int min_gpus = 0;
    std::string unsold =
        published ? std::string()
                  : unsold_commitment(offer.product, offer.instance.type,
                                      reserved_term(option.purchase), option.gpu_count, min_gpus);
    if (!unsold.empty()) {
        option.price_basis = PriceBasis::quote;
        option.risks.push_back(add_risk(
            make_note(NoteKind::risk_quote,
                      {static_cast<double>(option.gpu_count), static_cast<double>(min_gpus)},
                      offer.provider.name, std::move(unsold))));
    }
}

void Planner::assess_spot(const CloudOffer& offer, Option& option, const Region& region) {
    if (!region.spot || !region.on_demand || *region.on_demand <= 0.0) {
        return;
    }
    const double share = *region.spot / *region.on_demand;
    if (const auto outlier = spot_outlier(
            offer.spot_shares, spot_share(offer.instance.prices[region.spot_row]), share)) {
        option.risks.push_back(add_risk(
            make_note(NoteKind::risk_spot_outlier, {outlier->share, outlier->low, outlier->high},
                      std::string(region.spot_zone.empty() ? region.name : region.spot_zone))));
    }
}

void Planner::price_and_judge(const CloudOffer& offer, Option& option, const Flows& unit,
                              double price, const Flows* spill, double spill_price) {
    assess_offer(offer, option);
    if (m_settings.today && option.prices_as_of) {
        const auto age = static_cast<double>(m_settings.today->days_since_epoch() -
                                             option.prices_as_of->days_since_epoch());
        if (age > k_max_firm_price_age_days) {
            option.risks.push_back(
                add_risk(make_note(NoteKind::risk_stale_price, {age, k_max_firm_price_age_days},
                                   option.prices_as_of->to_string())));
        }
    }
    if (offer.cluster_risk) {
        option.price_basis = PriceBasis::quote;
        option.risks.push_back(*offer.cluster_risk);
    }
    finish(option, unit, price, offer.discount ? &*offer.discount : nullptr, spill, spill_price);
    judge(option, offer.e, offer.gpu, offer.rate.has_value());
}

} // namespace gpuplan::cost::detail
