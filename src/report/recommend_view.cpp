#include "gpuplan/finance/finance.hpp"
#include "gpuplan/recommend/provenance.hpp"
#include "gpuplan/report/decision_view.hpp"
#include "gpuplan/report/escape.hpp"
#include "gpuplan/report/notes.hpp"
#include "gpuplan/report/recommend.hpp"
#include "gpuplan/report/text_table.hpp"
#include "report/catalog_json.hpp"
#include "report/confidence_view.hpp"
#include "report/cost_outputs.hpp"
#include "report/curve_view.hpp"
#include "report/decision_json.hpp"
#include "report/generator_json.hpp"
#include "report/recommend_screen.hpp"
#include "report/workload_json.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

using nlohmann::ordered_json;

namespace {

constexpr std::size_t k_rejected_shown = 5;

// Significant figures of a unit cost, so that a small one is never rounded to zero.
constexpr int k_unit_cost_digits = 3;

ordered_json optional_unit(const std::optional<double>& value) {
    return value ? ordered_json(*value >= 1.0 ? round_money(*value)
                                              : round_significant(*value, k_unit_cost_digits))
                 : ordered_json(nullptr);
}

// `0.0412 USD` below one unit of the currency (three significant figures), else cents.
std::string format_unit(double value, const std::string& currency) {
    if (value >= 1.0 || value <= 0.0) {
        return format_money(value, currency);
    }
    return fmt::format("{:.{}g} {}", round_significant(value, k_unit_cost_digits),
                       k_unit_cost_digits, currency);
}

ordered_json option_json(const cost::Option& o, std::span<const cost::Note> notes,
                         std::optional<std::size_t> rank, const cost::UnitCosts& units) {
    ordered_json out;
    if (rank) {
        out["rank"] = *rank;
    }
    out["id"] = o.id();
    out["provider"] = o.provider;
    out["region"] = o.region;
    out["zone"] = o.zone.empty() ? ordered_json(nullptr) : ordered_json(o.zone);
    out["instance"] = o.instance;
    out["gpu"] = o.gpu;
    if (!o.gpu_slice.empty()) {
        out["gpu_slice"] = o.gpu_slice;
    }
    out["gpus_per_node"] = o.gpus_per_node;
    out["nodes"] = o.nodes;
    out["gpu_count"] = o.gpu_count;
    out["purchase"] = gpuplan::to_string(o.purchase);
    out["payment"] =
        o.payment ? ordered_json(catalog::to_string(*o.payment)) : ordered_json(nullptr);
    out["wall_hours"] = round_to(o.wall_hours, k_json_hour_digits);
    out["p90_wall_hours"] = o.p90_wall_hours
                                ? ordered_json(round_to(*o.p90_wall_hours, k_json_hour_digits))
                                : ordered_json(nullptr);
    out["gpu_hours"] = round_to(o.gpu_hours, k_json_hour_digits);
    out["meets_deadline"] = o.meets_deadline;
    out["within_budget"] = o.within_budget;
    out["price_basis"] = cost::to_string(o.price_basis);
    out["prices_as_of"] = o.prices_as_of ? o.prices_as_of->to_string() : std::string("undated");
    out["capacity"] = o.purchase == PurchaseOption::spot
                          ? std::string("spot")
                          : std::string(catalog::to_string(o.capacity));
    out["firm"] = o.firm();
    ordered_json risks = ordered_json::array();
    for (const cost::NoteIndex index : o.risks) {
        risks.push_back(ordered_json{{"code", risk_code(notes[index].kind)},
                                     {"text", note_text(notes[index])}});
    }
    out["risks"] = risks;
    out["interconnect"] = ordered_json{
        {"nvlink_domain", o.nvlink_domain},
        {"fabric", catalog::to_string(o.fabric)},
        {"sold_as", catalog::to_string(o.sold_as)},
        {"gbps_per_node", o.network_gbps ? ordered_json(*o.network_gbps) : ordered_json(nullptr)},
        {"source", o.interconnect_sources.empty() ? ordered_json(nullptr)
                                                  : ordered_json(o.interconnect_sources.front())}};
    out["startup_hours"] = round_to(o.startup_hours, k_json_hour_digits);
    ordered_json cost;
    cost["total"] = round_money(o.total);
    cost["npv"] = round_money(o.npv);
    cost["per_gpu_hour"] = round_to(o.per_gpu_hour, 4);
    cost["max_monthly"] = round_money(o.max_monthly);
    cost["breakdown"] = items_json(o.item_totals);
    cost["per_unit"] =
        ordered_json{{"run", optional_unit(units.per_run)},
                     {"epoch", optional_unit(units.per_epoch)},
                     {"million_tokens", optional_unit(units.per_million_tokens)},
                     {"thousand_images", optional_unit(units.per_thousand_images)},
                     {"million_input_tokens", optional_unit(units.per_million_input_tokens)},
                     {"million_output_tokens", optional_unit(units.per_million_output_tokens)},
                     {"thousand_requests", optional_unit(units.per_thousand_requests)}};
    cost["price_currency"] = o.price_currency;
    cost["fx_rate"] = o.fx_rate;
    out["cost"] = cost;
    out["break_even_utilisation"] = o.break_even_utilisation
                                        ? ordered_json(round_to(*o.break_even_utilisation, 4))
                                        : ordered_json(nullptr);
    if (o.simulation) {
        const cost::SpotQuantiles& s = *o.simulation;
        out["simulation"] = ordered_json{{"samples", s.samples},
                                         {"seed", s.seed},
                                         {"p50_wall_hours", round_to(s.p50_wall_hours, 2)},
                                         {"p90_wall_hours", round_to(s.p90_wall_hours, 2)},
                                         {"p50_cost", round_money(s.p50_cost)},
                                         {"p90_cost", round_money(s.p90_cost)}};
    } else {
        out["simulation"] = nullptr;
    }
    out["notes"] = note_texts(notes, o.notes);
    return out;
}

// What the output says about the decision tree: which one, and what it did.
std::string rules_note(const recommend::Recommendation& r) {
    if (!r.decision) {
        return "--no-rules: ranked without the decision tree; every GPU model (or "
               "constraints.gpu_models) and purchase option is a candidate";
    }
    const auto excluded_options = static_cast<std::size_t>(
        std::count_if(r.decision->purchase_options.begin(), r.decision->purchase_options.end(),
                      [](const decide::PurchaseVerdict& v) {
                          return v.status == decide::PurchaseStatus::excluded;
                      }));
    const auto preferred = static_cast<std::size_t>(
        std::count_if(r.decision->candidate_gpus.begin(), r.decision->candidate_gpus.end(),
                      [](const decide::CandidateGpu& c) { return c.preferred; }));
    return fmt::format(
        "decision tree {}: {} GPU model(s) favoured, {} excluded, {} purchase "
        "option(s) excluded{}",
        r.rules_file, preferred, r.decision->excluded_gpus.size(), excluded_options,
        r.explain ? "; excluded options are priced and listed as rejected"
                  : "; options they exclude are left out (--explain prices and lists them)");
}

// The answer's notes among its assumptions: the decision tree's, the price cache's, the plan's.
std::vector<std::string> answer_notes(const recommend::Recommendation& r) {
    std::vector<std::string> notes{rules_note(r)};
    if (r.catalog.cache) {
        notes.push_back(price_cache_note(*r.catalog.cache));
    }
    notes.insert(notes.end(), r.plan.assumptions.begin(), r.plan.assumptions.end());
    return notes;
}

// The decision without a tree: every candidate of the plan, every purchase option it priced.
decide::Decision unruled_decision(const cost::Plan& plan) {
    decide::Decision decision;
    for (const std::string& gpu : plan.candidate_gpus) {
        decision.candidate_gpus.push_back({gpu, false, std::nullopt});
    }
    for (PurchaseOption option : k_all_purchase_options) {
        const bool priced = std::find(plan.purchase_options.begin(), plan.purchase_options.end(),
                                      option) != plan.purchase_options.end();
        decision.purchase_options.push_back(
            {option, priced ? decide::PurchaseStatus::allowed : decide::PurchaseStatus::excluded,
             std::nullopt});
    }
    return decision;
}

// The warning that the best option's price rests on a default, with the best option without one.
std::string default_decides_text(const recommend::Recommendation& r) {
    const recommend::DefaultDecides& d = *r.default_decides;
    const std::string what = d.kind == cost::NoteKind::spot_risk
                                 ? "a placeholder spot interruption rate"
                                 : "a default commitment discount, not a published price";
    if (!d.best_without_defaults) {
        return fmt::format("warning: this answer's price rests on {}, and every ranked option "
                           "rests on a default",
                           what);
    }
    const cost::Option& best = r.plan.options()[r.ranked.front()];
    const cost::Option& sure = r.plan.options()[*d.best_without_defaults];
    return fmt::format("warning: this answer's price rests on {}; the best option priced from "
                       "published figures only is {} at NPV {} ({:+.1f}%)",
                       what, sure.id(), format_money(sure.npv, r.plan.currency),
                       best.npv > 0.0 ? (sure.npv / best.npv - 1.0) * 100.0 : 0.0);
}

// The warning that the best option's prices are old or undated, with how to refresh them.
std::string stale_prices_text(const recommend::StalePrices& s) {
    if (!s.as_of) {
        return "warning: this answer's prices carry no date; check them before relying on them, "
               "or run `gpuplan catalog update` for current public prices";
    }
    return fmt::format("warning: this answer's prices are {:.0f} days old (as of {}; limit {:g} "
                       "days): run `gpuplan catalog update` for current public prices, or give "
                       "your own with --catalog",
                       s.age_days, s.as_of->to_string(), s.limit_days);
}

// `service 730 h a month (24 h a day), 2,449.30 USD a month`.
std::string service_text(const recommend::Service& s, const std::string& currency) {
    return fmt::format("service: {} h a month ({:g} h a day), {} a month on average",
                       format_fixed(s.hours_per_month, 0), s.hours_per_day,
                       format_money(s.cost_per_month, currency));
}

std::string target_text(const recommend::ServiceTarget& t) {
    if (t.what == "requests/s") {
        return fmt::format("{:g} requests/s asked, capacity {:.4g}: {}", t.target, t.achieved,
                           t.met ? "met" : "missed");
    }
    return fmt::format("{} <= {:g} ms, modelled {:.4g} ms: {}", t.what, t.target, t.achieved,
                       t.met ? "met" : "missed");
}

// Each stated target, met or missed, at the targets' percentile.
std::string targets_text(const recommend::Service& s) {
    std::string out = fmt::format("targets at P{}: ", s.percentile);
    for (std::size_t i = 0; i < s.targets.size(); ++i) {
        out += (i > 0 ? "; " : "") + target_text(s.targets[i]);
    }
    if (s.expert_parallel > 1) {
        out += fmt::format("; replicas of {} GPUs, experts over {} with attention data-parallel "
                           "(methodology E7.4)",
                           s.expert_parallel, s.expert_parallel);
    }
    return out;
}

ordered_json service_json(const recommend::Recommendation& r) {
    if (!r.service) {
        return nullptr;
    }
    const recommend::Service& s = *r.service;
    ordered_json targets = ordered_json::array();
    for (const recommend::ServiceTarget& t : s.targets) {
        targets.push_back({{"target", t.what},
                           {"asked", t.target},
                           {"achieved", round_significant(t.achieved, 4)},
                           {"met", t.met}});
    }
    ordered_json out = {{"hours_per_month", round_to(s.hours_per_month, k_json_hour_digits)},
                        {"hours_per_day", s.hours_per_day},
                        {"cost_per_month", round_money(s.cost_per_month)},
                        {"percentile", s.percentile},
                        {"targets", targets}};
    if (s.expert_parallel > 1) {
        out["expert_parallel"] = s.expert_parallel; // the expert layout (methodology E7.4)
    }
    return out;
}

// The members of a group besides the one shown: the regions (best first) and their ids.
void group_json(const recommend::Recommendation& r, const rank::Group& group, ordered_json& out) {
    ordered_json regions = ordered_json::array();
    ordered_json identical = ordered_json::array();
    for (const std::size_t index : group.members) {
        const cost::Option& o = r.plan.options()[index];
        if (std::find(regions.begin(), regions.end(), o.region) == regions.end()) {
            regions.push_back(o.region);
        }
        if (index != group.members.front()) {
            identical.push_back(o.id());
        }
    }
    out["regions"] = regions;
    out["identical"] = identical;
}

// Entries of a decision-view section: each group's rank and its shown option's figures.
ordered_json view_json(const recommend::Recommendation& r, std::span<const std::size_t> groups) {
    ordered_json out = ordered_json::array();
    for (const std::size_t g : groups) {
        const cost::Option& o = r.shown(g);
        ordered_json entry{{"rank", g + 1}, {"id", o.id()}, {"gpu", o.gpu}};
        if (!o.gpu_slice.empty()) {
            entry["gpu_slice"] = o.gpu_slice;
        }
        entry["gpu_count"] = o.gpu_count;
        entry["purchase"] = gpuplan::to_string(o.purchase);
        entry["wall_hours"] = round_to(o.wall_hours, k_json_hour_digits);
        entry["npv"] = round_money(o.npv);
        entry["total"] = round_money(o.total);
        entry["offers"] = r.groups[g].members.size();
        out.push_back(std::move(entry));
    }
    return out;
}

// The groups shown, each its first option with the group's regions and identical offers (and
// its drawn figures with --uncertainty).
ordered_json options_json(const recommend::Recommendation& r) {
    ordered_json options = ordered_json::array();
    for (std::size_t i = 0; i < recommend::shown_count(r); ++i) {
        ordered_json option = option_json(r.shown(i), r.plan.notes, i + 1, r.unit_costs.at(i));
        group_json(r, r.groups[i], option);
        if (r.confidence) {
            const recommend::OptionConfidence* c = option_confidence(r, i);
            option["confidence"] =
                c != nullptr ? option_confidence_json(*c) : ordered_json(nullptr);
        }
        options.push_back(std::move(option));
    }
    return options;
}

std::string recommend_json(const recommend::Recommendation& r, const curve::CurvePlan* curve) {
    const cost::Plan& plan = r.plan;
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, r.generator);
    out["catalog"] = catalog_json(r.catalog);
    out["currency"] = plan.currency;
    out["workload"] = workload_json(r.workload);
    ordered_json assumptions = conventions_json(plan.conventions());
    assumptions["objective"] = rank::to_string(r.objective);
    assumptions["spot_zone"] = "the cheapest zone's spot price of each region";
    assumptions["storage_per_gb_month_usd"] = r.settings.storage_per_gb_month_usd;
    assumptions["checkpoint_gb_per_s_per_node"] = r.settings.checkpoint_gb_per_s_per_node;
    assumptions["interruption_rate_per_node_hour"] =
        r.settings.interruption_rate_per_node_hour
            ? ordered_json(*r.settings.interruption_rate_per_node_hour)
            : ordered_json(nullptr);
    assumptions["bridge"] = r.settings.bridge;
    ordered_json discounts = ordered_json::object();
    for (const auto& [provider, discount] : r.settings.provider_discounts) {
        discounts[provider] = discount;
    }
    assumptions["provider_discounts"] = discounts;
    assumptions["simulate"] =
        r.settings.simulate > 0
            ? ordered_json{{"samples", r.settings.simulate}, {"seed", r.settings.seed}}
            : ordered_json(nullptr);
    assumptions["estimates"] = plan.estimates;
    assumptions["notes"] = answer_notes(r);
    out["assumptions"] = assumptions;
    out["decision"] = r.decision ? decision_json(*r.decision, r.rules_file)
                                 : decision_json(unruled_decision(plan), "");
    out["options"] = options_json(r);
    out["ranked_total"] = r.ranked.size();
    out["groups_total"] = r.groups.size();
    out["best_per_purchase"] = view_json(r, r.best_per_purchase);
    out["best_per_gpu"] = view_json(r, r.best_per_gpu);
    out["frontier"] = view_json(r, r.frontier);
    out["service"] = service_json(r);
    ordered_json rejected = ordered_json::array();
    for (std::size_t index : r.rejected) {
        const cost::Option& o = plan.options()[index];
        rejected.push_back({{"id", o.id()},
                            {"reason_code", cost::to_string(*o.rejection)},
                            {"reason", cost::reason(plan, o)}});
    }
    out["rejected"] = rejected;
    ordered_json left_out = ordered_json::array();
    for (const recommend::LeftOut& item : r.left_out) {
        left_out.push_back({{"id", item.option.id()},
                            {"would_rank", item.would_rank},
                            {"npv", round_money(item.option.npv)},
                            {"total", round_money(item.option.total)},
                            {"reason", cost::reason(plan, item.option)}});
    }
    out["left_out"] = left_out;
    if (r.default_decides) {
        const recommend::DefaultDecides& d = *r.default_decides;
        const auto sure = d.best_without_defaults;
        out["default_decides"] = {
            {"default", d.kind == cost::NoteKind::spot_risk ? "spot_interruption_rate"
                                                            : "commitment_discount"},
            {"best_without_defaults",
             sure ? ordered_json(plan.options()[*sure].id()) : ordered_json(nullptr)},
            {"npv_without_defaults",
             sure ? ordered_json(round_money(plan.options()[*sure].npv)) : ordered_json(nullptr)},
            {"message", default_decides_text(r)}};
    } else {
        out["default_decides"] = nullptr;
    }
    if (r.stale_prices) {
        const recommend::StalePrices& s = *r.stale_prices;
        out["stale_prices"] = {
            {"as_of", s.as_of ? ordered_json(s.as_of->to_string()) : ordered_json(nullptr)},
            {"age_days", s.as_of ? ordered_json(s.age_days) : ordered_json(nullptr)},
            {"limit_days", s.limit_days},
            {"message", stale_prices_text(s)}};
    } else {
        out["stale_prices"] = nullptr;
    }
    out["confidence"] = confidence_json(r);
    if (curve != nullptr) {
        put_curve_json(out, *curve);
    }
    return out.dump(2) + "\n";
}

std::string headline(const recommend::Recommendation& r) {
    const workload::Workload& w = r.workload;
    return fmt::format("{} ({}): horizon {:g} months, discount {}/yr, {}",
                       w.name.empty() ? std::string("workload") : escape_control(w.name),
                       workload::to_string(w.task), w.horizon_months, percent(r.plan.discount_rate),
                       r.plan.currency);
}

// `per run 1.00 USD, per epoch 1.00 USD, ...` for the unit costs that apply.
std::string unit_costs_text(const cost::UnitCosts& units, const std::string& currency) {
    std::string text;
    auto add = [&](const char* label, const std::optional<double>& value) {
        if (value) {
            text += fmt::format("{}{} {}", text.empty() ? "" : ", ", label,
                                format_unit(*value, currency));
        }
    };
    add("per run", units.per_run);
    add("per epoch", units.per_epoch);
    const bool serving = units.per_million_output_tokens.has_value();
    add(serving ? "per 1M tokens (input + output)" : "per 1M tokens", units.per_million_tokens);
    add("per 1,000 images", units.per_thousand_images);
    add(serving || !units.per_thousand_requests ? "per 1M input tokens" : "per 1M embedded tokens",
        units.per_million_input_tokens);
    add("per 1M output tokens", units.per_million_output_tokens);
    add("per 1,000 requests", units.per_thousand_requests);
    return text;
}

// `9 regions`, `2 types, 1 region`: where a group's identical offers are.
std::string where_text(const rank::Group& group) {
    std::string out = group.instances > 1 ? fmt::format("{} types, ", group.instances) : "";
    return out + fmt::format("{} region{}", group.regions, group.regions == 1 ? "" : "s");
}

std::string wall_header(const recommend::Recommendation& r) {
    return is_service(r) ? "h/month" : "wall";
}

// Undiscounted cost a month on average over the horizon.
double per_month(const recommend::Recommendation& r, const cost::Option& o) {
    return r.plan.horizon_months > 0.0 ? o.total / r.plan.horizon_months : o.total;
}

// `meets`/`misses` a deadline the workload states; `-` without one.
std::string deadline_text(const recommend::Recommendation& r, const cost::Option& o) {
    if (!r.workload.constraints.deadline_hours) {
        return "-";
    }
    return o.meets_deadline ? "meets" : "misses";
}

// `all_columns` (markdown, --wide) adds total, per GPU-hour, deadline and budget. The id comes last
// and whole: too wide for its row, on a line of its own under it.
TextTable options_table(const recommend::Recommendation& r, bool all_columns) {
    const bool where = std::any_of(r.groups.begin(), r.groups.end(),
                                   [](const rank::Group& g) { return g.members.size() > 1; });
    TextTable table;
    table.add_column("#", Align::right);
    if (where) {
        table.add_column("where");
    }
    table.add_column("GPUs", Align::right);
    table.add_column(wall_header(r), Align::right);
    if (is_service(r) && all_columns) {
        table.add_column("per month", Align::right);
    }
    table.add_column("NPV", Align::right);
    if (all_columns) {
        table.add_column("total", Align::right);
        table.add_column("per GPU-h", Align::right);
        table.add_column("deadline");
        table.add_column("budget");
    }
    table.add_column("option", Align::left, 0, Cut::spill);
    for (std::size_t i = 0; i < recommend::shown_count(r); ++i) {
        const cost::Option& o = r.shown(i);
        std::vector<std::string> row{std::to_string(i + 1)};
        if (where) {
            row.push_back(where_text(r.groups[i]));
        }
        row.push_back(o.gpu_slice.empty() ? std::to_string(o.gpu_count) : o.gpu_slice);
        row.push_back(wall_text(r, o));
        if (is_service(r) && all_columns) {
            row.push_back(format_fixed(per_month(r, o), 2));
        }
        row.push_back(format_fixed(o.npv, 2));
        if (all_columns) {
            row.push_back(format_fixed(o.total, 2));
            row.push_back(format_fixed(o.per_gpu_hour, 4));
            row.push_back(deadline_text(r, o));
            row.emplace_back(o.within_budget ? "within" : "over");
        }
        row.push_back(o.id());
        table.add_row(std::move(row));
    }
    return table;
}

// A decision-view section: the first column names what each row is the best of.
TextTable view_table(const recommend::Recommendation& r, std::span<const std::size_t> groups,
                     const std::string& first) {
    TextTable table;
    if (!first.empty()) {
        table.add_column(first);
    }
    table.add_column("GPUs", Align::right);
    table.add_column(wall_header(r), Align::right);
    table.add_column("NPV", Align::right);
    table.add_column("rank", Align::right);
    table.add_column("option", Align::left, 0, Cut::spill);
    for (const std::size_t g : groups) {
        const cost::Option& o = r.shown(g);
        std::vector<std::string> row;
        if (first == "purchase") {
            row.emplace_back(gpuplan::to_string(o.purchase));
        } else if (!first.empty()) {
            row.push_back(o.gpu);
        }
        row.push_back(o.gpu_slice.empty() ? std::to_string(o.gpu_count) : o.gpu_slice);
        row.push_back(wall_text(r, o));
        row.push_back(format_fixed(o.npv, 2));
        row.push_back(std::to_string(g + 1));
        row.push_back(o.id());
        table.add_row(std::move(row));
    }
    return table;
}

// Best per purchase option, best per GPU model and the cost/time frontier.
std::string view_sections(const recommend::Recommendation& r, bool markdown, std::size_t width) {
    std::string out;
    const auto section = [&](const std::string& title, const TextTable& table) {
        out += markdown ? "\n## " + title + "\n\n" : "\n" + title + ":\n";
        out += markdown ? table.render_markdown() : table.render_text(width);
    };
    section("Best per purchase option", view_table(r, r.best_per_purchase, "purchase"));
    section("Best per GPU model", view_table(r, r.best_per_gpu, "GPU"));
    if (!r.frontier.empty()) {
        section(fmt::format("Cost against time: {} option{} none beats on both, fastest first",
                            r.frontier.size(), r.frontier.size() == 1 ? "" : "s"),
                view_table(r, r.frontier, ""));
    }
    return out;
}

// `\n## title\n\n` in markdown, `\ntitle\n` on a terminal: the line that opens a part of the
// answer.
std::string part_heading(const std::string& title, bool markdown) {
    return markdown ? "\n## " + title + "\n\n" : "\n" + title + "\n";
}

// The headline and what was ranked, rejected and shown.
std::string summary_text(const recommend::Recommendation& r, bool markdown) {
    std::string out = markdown ? fmt::format("# gpuplan recommend: {}\n\n{}.\n\n",
                                             escape_control(r.workload.name), headline(r))
                               : headline(r) + "\n";
    out += fmt::format("{} ranked by {}{}, {} rejected, {} shown; {}\n\n", r.ranked.size(),
                       rank::to_string(r.objective),
                       r.groups.size() == r.ranked.size()
                           ? std::string()
                           : fmt::format(" ({} distinct offers)", r.groups.size()),
                       r.rejected.size(), recommend::shown_count(r),
                       is_service(r) ? "a service: h/month = service hours a month"
                                     : "wall = until the first run ends");
    return out;
}

// The best option's lines under the table: service, unit costs, notes and warnings.
std::string best_notes_text(const recommend::Recommendation& r, const std::string& bullet) {
    const cost::Plan& plan = r.plan;
    std::string out;
    if (r.service) {
        out += bullet + service_text(*r.service, plan.currency);
        if (r.workload.inference.engine != workload::Engine::generic) {
            out += fmt::format("; engine {}", workload::to_string(r.workload.inference.engine));
        }
        out += "\n" + bullet + targets_text(*r.service) + "\n";
    }
    if (!r.unit_costs.empty()) {
        const std::string units = unit_costs_text(r.unit_costs.front(), plan.currency);
        if (!units.empty()) {
            out += bullet + units + "\n";
        }
    }
    for (const cost::NoteIndex note : r.shown(0).notes) {
        out += bullet + note_text(plan.notes[note]) + "\n";
    }
    if (r.default_decides) {
        out += bullet + default_decides_text(r) + "\n";
    }
    if (r.stale_prices) {
        out += bullet + stale_prices_text(*r.stale_prices) + "\n";
    }
    return out;
}

// How firm the best answer is; the soft answers that would save money and what they rest on;
// the cheaper gang a provider sells no cluster for.
std::string firmness_text(const recommend::Recommendation& r, const std::string& bullet) {
    const cost::Plan& plan = r.plan;
    const cost::Option& best = r.shown(0);
    std::string out;
    if (best.firm()) {
        out += fmt::format(
            "{}firm: a {} price{}, {} capacity\n", bullet, cost::to_string(best.price_basis),
            best.prices_as_of ? " of " + best.prices_as_of->to_string() : "",
            best.purchase == PurchaseOption::spot ? std::string_view("spot")
                                                  : catalog::to_string(best.capacity));
    } else {
        out += fmt::format("{}soft: {}\n", bullet, note_text(plan.notes[best.risks.front()]));
    }
    constexpr std::size_t k_soft_shown = 2;
    std::size_t shown = 0;
    for (const std::size_t index : r.ranked) {
        const cost::Option& o = plan.options()[index];
        if (shown == k_soft_shown) {
            break;
        }
        if (o.firm() || o.npv >= best.npv || best.npv <= 0.0) {
            continue;
        }
        out +=
            fmt::format("{}soft answer {} saves {:.0f}%: {}\n", bullet, o.id(),
                        100.0 * (1.0 - o.npv / best.npv), note_text(plan.notes[o.risks.front()]));
        ++shown;
    }
    for (const std::size_t index : r.rejected) {
        const cost::Option& o = plan.options()[index];
        if (o.rejection == cost::Rejection::needs_cluster && o.npv < best.npv) {
            out += fmt::format("{}{}\n", bullet, cost::reason(plan, o));
            break;
        }
    }
    return out;
}

// The ranked options, the best of them with its notes, and the decision views.
std::string ranked_text(const recommend::Recommendation& r, bool markdown, std::size_t width,
                        const std::string& bullet) {
    if (r.ranked.empty()) {
        return "No feasible option.\n";
    }
    const cost::Plan& plan = r.plan;
    const TextTable table = options_table(r, markdown || width == 0);
    std::string out = markdown ? table.render_markdown() : table.render_text(width);
    const cost::Option& best = r.shown(0);
    out += part_heading(fmt::format("Best: {} ({}), NPV {}, total {}", escape_control(best.id()),
                                    cost::gpus_text(best), format_money(best.npv, plan.currency),
                                    format_money(best.total, plan.currency)),
                        markdown);
    out += firmness_text(r, bullet);
    out += best_notes_text(r, bullet);
    out += view_sections(r, markdown, width);
    return out;
}

// The rejected options by reason, the first few (every one with --explain) with theirs.
std::string rejected_text(const recommend::Recommendation& r, bool markdown,
                          const std::string& bullet) {
    std::string out = part_heading(
        fmt::format("Rejected: {} ({})", r.rejected.size(), counts_text(r.rejection_counts)),
        markdown);
    const std::size_t listed =
        r.explain ? r.rejected.size() : std::min(k_rejected_shown, r.rejected.size());
    for (std::size_t i = 0; i < listed; ++i) {
        const cost::Option& o = r.plan.options()[r.rejected[i]];
        out += fmt::format("{}{}: {}\n", bullet, o.id(), cost::reason(r.plan, o));
    }
    return out;
}

// The options the rules left out that would otherwise rank near the top.
std::string left_out_text(const recommend::Recommendation& r, bool markdown,
                          const std::string& bullet) {
    std::string out = part_heading(
        fmt::format("Left out by the rules: {} that would rank in the top {} without them "
                    "(--explain lists every exclusion)",
                    r.left_out.size(), recommend::k_left_out_rank),
        markdown);
    for (const recommend::LeftOut& item : r.left_out) {
        out += fmt::format("{}{} (would rank {}, NPV {}): {}\n", bullet, item.option.id(),
                           item.would_rank, format_money(item.option.npv, r.plan.currency),
                           cost::reason(r.plan, item.option));
    }
    return out;
}

// The confidence block on a terminal: the summary, the flips and each drawn option shown.
std::string confidence_text(const recommend::Recommendation& r, const std::string& bullet) {
    std::string out = "\nConfidence: #1 is " + confidence_line(r) + "\n";
    for (const std::string& line : flip_lines(r)) {
        out += bullet + line + "\n";
    }
    for (const recommend::OptionConfidence& o : r.confidence->options) {
        if (o.group >= recommend::shown_count(r)) {
            break;
        }
        const std::string time = !is_service(r) ? "wall P90 " + format_duration(o.wall_p90_hours)
                                 : o.latency_p90_ms
                                     ? fmt::format("latency P90 {:.4g} ms", *o.latency_p90_ms)
                                     : std::string("no time target");
        out += fmt::format("{}#{}: best in {:.0f}%, meets the constraints in {:.0f}%, NPV P50 {} "
                           "P90 {}, {}\n",
                           bullet, o.group + 1, 100.0 * o.p_best, 100.0 * o.p_meets,
                           format_money(o.npv_p50, r.plan.currency),
                           format_money(o.npv_p90, r.plan.currency), time);
    }
    return out;
}

// The discounting, the exchange rates and the answer's notes.
std::string assumptions_text(const recommend::Recommendation& r, bool markdown,
                             const std::string& bullet) {
    const cost::Plan& plan = r.plan;
    std::string out = markdown ? "\n## Assumptions\n\n" : "\nAssumptions:\n";
    out += fmt::format("{}monthly rate (1 + {})^(1/12) - 1 = {}; month 0 undiscounted\n", bullet,
                       plan.discount_rate, format_fixed(plan.monthly_rate * 100.0, 4) + "%");
    for (const cost::FxUse& fx : plan.fx) {
        out += fmt::format("{}1 {} = {} {} (as of {})\n", bullet, fx.from, format_price(fx.rate),
                           fx.to, fx.as_of);
    }
    for (const std::string& note : answer_notes(r)) {
        out += bullet + note + "\n";
    }
    return out;
}

// `width` 0 (--wide) shows every column and fits nothing.
std::string recommend_text(const recommend::Recommendation& r, bool markdown, std::size_t width,
                           const curve::CurvePlan* curve) {
    const std::string bullet = markdown ? "- " : "  ";
    std::string out = summary_text(r, markdown);
    out += ranked_text(r, markdown, width, bullet);
    if (curve != nullptr && markdown) {
        out += curve_text(*curve, r.plan.currency, true);
    }
    if (!r.rejected.empty()) {
        out += rejected_text(r, markdown, bullet);
    }
    if (!r.left_out.empty()) {
        out += left_out_text(r, markdown, bullet);
    }
    if (r.confidence) {
        out += markdown ? "\n" + confidence_markdown(r) : confidence_text(r, bullet);
    }
    out += assumptions_text(r, markdown, bullet);
    if (r.decision) {
        out += "\n" + render_why(*r.decision, markdown ? Format::markdown : Format::table,
                                 r.explain ? WhyDetail::full : WhyDetail::fired, width);
    }
    return markdown ? out : wrap_lines(out, width);
}

} // namespace

std::string price_cache_note(const recommend::PriceCache& cache) {
    return fmt::format("prices of {} from the price cache {}, downloaded {} from {} by gpuplan "
                       "catalog update (--offline ignores it)",
                       fmt::join(cache.providers, ", "), cache.file, cache.downloaded_at,
                       cache.source);
}

std::string render_recommend(const recommend::Recommendation& report, Format format,
                             std::size_t width, const Screen& screen,
                             const curve::CurvePlan* curve) {
    switch (format) {
    case Format::json:
        return recommend_json(report, curve);
    case Format::markdown:
        return recommend_text(report, true, 0, curve);
    case Format::table: {
        std::string first = first_screen(report, screen, width);
        if (curve != nullptr) {
            first += wrap_lines(curve_text(*curve, report.plan.currency, false), width);
        }
        if (!screen.details && !report.explain && width != 0) {
            return first;
        }
        return first + "\n" + recommend_text(report, false, width, nullptr);
    }
    }
    return {};
}

} // namespace gpuplan::report
