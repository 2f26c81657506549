#include "gpuplan/cost/plan.hpp"

#include "gpuplan/cost/rates.hpp"
#include "gpuplan/cost/rules.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace gpuplan::cost {

std::string_view to_string(Rejection rejection) {
    switch (rejection) {
    case Rejection::does_not_fit:
        return "does_not_fit";
    case Rejection::exceeds_max_gpus:
        return "exceeds_max_gpus";
    case Rejection::gpu_count_mismatch:
        return "gpu_count_mismatch";
    case Rejection::not_interruptible:
        return "not_interruptible";
    case Rejection::never_finishes:
        return "never_finishes";
    case Rejection::misses_deadline:
        return "misses_deadline";
    case Rejection::misses_latency_target:
        return "misses_latency_target";
    case Rejection::over_budget:
        return "over_budget";
    case Rejection::no_exchange_rate:
        return "no_exchange_rate";
    case Rejection::excluded_by_rule:
        return "excluded_by_rule";
    }
    return "?";
}

namespace {

// The parts an id joins with '/', then a larger count's "@N".
struct IdParts {
    std::array<std::string_view, 4> parts;
    std::size_t count = 0;
    std::array<char, 12> suffix{}; // "@N" for a larger count, else empty
    std::size_t suffix_size = 0;

    [[nodiscard]] std::string_view tail() const { return {suffix.data(), suffix_size}; }
};

IdParts id_parts(const Option& o) {
    IdParts id =
        o.purchase != PurchaseOption::self_built
            ? IdParts{{o.provider, o.region, o.instance, gpuplan::to_string(o.purchase)}, 4}
        : o.bridged ? IdParts{{"self_built", o.instance, "bridge", {}}, 3}
                    : IdParts{{"self_built", o.instance, {}, {}}, 2};
    if (o.larger_count) {
        const auto [end, ec] =
            std::to_chars(id.suffix.data() + 1, id.suffix.data() + id.suffix.size(), o.gpu_count);
        id.suffix[0] = '@';
        id.suffix_size = ec == std::errc{} ? static_cast<std::size_t>(end - id.suffix.data()) : 1;
    }
    return id;
}

// The characters of an id one at a time, '/' between the parts, then the suffix; 0 past the end.
class IdCursor {
public:
    // Walks `id` from its part `first` on, from the '/' before it when it is not the first.
    IdCursor(const IdParts& id, std::size_t first)
        : m_id(id), m_part(first), m_slash(first > 0 && first < id.count) {}

    int next() {
        if (m_slash) {
            m_slash = false;
            return '/';
        }
        while (m_part < m_id.count) {
            const std::string_view part = m_id.parts[m_part];
            if (m_char < part.size()) {
                return static_cast<unsigned char>(part[m_char++]);
            }
            ++m_part;
            m_char = 0;
            if (m_part < m_id.count) {
                return '/';
            }
        }
        const std::string_view tail = m_id.tail();
        return m_char < tail.size() ? static_cast<unsigned char>(tail[m_char++]) : 0;
    }

private:
    IdParts m_id;
    std::size_t m_part = 0;
    std::size_t m_char = 0;
    bool m_slash = false;
};

} // namespace

UnitCosts unit_costs(const workload::Workload& w, double total) {
    UnitCosts units;
    const bool transformer = w.model.family == workload::Family::transformer;
    const double runs = std::max(1, w.schedule.runs);
    if (w.task == workload::Task::inference) {
        const double requests = w.inference.requests_per_second * k_seconds_per_hour *
                                w.inference.hours_per_day * (k_days_per_year / k_months_per_year) *
                                w.horizon_months;
        if (requests <= 0.0) {
            return units;
        }
        const double in_tokens = requests * w.inference.input_tokens / 1e6;
        const double out_tokens = requests * w.inference.output_tokens / 1e6;
        if (transformer && out_tokens > 0.0) {
            units.per_million_tokens = total / (in_tokens + out_tokens);
            units.per_million_output_tokens = total / out_tokens;
            if (in_tokens > 0.0) {
                units.per_million_input_tokens = total / in_tokens;
            }
            units.per_thousand_requests = total / (requests / 1000.0);
        } else if (!transformer) {
            units.per_thousand_images = total / (requests / 1000.0);
        }
        return units;
    }
    units.per_run = total / runs;
    if (w.data.epochs > 0.0) {
        units.per_epoch = *units.per_run / w.data.epochs;
    }
    if (transformer && w.data.tokens && *w.data.tokens > 0.0) {
        units.per_million_tokens = total / (*w.data.tokens * runs / 1e6);
    }
    if (!transformer && w.data.samples && *w.data.samples > 0.0) {
        units.per_thousand_images = total / (*w.data.samples * w.data.epochs * runs / 1000.0);
    }
    return units;
}

std::string Option::id() const {
    const IdParts id = id_parts(*this);
    std::string out;
    for (std::size_t i = 0; i < id.count; ++i) {
        if (i > 0) {
            out += '/';
        }
        out += id.parts[i];
    }
    out += id.tail();
    return out;
}

bool id_less(const Option& a, const Option& b) {
    // Equal leading parts (a provider, a region) compare equal with their separators; the walk
    // character by character starts at the first part that differs, so the order is that of the
    // id strings.
    const IdParts pa = id_parts(a);
    const IdParts pb = id_parts(b);
    std::size_t same = 0;
    while (same < pa.count && same < pb.count && pa.parts[same] == pb.parts[same]) {
        ++same;
    }
    if (same == pa.count && same == pb.count) {
        return pa.tail() < pb.tail();
    }
    IdCursor x(pa, same);
    IdCursor y(pb, same);
    for (;;) {
        const int cx = x.next();
        const int cy = y.next();
        if (cx != cy) {
            return cx < cy;
        }
        if (cx == 0) {
            return false;
        }
    }
}

std::string gpus_text(const Option& option) {
    return option.gpu_slice.empty() ? fmt::format("{} x {}", option.gpu_count, option.gpu)
                                    : option.gpu_slice;
}

std::string reason(const Plan& plan, const Option& o) {
    if (!o.rejection) {
        return {};
    }
    const RejectionDetail& d = o.detail;
    switch (*o.rejection) {
    case Rejection::does_not_fit:
        if (!o.gpu_slice.empty()) {
            return fmt::format("needs {:.1f} GiB on one {}, which has {:.1f} GiB (a job never "
                               "spans several slices)",
                               d.value, o.gpu_slice, d.limit);
        }
        return fmt::format("needs {:.1f} GiB per GPU on {} GPUs; {} has {:.0f} GiB", d.value,
                           d.gpu_count, o.gpu, d.limit);
    case Rejection::exceeds_max_gpus:
        return fmt::format("{} GPUs in whole instances; max_gpus is {}", o.gpu_count,
                           static_cast<int>(d.limit));
    case Rejection::gpu_count_mismatch:
        if (!o.gpu_slice.empty()) {
            return fmt::format("a {} is one slice, never combined with others; exactly {} GPUs "
                               "asked",
                               o.gpu_slice, static_cast<int>(d.limit));
        }
        return fmt::format("{} GPUs per node cannot make exactly {} GPUs", o.gpus_per_node,
                           static_cast<int>(d.limit));
    case Rejection::not_interruptible:
        return "spot needs an interruptible workload (constraints.interruptible: true)";
    case Rejection::never_finishes:
        return fmt::format(
            "the work would take more than {:g} years on this option{}",
            k_max_plan_months / k_months_per_year,
            o.purchase == PurchaseOption::spot ? " (spot interruptions outpace progress)" : "");
    case Rejection::no_exchange_rate:
        return fmt::format("no exchange rate from {} to {} in the catalog", o.price_currency,
                           plan.currency);
    case Rejection::misses_deadline:
        return d.service ? fmt::format("the service can start only after the hardware's lead "
                                       "time, past the {:.1f} h deadline",
                                       d.limit)
                         : fmt::format("finishes after {:.1f} h{}; deadline is {:.1f} h", d.value,
                                       d.at_p90 ? " at P90 (spot interruptions)" : "", d.limit);
    case Rejection::over_budget:
        return fmt::format("costs {:.2f} {}; budget is {:.2f} {}", d.value, plan.currency, d.limit,
                           plan.budget ? plan.budget->currency : plan.currency);
    case Rejection::misses_latency_target:
    case Rejection::excluded_by_rule:
        return o.reason;
    }
    return o.reason;
}

namespace {

using workload::Task;
using workload::Workload;

// Larger GPU counts priced per instance type: up to 16 times the minimum (gpuplan's bound; it
// keeps the options priced within five times the minimum-count search).
constexpr int k_max_count_doublings = 4;

// What the serving model leaves out, said among a transformer serving plan's assumptions (E7).
std::string serving_not_modelled(const workload::Inference& in) {
    const bool lengths = in.input_tokens_p90 && in.output_tokens_p90;
    return fmt::format(
        "not modelled: speculative decoding, prefix caching, quantised KV caches other than fp8, "
        "and length distributions ({})",
        lengths ? "beyond the stated P90 lengths" : "input and output lengths at their means");
}

// Bytes per parameter of an exported 16-bit model (the egress of a finished run).
constexpr double k_export_bytes_per_param = 2.0;

bool contains(const std::vector<std::string>& list, std::string_view value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool allowed(const std::vector<PurchaseOption>& list, PurchaseOption option) {
    return std::find(list.begin(), list.end(), option) != list.end();
}

// A workload's estimate on one GPU model and node shape, with the count rounded up to whole
// nodes; every distinct (GPU, shape, count) is estimated once.
class EstimateCache {
public:
    EstimateCache(const Estimator& estimator) : m_memo(estimator) {}

    const estimate::GpuEstimate& get(const catalog::Gpu& gpu, const estimate::NodeShape& shape) {
        const estimate::GpuEstimate& chosen = m_memo.get(gpu, shape, std::nullopt);
        const int per_node = std::max(shape.gpus_per_node, 1);
        const int nodes = std::max(1, (chosen.gpu_count + per_node - 1) / per_node);
        if (nodes * per_node == chosen.gpu_count) {
            return chosen;
        }
        return m_memo.get(gpu, shape, nodes * per_node);
    }
    // The estimate at exactly `gpu_count` GPUs.
    const estimate::GpuEstimate& at(const catalog::Gpu& gpu, const estimate::NodeShape& shape,
                                    int gpu_count) {
        return m_memo.get(gpu, shape, gpu_count);
    }
    // On exactly one GPU (a slice: no layouts across slices).
    const estimate::GpuEstimate& get_one(const catalog::Gpu& gpu,
                                         const estimate::NodeShape& shape) {
        return m_memo.get(gpu, shape, 1);
    }
    [[nodiscard]] std::size_t calls() const { return m_memo.size(); }

private:
    estimate::Memo m_memo;
};

// The machine usage of the workload on `nodes` nodes given its estimate.
Usage usage_of(const Workload& w, const estimate::GpuEstimate& e, int nodes) {
    Usage usage;
    usage.nodes = nodes;
    if (w.task == Task::inference) {
        // wall_hours is service hours per month; the service runs for the whole horizon and is
        // started and stopped once a day unless it runs around the clock.
        usage.busy_hours_per_run = e.wall_hours * w.horizon_months;
        usage.hours_per_day = w.inference.hours_per_day;
        usage.runs = 1;
        usage.session_hours = w.inference.hours_per_day >= k_hours_per_day
                                  ? usage.busy_hours_per_run
                                  : w.inference.hours_per_day;
    } else {
        usage.busy_hours_per_run = e.wall_hours;
        usage.runs = std::max(1, w.schedule.runs);
        usage.every_months = w.schedule.every_months;
    }
    return usage;
}

double useful_gpu_hours(const Workload& w, const estimate::GpuEstimate& e) {
    if (w.task == Task::inference) {
        return e.gpu_hours * w.horizon_months;
    }
    return e.gpu_hours * std::max(1, w.schedule.runs);
}

struct Region {
    std::string_view name;
    std::optional<double> on_demand;
    std::optional<double> spot;
    std::optional<double> monthly; // cheapest monthly subscription, per instance-month
    std::optional<double> yearly;  // cheapest yearly subscription, per instance-year
    std::string_view spot_zone;
    std::optional<Date> as_of;      // of the region's first price row
    std::optional<Date> spot_as_of; // of its first row in the spot zone or with no zone
    std::size_t spot_row = 0;       // position of the cheapest spot row
    std::size_t zoneless_row = static_cast<std::size_t>(-1); // first row without a zone
};

// Price rows grouped by region in catalog order: the cheapest zone's on-demand and spot price,
// and the dates of the rows they came from (a row without a date has the provider's).
std::vector<Region> regions_of(const catalog::Provider& provider,
                               const catalog::Instance& instance) {
    std::vector<Region> regions;
    // Region name -> position; built once an instance has more regions than a scan is worth.
    constexpr std::size_t k_scan_limit = 16;
    std::unordered_map<std::string_view, std::size_t> index;
    auto position = [&](std::string_view name) {
        if (regions.size() <= k_scan_limit) {
            for (std::size_t j = 0; j < regions.size(); ++j) {
                if (regions[j].name == name) {
                    return j;
                }
            }
            return regions.size();
        }
        if (index.empty()) {
            for (std::size_t j = 0; j < regions.size(); ++j) {
                index.emplace(regions[j].name, j);
            }
        }
        return index.try_emplace(name, regions.size()).first->second;
    };
    for (std::size_t i = 0; i < instance.prices.size(); ++i) {
        const catalog::PriceRow& row = instance.prices[i];
        // Rows of a region are often adjacent: try the last region first.
        std::size_t at = regions.size() - 1;
        if (regions.empty() || regions.back().name != row.region) {
            at = position(row.region);
            if (at == regions.size()) {
                Region region;
                region.name = row.region;
                region.as_of = row.as_of.value_or(provider.as_of);
                regions.push_back(region);
            }
        }
        Region* const it = &regions[at];
        if (row.zone.empty() && it->zoneless_row > i) {
            it->zoneless_row = i;
        }
        if (row.on_demand && (!it->on_demand || *row.on_demand < *it->on_demand)) {
            it->on_demand = row.on_demand;
        }
        for (auto [price, best] :
             {std::pair{&row.monthly, &it->monthly}, std::pair{&row.yearly, &it->yearly}}) {
            if (*price && (!*best || **price < **best)) {
                *best = *price;
            }
        }
        if (row.spot && (!it->spot || *row.spot < *it->spot)) {
            it->spot = row.spot;
            it->spot_zone = row.zone;
            it->spot_row = i;
        }
    }
    for (Region& region : regions) {
        if (region.spot && region.spot_zone.empty()) {
            region.spot_as_of = region.as_of;
        } else if (region.spot) {
            const std::size_t row = std::min(region.spot_row, region.zoneless_row);
            region.spot_as_of = instance.prices[row].as_of.value_or(provider.as_of);
        }
    }
    return regions;
}

struct CommitmentChoice {
    catalog::Payment payment = catalog::Payment::no_upfront;
    Commitment commitment;
    bool is_default = false;
};

// The date of the instance's first dated commitment price for a term in a region.
std::optional<Date> reserved_as_of(const catalog::Instance& instance, const Region& region,
                                   catalog::Term term) {
    for (const catalog::ReservedPrice& price : instance.reserved) {
        if (price.term == term && (price.region.empty() || price.region == region.name) &&
            price.as_of) {
            return price.as_of;
        }
    }
    return std::nullopt;
}

// The ways to commit in advance: reservations and prepaid subscriptions.
constexpr std::array<PurchaseOption, 4> k_commitment_kinds{
    PurchaseOption::reserved_1y, PurchaseOption::reserved_3y, PurchaseOption::subscription_monthly,
    PurchaseOption::subscription_yearly};

catalog::Term reserved_term(PurchaseOption kind) {
    return kind == PurchaseOption::reserved_3y ? catalog::Term::three_years
                                               : catalog::Term::one_year;
}

// Reservation prices for a term in a region, into `choices`: the instance's explicit prices,
// else the provider's discounts applied to the on-demand price.
void reserved_for(const catalog::Provider& provider, const catalog::Instance& instance,
                  const Region& region, catalog::Term term,
                  std::vector<CommitmentChoice>& choices) {
    const int months = catalog::term_months(term);
    for (const catalog::ReservedPrice& price : instance.reserved) {
        if (price.term == term && (price.region.empty() || price.region == region.name)) {
            choices.push_back(
                {price.payment, {months, price.effective_per_hour, price.upfront_fraction}, false});
        }
    }
    if (!choices.empty() || !region.on_demand) {
        return;
    }
    for (const catalog::ReservedDiscount& discount : provider.reserved_discounts) {
        if (discount.term == term) {
            const double upfront = discount.payment == catalog::Payment::all_upfront ? 1.0
                                   : discount.payment == catalog::Payment::no_upfront
                                       ? 0.0
                                       : discount.upfront_fraction;
            choices.push_back({discount.payment,
                               {months, *region.on_demand * (1.0 - discount.discount), upfront},
                               discount.is_default});
        }
    }
}

// Commitment prices of `kind` in a region, into `choices` (a buffer reused across regions). A
// subscription is prepaid for each whole period (a 730-hour month, or twelve of them). Terms
// after the first end within `horizon_months` when the region has an on-demand price to pay the
// spill with; else they are bought as needed.
void commitments_for(const catalog::Provider& provider, const catalog::Instance& instance,
                     const Region& region, PurchaseOption kind, double horizon_months,
                     std::vector<CommitmentChoice>& choices) {
    choices.clear();
    if (kind == PurchaseOption::subscription_monthly && region.monthly) {
        choices.push_back(
            {catalog::Payment::all_upfront, {1, *region.monthly / k_hours_per_month, 1.0}, false});
    } else if (kind == PurchaseOption::subscription_yearly && region.yearly) {
        choices.push_back({catalog::Payment::all_upfront,
                           {12, *region.yearly / (12.0 * k_hours_per_month), 1.0},
                           false});
    } else if (kind == PurchaseOption::reserved_1y || kind == PurchaseOption::reserved_3y) {
        reserved_for(provider, instance, region, reserved_term(kind), choices);
    }
    for (CommitmentChoice& choice : choices) {
        choice.commitment.horizon_months = region.on_demand ? horizon_months : 0.0;
    }
}

// The cash flows of an offer at a price of 1 with its hidden costs (storage, egress), as the
// cells that are not zero, month by month in item order: every region prices the same cells.
struct Flows {
    struct Cell {
        std::size_t month = 0;
        std::size_t item = 0;
        double unit = 0.0;   // at a price of 1
        double hidden = 0.0; // not scaled by the price
    };
    std::vector<Cell> cells;
    std::size_t months = 0; // months the flows span
};

Flows flows_of(const CashFlows& unit, const CashFlows& hidden) {
    Flows out;
    out.months = std::max(unit.months.size(), hidden.months.size());
    const std::array<double, k_item_count> none{};
    for (std::size_t k = 0; k < out.months; ++k) {
        const auto& u = k < unit.months.size() ? unit.months[k] : none;
        const auto& h = k < hidden.months.size() ? hidden.months[k] : none;
        for (std::size_t i = 0; i < k_item_count; ++i) {
            if (u[i] != 0.0 || h[i] != 0.0) {
                out.cells.push_back({k, i, u[i], h[i]});
            }
        }
    }
    return out;
}

class Planner {
public:
    Planner(const Workload& w, const catalog::Catalog& c, const Settings& s, const Estimator& e,
            RuleFilter rules)
        : m_workload(w), m_catalog(c), m_settings(s), m_cache(e), m_rules(rules) {}

    Plan run();

private:
    // Output-currency units per unit of `currency`, recorded for the report.
    std::optional<double> fx(const std::string& currency);
    // Prices an instance type at the estimator's count, or at `gpu_count` GPUs when given;
    // `slice`: the part of `gpu` the instance sells, nullptr for whole GPUs.
    void add_cloud(const catalog::Provider& provider, const catalog::Instance& instance,
                   const catalog::Gpu& gpu, const catalog::GpuSlice* slice = nullptr,
                   std::optional<int> gpu_count = std::nullopt);
    // The larger GPU counts an instance type is also priced at (Settings::counts).
    std::vector<int> larger_counts(const catalog::Instance& instance, const catalog::Gpu& gpu);
    // A slice instance, or counts it as not planned (a count above one that is not whole).
    void add_slice(const catalog::Provider& provider, const catalog::Instance& instance,
                   const catalog::Gpu& gpu);
    void add_self_built(const catalog::Build& build, const catalog::Gpu& gpu);
    Option base_option(const catalog::Gpu& gpu, const estimate::GpuEstimate& e, int per_node);
    CashFlows hidden_flows(const estimate::GpuEstimate& e, const Usage& usage,
                           const catalog::Provider& provider, double fx_rate);
    // A provider's negotiated discount and the note that says so.
    struct Discount {
        double fraction = 0.0;
        NoteIndex note = 0;
    };
    // Prices `option` from `flows` at `price` (and `spill` at `spill_price`, when given), less
    // `discount`, in the output currency.
    void finish(Option& option, const Flows& flows, double price, const Discount* discount,
                const Flows* spill = nullptr, double spill_price = 0.0) const;
    // A commitment at a price of 1 for `usage`: its flows, their present value and the hours it
    // leaves unused. Instance types that the workload uses alike share it.
    struct CommittedUsage {
        CashFlows flows;
        CashFlows spill; // node-hours outside the terms, paid on demand
        double npv = 0.0;
        CommitmentUse use;
    };
    const CommittedUsage& committed(const Usage& usage, const Commitment& commitment);
    // Sets the option's feasibility flags and its first rejection; `has_rate`: its price
    // currency converts to the output currency.
    void judge(Option& option, const estimate::GpuEstimate& e, const catalog::Gpu& gpu,
               bool has_rate);
    void compare_self_built();
    // Flags a price converted at a rate dated far from the price (NoteKind::fx_date_gap).
    void note_fx_gap(Option& option);
    // The take-or-pay and spill notes of a commitment used as `use` says; `payment` names how.
    void add_commitment_notes(Option& option, const CommitmentUse& use,
                              const Commitment& commitment, std::string payment);
    // Keeps `note` in the plan's table; its index for Option::notes.
    NoteIndex add_note(Note note) {
        m_plan.notes.push_back(std::move(note));
        return static_cast<NoteIndex>(m_plan.notes.size() - 1);
    }

    const Workload& m_workload;
    const catalog::Catalog& m_catalog;
    const Settings& m_settings;
    EstimateCache m_cache;
    RuleFilter m_rules;
    Plan m_plan;
    std::optional<double> m_budget_rate; // output currency per unit of the budget's currency
    // committed(): by nodes, busy hours per run, hours per day, runs, months between runs,
    // session hours, term months, upfront share and horizon.
    std::map<std::tuple<int, double, double, int, double, double, int, double, double>,
             CommittedUsage>
        m_committed;
    std::map<std::string, double> m_cheapest_on_demand_per_gpu_hour; // GPU -> output currency
    std::size_t m_unusable_spot = 0;    // spot prices at or above on-demand, not offered
    std::size_t m_unplanned_counts = 0; // instance types with a count like 1.5 GPUs
    // note_fx_gap(): by price currency and price date.
    std::map<std::pair<std::string, Date>, std::optional<NoteIndex>> m_fx_gaps;
};

std::optional<double> Planner::fx(const std::string& currency) {
    const auto rate = catalog::fx_rate(m_catalog, currency, m_plan.currency);
    if (!rate) {
        return std::nullopt;
    }
    const bool known = std::any_of(m_plan.fx.begin(), m_plan.fx.end(),
                                   [&currency](const FxUse& use) { return use.from == currency; });
    if (!known && currency != m_plan.currency) {
        const catalog::FxRate* a = catalog::find_fx_rate(m_catalog, currency);
        const catalog::FxRate* b = catalog::find_fx_rate(m_catalog, m_plan.currency);
        const Date as_of =
            std::max(a != nullptr ? a->as_of : Date{}, b != nullptr ? b->as_of : Date{});
        m_plan.fx.push_back({currency, m_plan.currency, *rate, as_of.to_string()});
    }
    return rate;
}

const Planner::CommittedUsage& Planner::committed(const Usage& usage,
                                                  const Commitment& commitment) {
    const auto key = std::tuple{usage.nodes,
                                usage.busy_hours_per_run,
                                usage.hours_per_day,
                                usage.runs,
                                usage.every_months,
                                usage.session_hours,
                                commitment.term_months,
                                commitment.upfront_fraction,
                                commitment.horizon_months};
    auto it = m_committed.find(key);
    if (it == m_committed.end()) {
        Commitment unit = commitment;
        unit.effective_per_hour = 1.0;
        CommittedUsage value;
        value.flows = reserved_cash_flows(usage, unit);
        value.spill = commitment_spill(usage, unit);
        value.npv = finance::npv(m_plan.monthly_rate, value.flows.amounts());
        value.use = commitment_use(usage, unit);
        it = m_committed.emplace(key, std::move(value)).first;
    }
    return it->second;
}

void Planner::add_commitment_notes(Option& option, const CommitmentUse& use,
                                   const Commitment& commitment, std::string payment) {
    if (use.committed_node_hours > 0.0) {
        option.notes.push_back(add_note(
            make_note(NoteKind::commitment_use,
                      {static_cast<double>(use.terms), static_cast<double>(commitment.term_months),
                       use.unused_node_hours(), use.committed_node_hours},
                      std::move(payment))));
    }
    if (use.spill_node_hours > 0.0) {
        option.notes.push_back(add_note(
            make_note(NoteKind::commitment_spill, {use.spill_node_hours, m_workload.horizon_months,
                                                   static_cast<double>(commitment.term_months)})));
    }
}

void Planner::note_fx_gap(Option& option) {
    if (!option.prices_as_of || option.price_currency == m_plan.currency) {
        return;
    }
    const auto key = std::pair{option.price_currency, *option.prices_as_of};
    auto it = m_fx_gaps.find(key);
    if (it == m_fx_gaps.end()) {
        std::optional<NoteIndex> note;
        // The rates used are the newest; their date is that of the newer of the two records.
        Date rate_date;
        for (const std::string& code : {option.price_currency, m_plan.currency}) {
            if (const catalog::FxRate* rate = catalog::find_fx_rate(m_catalog, code)) {
                rate_date = std::max(rate_date, rate->as_of);
            }
        }
        const long days =
            std::labs(rate_date.days_since_epoch() - option.prices_as_of->days_since_epoch());
        const auto then = catalog::fx_rate(m_catalog, option.price_currency, m_plan.currency,
                                           *option.prices_as_of);
        if (days > k_fx_date_gap_days && then) {
            note = add_note(make_note(NoteKind::fx_date_gap,
                                      {static_cast<double>(days), option.fx_rate, *then},
                                      option.prices_as_of->to_string(), rate_date.to_string()));
        }
        it = m_fx_gaps.emplace(key, note).first;
    }
    if (it->second) {
        option.notes.push_back(*it->second);
    }
}

Option Planner::base_option(const catalog::Gpu& gpu, const estimate::GpuEstimate& e, int per_node) {
    Option option;
    option.gpu = gpu.name;
    option.gpus_per_node = per_node;
    option.nodes = std::max(1, (e.gpu_count + per_node - 1) / per_node);
    option.gpu_count = option.nodes * per_node;
    option.fits = e.fits;
    option.gpu_hours = useful_gpu_hours(m_workload, e);
    return option;
}

CashFlows Planner::hidden_flows(const estimate::GpuEstimate& e, const Usage& usage,
                                const catalog::Provider& provider, double fx_rate) {
    // Storage for the dataset and checkpoints in every month the job works, and the finished
    // model exported once per run: both billed by the provider; storage priced in USD.
    CashFlows flows;
    if (m_workload.task == Task::inference) {
        return flows;
    }
    const double usd = fx("USD").value_or(1.0) / fx_rate;
    const Profile profile = usage_profile(usage, 0.0);
    const double gb =
        m_workload.data.dataset_gb.value_or(0.0) + k_checkpoints_kept * e.checkpoint_gb;
    for (std::size_t k = 1; k < profile.node_hours.size(); ++k) {
        if (profile.node_hours[k] > 0.0) {
            flows.add(static_cast<int>(k), Item::storage,
                      gb * m_settings.storage_per_gb_month_usd * usd);
        }
    }
    if (provider.egress_per_gb) {
        const double export_gb =
            m_workload.model.params * k_export_bytes_per_param / k_bytes_per_gb;
        const double runs = std::max(1, m_workload.schedule.runs);
        const int end_month =
            static_cast<int>(std::ceil(profile.end_hour / k_hours_per_month - 1e-9));
        flows.add(std::max(end_month, 1), Item::egress,
                  runs * export_gb * provider.egress_per_gb->value);
    }
    return flows;
}

void Planner::finish(Option& option, const Flows& flows, double price, const Discount* discount,
                     const Flows* spill, double spill_price) const {
    // Each amount is the unit flow at `price`, plus the hidden cost, less the negotiated
    // discount, converted to the output currency; the zero cells add nothing and are skipped.
    const auto horizon = static_cast<std::size_t>(std::ceil(m_workload.horizon_months - 1e-9));
    const std::size_t count =
        std::max({flows.months, spill != nullptr ? spill->months : 0, horizon + 1});
    const double keep = discount != nullptr ? 1.0 - discount->fraction : 1.0;
    if (discount != nullptr) {
        option.notes.push_back(discount->note);
    }
    option.amounts.assign(count, 0.0);
    option.item_totals = {};
    if (m_settings.itemise) {
        option.cash_flows.months.assign(count, {});
    }
    auto add = [&](const Flows& from, double at) {
        for (const Flows::Cell& cell : from.cells) {
            double amount = cell.unit * at;
            if (cell.hidden != 0.0) {
                amount += cell.hidden;
            }
            if (discount != nullptr) {
                amount *= keep;
            }
            amount *= option.fx_rate;
            option.amounts[cell.month] += amount;
            option.item_totals[cell.item] += amount;
            if (m_settings.itemise) {
                option.cash_flows.months[cell.month][cell.item] += amount;
            }
        }
    };
    add(flows, price);
    if (spill != nullptr) {
        add(*spill, spill_price);
    }
    option.npv = finance::npv(m_plan.monthly_rate, option.amounts);
    option.total = std::accumulate(option.amounts.begin(), option.amounts.end(), 0.0);
    option.per_gpu_hour = option.gpu_hours > 0.0 ? option.total / option.gpu_hours : 0.0;
}

void Planner::judge(Option& option, const estimate::GpuEstimate& e, const catalog::Gpu& gpu,
                    bool has_rate) {
    if (has_rate) {
        note_fx_gap(option);
    }
    const workload::Constraints& c = m_workload.constraints;
    // Spot options are judged at their P90 (methodology C5); the others at the estimate's wall
    // time at constraints.deadline_confidence, hardware failures included (E9).
    const double margin =
        e.goodput ? e.goodput->confidence_wall_hours - e.goodput->expected_wall_hours : 0.0;
    const double judged_hours = option.p90_wall_hours.value_or(option.wall_hours + margin);
    if (c.deadline_hours && m_workload.task != Task::inference) {
        option.meets_deadline = judged_hours <= *c.deadline_hours + 1e-9;
    }
    if (c.budget && m_budget_rate) {
        option.within_budget = option.total <= c.budget->amount * *m_budget_rate + 0.005;
    }
    // The first rejection found is the option's; its figures are put into words only if shown.
    auto reject = [&option](Rejection code, double value = 0.0,
                            double limit = 0.0) -> RejectionDetail* {
        if (option.rejection) {
            return nullptr;
        }
        option.rejection = code;
        option.detail.value = value;
        option.detail.limit = limit;
        return &option.detail;
    };
    if (!option.fits) {
        if (RejectionDetail* d =
                reject(Rejection::does_not_fit, e.memory_per_gpu_gib, gpu.memory_gib)) {
            d->gpu_count = e.gpu_count;
        }
    }
    if (c.max_gpus && option.gpu_count > *c.max_gpus) {
        reject(Rejection::exceeds_max_gpus, 0.0, *c.max_gpus);
    }
    if (c.gpu_count && option.gpu_count != *c.gpu_count) {
        reject(Rejection::gpu_count_mismatch, 0.0, *c.gpu_count);
    }
    if (option.purchase == PurchaseOption::spot && !c.interruptible) {
        reject(Rejection::not_interruptible);
    }
    if (!option.finishes) {
        reject(Rejection::never_finishes);
    }
    if (!has_rate) {
        reject(Rejection::no_exchange_rate);
    }
    if (!option.meets_deadline) {
        if (RejectionDetail* d =
                reject(Rejection::misses_deadline, judged_hours, *c.deadline_hours)) {
            d->service = m_workload.task == Task::inference;
            d->at_p90 = option.p90_wall_hours.has_value();
        }
    }
    // A service the estimate found too slow (a latency target, or the request rate) is not an
    // answer, whatever it costs; the estimate's note says what it misses.
    if (m_workload.task == Task::inference && !e.meets_deadline &&
        reject(Rejection::misses_latency_target) != nullptr) {
        for (const std::string& note : e.notes) {
            if (note.rfind("latency_target_missed", 0) == 0 ||
                note.rfind("capacity_exceeded", 0) == 0) {
                option.reason = note;
                break;
            }
        }
        if (option.reason.empty()) {
            option.reason = "the service misses its latency or throughput target";
        }
    }
    if (!option.within_budget) {
        reject(Rejection::over_budget, option.total, c.budget->amount);
    }
}

// The spot risk of an instance: the rate from the flag, the instance, the provider or the
// default, in that order, and the provider's restart time.
std::pair<SpotRisk, std::string> spot_risk(const Settings& settings,
                                           const catalog::Provider& provider,
                                           const catalog::Instance& instance) {
    SpotRisk risk;
    std::string source(k_rate_from_instance);
    if (settings.interruption_rate_per_node_hour) {
        risk.interruption_rate_per_node_hour = *settings.interruption_rate_per_node_hour;
        source = k_rate_from_settings;
    } else if (instance.spot_interruption_rate_per_node_hour) {
        risk.interruption_rate_per_node_hour = instance.spot_interruption_rate_per_node_hour->value;
    } else if (provider.spot) {
        risk.interruption_rate_per_node_hour = provider.spot->interruption_rate_per_node_hour.value;
        source = k_rate_from_provider;
    } else {
        risk.interruption_rate_per_node_hour = k_default_interruption_rate_per_node_hour;
        source = k_rate_from_gpuplan;
    }
    risk.interruption_rate_per_node_hour *= settings.interruption_rate_factor;
    risk.restart_hours =
        (provider.spot ? provider.spot->restart_minutes.value : k_default_restart_minutes) / 60.0;
    return {risk, source};
}

std::vector<int> Planner::larger_counts(const catalog::Instance& instance,
                                        const catalog::Gpu& gpu) {
    std::vector<int> out;
    const workload::Constraints& c = m_workload.constraints;
    if (m_settings.counts != GpuCounts::larger || m_workload.task == Task::inference ||
        c.gpu_count) {
        return out;
    }
    const int per_node = static_cast<int>(instance.gpu_count);
    const estimate::NodeShape shape = estimate::node_shape(instance);
    const estimate::GpuEstimate& least = m_cache.get(gpu, shape);
    if (!least.fits) {
        return out;
    }
    const int cap = c.max_gpus.value_or(workload::k_default_max_gpus);
    double wall = least.wall_hours;
    // Doubling the nodes until the cap, and while each doubling still shortens the run.
    int nodes = std::max(1, (least.gpu_count + per_node - 1) / per_node);
    for (int step = 0; step < k_max_count_doublings && 2 * nodes * per_node <= cap; ++step) {
        nodes *= 2;
        const estimate::GpuEstimate& e = m_cache.at(gpu, shape, nodes * per_node);
        if (!e.fits || e.gpu_count != nodes * per_node || e.wall_hours >= wall) {
            break;
        }
        out.push_back(nodes * per_node);
        wall = e.wall_hours;
    }
    return out;
}

void Planner::add_slice(const catalog::Provider& provider, const catalog::Instance& instance,
                        const catalog::Gpu& gpu) {
    if (const auto slice = catalog::gpu_slice(gpu, instance)) {
        add_cloud(provider, instance, slice_gpu(gpu, *slice), &*slice);
    } else {
        ++m_unplanned_counts;
    }
}

void Planner::add_cloud(const catalog::Provider& provider, const catalog::Instance& instance,
                        const catalog::Gpu& gpu, const catalog::GpuSlice* slice,
                        std::optional<int> gpu_count) {
    // A slice is one GPU of its own figures (gpu is already slice_gpu's): the workload runs on
    // one slice or not at all, never across several.
    const int per_node = slice != nullptr ? 1 : static_cast<int>(instance.gpu_count);
    const estimate::NodeShape shape = estimate::node_shape(instance);
    const estimate::GpuEstimate& e = slice != nullptr ? m_cache.get_one(gpu, shape)
                                     : gpu_count      ? m_cache.at(gpu, shape, *gpu_count)
                                                      : m_cache.get(gpu, shape);
    const auto rate = fx(provider.currency);
    const std::vector<PurchaseOption>& purchase = m_plan.purchase_options;
    const catalog::Billing& billing = provider.billing;

    Option proto = base_option(gpu, e, per_node);
    proto.larger_count = gpu_count.has_value();
    if (slice != nullptr) {
        proto.gpu = instance.gpu;
        proto.gpu_slice = slice->label;
    }
    proto.provider = provider.name;
    proto.instance = instance.type;
    proto.price_currency = provider.currency;
    proto.nvlink = instance.nvlink;
    proto.network_gbps = instance.network_gbps;
    proto.fx_rate = rate.value_or(1.0);
    proto.wall_hours = e.wall_hours;
    const Usage usage = usage_of(m_workload, e, proto.nodes);
    const double max_hours = k_max_plan_months * k_hours_per_month;
    const bool endless = usage_end_hour(usage, 0.0) > max_hours;
    const CashFlows hidden =
        endless ? CashFlows{} : hidden_flows(e, usage, provider, proto.fx_rate);

    // Every region runs the same work: cash flows are linear in the price, so each purchase
    // option's flows at a price of 1 are computed once per instance type and scaled per region.
    const Flows unit_on_demand =
        flows_of(endless ? CashFlows{} : on_demand_cash_flows(usage, 1.0, billing), hidden);
    struct UnitCommitment {
        Flows flows;
        Flows spill;
        double npv = 0.0;
        CommitmentUse use;
    };
    // By term, upfront share and horizon.
    std::map<std::tuple<int, double, double>, UnitCommitment> unit_reserved;
    auto reserved_unit = [&](const Commitment& c) -> const UnitCommitment& {
        const auto key = std::tuple{c.term_months, c.upfront_fraction, c.horizon_months};
        auto it = unit_reserved.find(key);
        if (it == unit_reserved.end()) {
            const CommittedUsage none;
            const CommittedUsage& unit = endless ? none : committed(usage, c);
            it = unit_reserved
                     .emplace(key, UnitCommitment{flows_of(unit.flows, hidden),
                                                  flows_of(unit.spill, {}), unit.npv, unit.use})
                     .first;
        }
        return it->second;
    };
    const auto risk = spot_risk(m_settings, provider, instance);
    SpotRisk spot = risk.first;
    const std::string& risk_source = risk.second;
    SpotOverhead overhead;
    Option spot_proto = proto;
    spot_proto.purchase = PurchaseOption::spot;
    if (m_workload.task == Task::inference) {
        // A service has no lost work to redo, only replacement time to pay for.
        overhead.interruption_rate_per_hour = proto.nodes * spot.interruption_rate_per_node_hour;
        overhead.wall_factor = 1.0 + overhead.interruption_rate_per_hour * spot.restart_hours;
    } else {
        spot.checkpoint_hours = e.checkpoint_gb /
                                (proto.nodes * m_settings.checkpoint_gb_per_s_per_node) /
                                k_seconds_per_hour;
        overhead = spot_overhead(proto.nodes, spot);
        spot_proto.wall_hours = e.wall_hours * overhead.wall_factor;
        // Interruptions arrive as a Poisson process at lambda over the wall time; each costs the
        // work since the last checkpoint (uniform over tau) plus the restart, so the overhead is
        // compound Poisson with variance lambda W E[L^2], E[L^2] = (tau/2 + R)^2 + tau^2/12.
        const double tau = overhead.checkpoint_interval_hours;
        const double loss = tau / 2.0 + spot.restart_hours;
        const double variance = overhead.interruption_rate_per_hour * spot_proto.wall_hours *
                                (loss * loss + tau * tau / 12.0);
        spot_proto.p90_wall_hours = spot_proto.wall_hours + k_z90 * std::sqrt(variance);
    }
    if (m_workload.task != Task::inference && proto.nodes > 1 &&
        spot_proto.wall_hours > k_spot_gang_caveat_hours) {
        spot_proto.notes.push_back(add_note(make_note(
            NoteKind::spot_capacity, {static_cast<double>(proto.nodes), spot_proto.wall_hours})));
    }
    spot_proto.notes.push_back(add_note(
        make_note(NoteKind::spot_risk,
                  {spot.interruption_rate_per_node_hour, static_cast<double>(proto.nodes),
                   e.checkpoint_gb, spot.checkpoint_hours, overhead.checkpoint_interval_hours,
                   spot.restart_hours, overhead.wall_factor},
                  risk_source)));

    std::optional<SpotSimulation> simulation;
    Usage stretched = usage;
    stretched.busy_hours_per_run *= overhead.wall_factor;
    const bool spot_endless = endless || usage_end_hour(stretched, 0.0) > max_hours;
    if (m_settings.simulate > 0 && m_workload.task != Task::inference &&
        allowed(purchase, PurchaseOption::spot) && !spot_endless) {
        simulation = simulate_spot(e.wall_hours, usage.runs, overhead, spot, m_settings.simulate,
                                   m_settings.seed);
    }

    const Flows unit_spot =
        flows_of(spot_endless ? CashFlows{} : spot_cash_flows(usage, 1.0, overhead), hidden);
    proto.finishes = !endless;
    Option on_demand_proto = proto;
    on_demand_proto.purchase = PurchaseOption::on_demand;
    if (billing.granularity_seconds > 1.0 || billing.minimum_seconds > 0.0) {
        on_demand_proto.notes.push_back(add_note(
            make_note(NoteKind::billing, {billing.granularity_seconds, billing.minimum_seconds})));
    }
    spot_proto.finishes = !spot_endless;
    std::optional<Discount> discount;
    if (const auto found = m_settings.provider_discounts.find(provider.name);
        found != m_settings.provider_discounts.end()) {
        discount = Discount{found->second,
                            add_note(make_note(NoteKind::negotiated_discount, {found->second}))};
    }
    const Discount* const discount_used = discount ? &*discount : nullptr;

    // Options are built in place in the plan from a prototype, then priced and judged.
    auto emit = [&](Option& option, const Flows& unit, double price, const Flows* spill = nullptr,
                    double spill_price = 0.0) {
        finish(option, unit, price, discount_used, spill, spill_price);
        judge(option, e, gpu, rate.has_value());
    };
    std::vector<CommitmentChoice> choices;
    for (const Region& region : regions_of(provider, instance)) {
        if (!m_workload.constraints.regions.empty() &&
            !contains(m_workload.constraints.regions, region.name)) {
            continue;
        }
        if (region.on_demand && rate && slice == nullptr) {
            const double per_gpu_hour = *region.on_demand * proto.fx_rate *
                                        (1.0 - (discount ? discount->fraction : 0.0)) /
                                        instance.gpu_count;
            auto [it, inserted] = m_cheapest_on_demand_per_gpu_hour.emplace(gpu.name, per_gpu_hour);
            if (!inserted) {
                it->second = std::min(it->second, per_gpu_hour);
            }
        }
        if (region.on_demand && allowed(purchase, PurchaseOption::on_demand)) {
            Option& option = m_plan.options.emplace_back(on_demand_proto);
            option.region = region.name;
            option.prices_as_of = region.as_of;
            emit(option, unit_on_demand, *region.on_demand);
        }
        for (const PurchaseOption kind : k_commitment_kinds) {
            if (!allowed(purchase, kind)) {
                continue;
            }
            commitments_for(provider, instance, region, kind, m_workload.horizon_months, choices);
            if (choices.empty()) {
                continue;
            }
            // Of the payment plans offered, the one with the lowest present value.
            const CommitmentChoice* best = nullptr;
            double best_npv = std::numeric_limits<double>::infinity();
            for (const CommitmentChoice& choice : choices) {
                const double value =
                    choice.commitment.effective_per_hour * reserved_unit(choice.commitment).npv;
                if (value < best_npv - 1e-9) {
                    best_npv = value;
                    best = &choice;
                }
            }
            Option& option = m_plan.options.emplace_back(proto);
            option.region = region.name;
            option.purchase = kind;
            option.payment = best->payment;
            const bool reserved =
                kind == PurchaseOption::reserved_1y || kind == PurchaseOption::reserved_3y;
            option.prices_as_of =
                reserved
                    ? reserved_as_of(instance, region, reserved_term(kind)).value_or(*region.as_of)
                    : region.as_of;
            const UnitCommitment& unit = reserved_unit(best->commitment);
            add_commitment_notes(option, unit.use, best->commitment,
                                 reserved ? std::string(catalog::to_string(best->payment))
                                          : std::string("prepaid"));
            if (best->is_default) {
                option.notes.push_back(add_note(make_note(NoteKind::default_commitment_price)));
            }
            // A spill exists only where the region has an on-demand price (commitments_for).
            emit(option, unit.flows, best->commitment.effective_per_hour,
                 unit.spill.cells.empty() ? nullptr : &unit.spill, region.on_demand.value_or(0.0));
        }
        // A spot price at or above the region's on-demand price is no discount to gamble on.
        const bool usable_spot =
            region.spot && (!region.on_demand || *region.spot < *region.on_demand);
        if (region.spot && !usable_spot && allowed(purchase, PurchaseOption::spot)) {
            ++m_unusable_spot;
        }
        if (usable_spot && allowed(purchase, PurchaseOption::spot)) {
            Option& option = m_plan.options.emplace_back(spot_proto);
            option.region = region.name;
            option.zone = region.spot_zone;
            option.prices_as_of = region.spot_as_of;
            if (simulation) {
                option.p90_wall_hours = simulation->p90_wall_hours;
                const double per_hour = *region.spot * proto.nodes * proto.fx_rate;
                option.simulation = SpotQuantiles{simulation->samples,
                                                  m_settings.seed,
                                                  simulation->p50_wall_hours,
                                                  simulation->p90_wall_hours,
                                                  simulation->p50_wall_hours * per_hour,
                                                  simulation->p90_wall_hours * per_hour};
                option.notes.push_back(
                    add_note(make_note(NoteKind::spot_simulation,
                                       {static_cast<double>(simulation->samples),
                                        simulation->p50_wall_hours, simulation->p90_wall_hours,
                                        option.simulation->p50_cost, option.simulation->p90_cost},
                                       m_plan.currency, std::to_string(m_settings.seed))));
            }
            emit(option, unit_spot, *region.spot);
        }
    }
}

void Planner::add_self_built(const catalog::Build& build, const catalog::Gpu& gpu) {
    const catalog::SelfBuilt& sb = *m_catalog.self_built;
    const estimate::NodeShape shape{build.gpu_count, build.nvlink, build.network_gbps,
                                    std::nullopt,    std::nullopt, 0};
    const estimate::GpuEstimate& e = m_cache.get(gpu, shape);
    const auto rate = fx(sb.currency);

    Option proto = base_option(gpu, e, build.gpu_count);
    proto.provider = "self_built";
    proto.instance = build.name;
    proto.purchase = PurchaseOption::self_built;
    proto.price_currency = sb.currency;
    proto.prices_as_of = build.as_of;
    proto.nvlink = build.nvlink;
    proto.network_gbps = build.network_gbps;
    proto.fx_rate = rate.value_or(1.0);
    const Usage usage = usage_of(m_workload, e, proto.nodes);

    SelfBuiltPlan plan = self_built_plan(sb, build, proto.nodes, m_workload.horizon_months);

    const auto cheapest = m_cheapest_on_demand_per_gpu_hour.find(gpu.name);
    if (cheapest != m_cheapest_on_demand_per_gpu_hour.end() && rate) {
        const double node_hour = cheapest->second / proto.fx_rate * build.gpu_count;
        proto.break_even_utilisation = break_even_utilisation(plan, node_hour, m_plan.monthly_rate);
    }

    auto emit = [&](bool bridged) {
        Option option = proto;
        option.bridged = bridged;
        option.finishes = usage_end_hour(usage, 0.0) + plan.lead_time_hours <=
                          k_max_plan_months * k_hours_per_month;
        SelfBuiltPlan p = plan;
        if (bridged) {
            p.bridge_price_per_hour = cheapest->second / proto.fx_rate * option.gpu_count;
        }
        const double end = self_built_end_hour(usage, p);
        option.wall_hours = m_workload.task == Task::inference
                                ? e.wall_hours
                                : end - usage_end_hour(usage, 0.0) + e.wall_hours;
        if (m_workload.task == Task::inference && !bridged &&
            m_workload.constraints.deadline_hours &&
            p.lead_time_hours > *m_workload.constraints.deadline_hours) {
            option.meets_deadline = false;
        }
        option.notes.push_back(
            add_note(bridged ? make_note(NoteKind::lead_time_bridged,
                                         {build.lead_time_weeks, cheapest->second}, gpu.name,
                                         m_plan.currency)
                             : make_note(NoteKind::lead_time, {build.lead_time_weeks})));
        if (option.break_even_utilisation) {
            option.notes.push_back(add_note(
                make_note(NoteKind::break_even_utilisation, {*option.break_even_utilisation})));
        }
        finish(option,
               flows_of(option.finishes ? self_built_cash_flows(usage, p) : CashFlows{}, {}), 1.0,
               nullptr);
        judge(option, e, gpu, rate.has_value());
        m_plan.options.push_back(std::move(option));
    };
    emit(false);
    if (m_settings.bridge && build.lead_time_weeks > 0.0 &&
        cheapest != m_cheapest_on_demand_per_gpu_hour.end()) {
        emit(true);
    }
}

// Break-even month of every self-built option against the best ranked cloud option of each
// purchase kind with the same GPU model.
void Planner::compare_self_built() {
    // The best feasible cloud option per (GPU model, purchase kind), found in one pass.
    std::map<std::pair<std::string, PurchaseOption>, const Option*> best;
    for (const Option& cloud : m_plan.options) {
        // A slice is no alternative to owning whole GPUs of the model.
        if (cloud.purchase == PurchaseOption::self_built || cloud.rejection ||
            !cloud.gpu_slice.empty()) {
            continue;
        }
        const Option*& slot = best[{cloud.gpu, cloud.purchase}];
        if (slot == nullptr || cloud.npv < slot->npv ||
            (cloud.npv == slot->npv && id_less(cloud, *slot))) {
            slot = &cloud;
        }
    }
    for (Option& own : m_plan.options) {
        if (own.purchase != PurchaseOption::self_built || own.rejection) {
            continue;
        }
        for (PurchaseOption kind : k_all_purchase_options) {
            const auto found = best.find({own.gpu, kind});
            if (found == best.end()) {
                continue;
            }
            const Option& cloud = *found->second;
            const auto month =
                finance::break_even_month(m_plan.monthly_rate, own.amounts, cloud.amounts);
            own.notes.push_back(add_note(make_note(
                NoteKind::break_even, {month ? static_cast<double>(*month) : -1.0}, cloud.id())));
        }
    }
}

Plan Planner::run() {
    const Workload& w = m_workload;
    m_plan.currency = !m_settings.currency.empty()  ? m_settings.currency
                      : !w.finance.currency.empty() ? w.finance.currency
                                                    : "USD";
    m_plan.discount_rate = w.finance.discount_rate;
    m_plan.monthly_rate = finance::monthly_rate(w.finance.discount_rate);
    m_plan.horizon_months = w.horizon_months;
    m_plan.budget = w.constraints.budget;
    if (w.constraints.budget) {
        m_budget_rate =
            catalog::fx_rate(m_catalog, w.constraints.budget->currency, m_plan.currency);
        if (!m_budget_rate) {
            // A budget nothing converts to would pass every option: refuse it instead.
            throw InputError({{w.name, 0, 0, "/constraints/budget",
                               fmt::format("no exchange rate from {} to {} in the catalog",
                                           w.constraints.budget->currency, m_plan.currency)}});
        }
    }
    m_plan.purchase_options = w.constraints.purchase.empty()
                                  ? std::vector<PurchaseOption>(k_all_purchase_options.begin(),
                                                                k_all_purchase_options.end())
                                  : w.constraints.purchase;
    for (const catalog::Gpu& gpu : m_catalog.gpus) {
        const bool wanted =
            w.constraints.gpu_models.empty() ||
            std::any_of(w.constraints.gpu_models.begin(), w.constraints.gpu_models.end(),
                        [&](const std::string& name) {
                            const catalog::Gpu* found = catalog::find_gpu(m_catalog, name);
                            return found != nullptr && found->name == gpu.name;
                        });
        if (wanted) {
            m_plan.candidate_gpus.push_back(gpu.name);
        }
    }
    // Room for every option up front: growing a vector of thousands of options re-faults pages
    // (and the buffer is a large one, see Options).
    m_plan.options.reserve(catalog::offer_count(m_catalog) * m_plan.purchase_options.size() +
                           (m_catalog.self_built ? 2 * m_catalog.self_built->builds.size() : 0));
    for (const catalog::Provider& provider : m_catalog.providers) {
        if (!w.constraints.providers.empty() && !contains(w.constraints.providers, provider.name)) {
            continue;
        }
        for (const catalog::Instance& instance : provider.instances) {
            const catalog::Gpu* gpu = catalog::find_gpu(m_catalog, instance.gpu);
            if (gpu == nullptr || !contains(m_plan.candidate_gpus, gpu->name)) {
                continue;
            }
            if (catalog::is_slice(instance) ||
                std::floor(instance.gpu_count) != instance.gpu_count) {
                add_slice(provider, instance, *gpu);
                continue;
            }
            add_cloud(provider, instance, *gpu);
            for (const int count : larger_counts(instance, *gpu)) {
                add_cloud(provider, instance, *gpu, nullptr, count);
            }
        }
    }
    // Owning stays in the comparison under a provider filter: it is the alternative to renting
    // that the user weighs; only `purchase` leaves it out.
    if (m_catalog.self_built && allowed(m_plan.purchase_options, PurchaseOption::self_built)) {
        for (const catalog::Build& build : m_catalog.self_built->builds) {
            const catalog::Gpu* gpu = catalog::find_gpu(m_catalog, build.gpu);
            if (gpu != nullptr && contains(m_plan.candidate_gpus, gpu->name)) {
                add_self_built(build, *gpu);
            }
        }
    }
    // A larger count is an alternative only when it is feasible; its minimum-count option already
    // says why the instance type is rejected.
    if (m_settings.counts == GpuCounts::larger) {
        std::erase_if(m_plan.options,
                      [](const Option& option) { return option.larger_count && option.rejection; });
    }
    compare_self_built();
    if (m_rules.decision != nullptr) {
        apply_decision(m_plan, *m_rules.decision, m_rules.excluded);
    }
    if (m_unusable_spot > 0) {
        m_plan.assumptions.push_back(fmt::format(
            "{} spot price{} at or above the region's on-demand price not offered as spot",
            m_unusable_spot, m_unusable_spot == 1 ? "" : "s"));
    }
    if (m_unplanned_counts > 0) {
        m_plan.assumptions.push_back(fmt::format(
            "{} instance type{} with a GPU count above one that is not whole {} not planned (a "
            "slice is part of one GPU)",
            m_unplanned_counts, m_unplanned_counts == 1 ? "" : "s",
            m_unplanned_counts == 1 ? "is" : "are"));
    }
    if (m_workload.task == Task::inference &&
        m_workload.model.family == workload::Family::transformer) {
        m_plan.assumptions.push_back(serving_not_modelled(m_workload.inference));
    }
    m_plan.estimates = m_cache.calls();
    return std::move(m_plan);
}

} // namespace

Plan plan(const workload::Workload& workload, const catalog::Catalog& catalog,
          const Settings& settings, const Estimator& estimator, RuleFilter rules) {
    Planner planner(workload, catalog, settings, estimator, rules);
    return planner.run();
}

SelfBuiltPlan self_built_plan(const catalog::SelfBuilt& self_built, const catalog::Build& build,
                              int nodes, double horizon_months) {
    const catalog::Site& site = self_built.site;
    auto value = [](const std::optional<catalog::Parameter>& p, double fallback) {
        return p ? p->value : fallback;
    };
    return {.nodes = nodes,
            .capex_per_node = build.capex,
            .network_capex_per_node = build.network_capex_per_node,
            .node_kw = build.node_kw,
            .lead_time_hours = build.lead_time_weeks * 7.0 * k_hours_per_day,
            .electricity_per_kwh = value(site.electricity_per_kwh, 0.0),
            .pue = value(site.pue, 1.0),
            .colocation_per_kw_month = value(site.colocation_per_kw_month, 0.0),
            .staff_fte_per_node = value(site.staff_fte_per_node, 0.0),
            .staff_cost_per_fte_year = value(site.staff_cost_per_fte_year, 0.0),
            .maintenance_rate_per_year = value(site.maintenance_rate_per_year, 0.0),
            .utilisation = value(site.utilisation, 1.0),
            .resale_curve = site.resale_curve,
            .horizon_months = horizon_months,
            .bridge_price_per_hour = std::nullopt};
}

namespace {

// The sources of the instance's price rows in `region` (the provider's when a row names none).
std::vector<std::string> price_sources(const catalog::Provider& provider,
                                       const catalog::Instance& instance, std::string_view region) {
    for (const catalog::PriceRow& row : instance.prices) {
        if (row.region == region && !row.sources.empty()) {
            return row.sources;
        }
    }
    return provider.sources;
}

// The sources of the reservation price (or the provider's discount) of a term and payment.
std::vector<std::string> reserved_sources(const catalog::Provider& provider,
                                          const catalog::Instance& instance,
                                          std::string_view region, catalog::Term term,
                                          catalog::Payment payment) {
    for (const catalog::ReservedPrice& price : instance.reserved) {
        if (price.term == term && price.payment == payment &&
            (price.region.empty() || price.region == region) && !price.sources.empty()) {
            return price.sources;
        }
    }
    for (const catalog::ReservedDiscount& discount : provider.reserved_discounts) {
        if (discount.term == term && discount.payment == payment && !discount.sources.empty()) {
            return discount.sources;
        }
    }
    return provider.sources;
}

// The present value of one whole term of `commitment` at a price of 1 per instance-hour.
double term_npv(Commitment commitment, double monthly_rate) {
    const Usage usage{.nodes = 1, .busy_hours_per_run = 1.0};
    commitment.effective_per_hour = 1.0;
    return finance::npv(monthly_rate, reserved_cash_flows(usage, commitment).amounts());
}

} // namespace

std::optional<OfferRates> offer_rates(const catalog::Catalog& catalog, const Option& option,
                                      double monthly_rate) {
    const catalog::Provider* provider = catalog::find_provider(catalog, option.provider);
    if (provider == nullptr) {
        return std::nullopt;
    }
    const auto instance =
        std::find_if(provider->instances.begin(), provider->instances.end(),
                     [&option](const catalog::Instance& i) { return i.type == option.instance; });
    if (instance == provider->instances.end()) {
        return std::nullopt;
    }
    for (const Region& region : regions_of(*provider, *instance)) {
        if (region.name != option.region) {
            continue;
        }
        OfferRates rates;
        rates.fx_rate = option.fx_rate;
        rates.gpus_per_node = option.gpus_per_node;
        rates.on_demand = region.on_demand;
        rates.spot = region.spot && (!region.on_demand || *region.spot < *region.on_demand)
                         ? region.spot
                         : std::nullopt;
        rates.sources = price_sources(*provider, *instance, region.name);
        rates.as_of = region.as_of;
        std::vector<CommitmentChoice> choices;
        for (const PurchaseOption kind : k_commitment_kinds) {
            commitments_for(*provider, *instance, region, kind, 0.0, choices);
            const CommitmentChoice* best = nullptr;
            double best_value = std::numeric_limits<double>::infinity();
            for (const CommitmentChoice& choice : choices) {
                const double value = choice.commitment.effective_per_hour *
                                     term_npv(choice.commitment, monthly_rate);
                if (value < best_value - 1e-9) {
                    best_value = value;
                    best = &choice;
                }
            }
            if (best != nullptr) {
                const bool reserved =
                    kind == PurchaseOption::reserved_1y || kind == PurchaseOption::reserved_3y;
                rates.commitments.push_back(
                    {kind, best->payment, best->commitment, best->is_default,
                     reserved ? reserved_as_of(*instance, region, reserved_term(kind))
                                    .value_or(region.as_of.value_or(Date{}))
                              : region.as_of,
                     reserved ? reserved_sources(*provider, *instance, region.name,
                                                 reserved_term(kind), best->payment)
                              : rates.sources});
            }
        }
        return rates;
    }
    return std::nullopt;
}

} // namespace gpuplan::cost
