#include "gpuplan/report/decision_view.hpp"

#include "gpuplan/report/text_table.hpp"
#include "report/decision_json.hpp"
#include "report/generator_json.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuplan::report {

using decide::Branch;
using decide::Condition;
using decide::Decision;
using decide::Facts;
using decide::FactValue;
using decide::Node;
using decide::Tree;
using nlohmann::ordered_json;

namespace {

// Word-wraps `text` to `width` columns (0: one line), every line starting with `indent`.
std::string wrap(const std::string& text, const std::string& indent, std::size_t width) {
    if (text.find_first_not_of(' ') == std::string::npos) {
        return {};
    }
    const std::size_t room =
        width == 0 ? std::string::npos : width - std::min(indent.size(), width / 2);
    std::string out;
    for (const std::string& line : wrap_words(text, room)) {
        out += indent + line + "\n";
    }
    return out;
}

std::string join(const std::vector<std::string>& items, std::string_view separator = ", ") {
    return fmt::format("{}", fmt::join(items, separator));
}

std::string sources_suffix(const std::vector<std::string>& sources) {
    return sources.empty() ? std::string() : " [" + join(sources) + "]";
}

std::string fact_uses(const std::vector<decide::FactUse>& uses) {
    std::vector<std::string> parts;
    parts.reserve(uses.size());
    for (const decide::FactUse& use : uses) {
        parts.push_back(use.fact + " = " +
                        (use.value ? decide::describe(*use.value) : std::string("unknown")));
    }
    return join(parts);
}

std::string effects_or_none(const std::vector<std::string>& effects) {
    return effects.empty() ? std::string("no effect") : join(effects, "; ");
}

// ---- the tree --------------------------------------------------------------------------------

struct NamedBranch {
    std::string_view key;
    const Branch* branch;
};

std::vector<NamedBranch> branches_of(const Node& node) {
    std::vector<NamedBranch> out{{"then", &node.on_true}, {"else", &node.on_false}};
    if (node.on_missing) {
        out.push_back({"missing", &*node.on_missing});
    }
    return out;
}

std::string branch_summary(const Branch& branch) {
    std::string out = effects_or_none(decide::describe_effects(branch));
    return out + (branch.next.empty() ? " (end)" : " -> " + branch.next);
}

std::string tree_text(const Tree& tree, std::size_t width) {
    std::string out =
        wrap_lines(fmt::format("Decision tree {}: {} node{}, starting at {}\n", tree.file,
                               tree.nodes.size(), tree.nodes.size() == 1 ? "" : "s", tree.root),
                   width);
    for (const Node& node : tree.nodes) {
        out += wrap_lines(fmt::format("\n[{}] {}\n", node.id, decide::describe(node.test)), width);
        out += wrap(node.why + sources_suffix(node.sources), "    ", width);
        for (const NamedBranch& named : branches_of(node)) {
            out += wrap_lines(fmt::format("  {}: {}\n", named.key, branch_summary(*named.branch)),
                              width);
            if (!named.branch->why.empty()) {
                out +=
                    wrap(named.branch->why + sources_suffix(named.branch->sources), "    ", width);
            }
        }
    }
    if (!tree.sources.empty()) {
        out += "\nSources\n";
        for (const auto& [id, source] : tree.sources) {
            out += fmt::format("  {}\n", id);
            out += wrap(source.title + (source.url.empty() ? "" : " " + source.url), "    ", width);
        }
    }
    return out;
}

std::string tree_markdown(const Tree& tree) {
    std::string out =
        fmt::format("# Decision tree\n\n`{}`: {} node{}, starting at `{}`.\n", tree.file,
                    tree.nodes.size(), tree.nodes.size() == 1 ? "" : "s", tree.root);
    for (const Node& node : tree.nodes) {
        out += fmt::format("\n## `{}`\n\nTest: `{}`\n\n{}{}\n\n", node.id,
                           decide::describe(node.test), node.why, sources_suffix(node.sources));
        TextTable table;
        table.add_column("outcome");
        table.add_column("effects");
        table.add_column("next");
        table.add_column("why");
        for (const NamedBranch& named : branches_of(node)) {
            table.add_row({std::string(named.key),
                           effects_or_none(decide::describe_effects(*named.branch)),
                           named.branch->next.empty() ? "(end)" : named.branch->next,
                           named.branch->why + sources_suffix(named.branch->sources)});
        }
        out += table.render_markdown();
    }
    if (!tree.sources.empty()) {
        out += "\n## Sources\n\n";
        TextTable table;
        table.add_column("id");
        table.add_column("title");
        table.add_column("url");
        for (const auto& [id, source] : tree.sources) {
            table.add_row({id, source.title, source.url});
        }
        out += table.render_markdown();
    }
    return out;
}

ordered_json condition_json(const Condition& condition) {
    switch (condition.kind) {
    case Condition::Kind::compare: {
        ordered_json out;
        out["fact"] = condition.fact;
        if (condition.op == decide::Op::in || condition.op == decide::Op::not_in) {
            ordered_json values = ordered_json::array();
            for (const FactValue& value : condition.values) {
                values.push_back(fact_value_json(value));
            }
            out[std::string(decide::to_string(condition.op))] = values;
        } else {
            out[std::string(decide::to_string(condition.op))] =
                condition.values.empty() ? ordered_json() : fact_value_json(condition.values[0]);
        }
        return out;
    }
    case Condition::Kind::all:
    case Condition::Kind::any: {
        ordered_json children = ordered_json::array();
        for (const Condition& child : condition.children) {
            children.push_back(condition_json(child));
        }
        return {{condition.kind == Condition::Kind::all ? "all" : "any", children}};
    }
    case Condition::Kind::negate:
        return {{"not", condition.children.empty() ? ordered_json()
                                                   : condition_json(condition.children[0])}};
    }
    return {};
}

ordered_json branch_json(const Branch& branch) {
    ordered_json purchase_prefer = ordered_json::array();
    for (PurchaseOption option : branch.purchase.prefer) {
        purchase_prefer.push_back(to_string(option));
    }
    ordered_json purchase_exclude = ordered_json::array();
    for (PurchaseOption option : branch.purchase.exclude) {
        purchase_exclude.push_back(to_string(option));
    }
    ordered_json out;
    out["effects"] = decide::describe_effects(branch);
    out["gpus"] = {{"prefer", branch.gpus.prefer},
                   {"exclude", branch.gpus.exclude},
                   {"only", branch.gpus.only}};
    out["purchase"] = {{"prefer", purchase_prefer}, {"exclude", purchase_exclude}};
    out["interconnect"] = {
        {"nvlink", branch.interconnect.nvlink},
        {"min_network_gbps", branch.interconnect.min_network_gbps
                                 ? ordered_json(*branch.interconnect.min_network_gbps)
                                 : ordered_json()}};
    out["why"] = branch.why;
    out["sources"] = branch.sources;
    out["next"] = branch.next.empty() ? ordered_json() : ordered_json(branch.next);
    return out;
}

std::string tree_json(const Tree& tree, const GeneratorInfo& generator) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, generator);
    out["file"] = tree.file;
    out["root"] = tree.root;
    ordered_json nodes = ordered_json::array();
    for (const Node& node : tree.nodes) {
        ordered_json entry;
        entry["id"] = node.id;
        entry["test"] = decide::describe(node.test);
        entry["condition"] = condition_json(node.test);
        entry["why"] = node.why;
        entry["sources"] = node.sources;
        for (const NamedBranch& named : branches_of(node)) {
            entry[std::string(named.key)] = branch_json(*named.branch);
        }
        nodes.push_back(entry);
    }
    out["nodes"] = nodes;
    ordered_json sources = ordered_json::array();
    for (const auto& [id, source] : tree.sources) {
        sources.push_back({{"id", id},
                           {"title", source.title},
                           {"url", source.url},
                           {"grade", source.grade},
                           {"note", source.note}});
    }
    out["sources"] = sources;
    return out.dump(2) + "\n";
}

// ---- one decision ------------------------------------------------------------------------------

std::string interconnect_text(const decide::InterconnectRequirement& need) {
    std::vector<std::string> parts;
    if (need.nvlink) {
        parts.push_back("NVLink inside each multi-GPU node (" +
                        (need.nvlink_reason ? need.nvlink_reason->rule : std::string()) + ")");
    }
    if (need.min_network_gbps) {
        parts.push_back(fmt::format("{} Gbps or more between nodes ({})",
                                    decide::describe(FactValue{*need.min_network_gbps}),
                                    need.network_reason ? need.network_reason->rule : ""));
    }
    return parts.empty() ? std::string("no requirement") : join(parts, "; ");
}

// The candidates, preferred ones marked `*` (escaped for markdown, where `*` starts emphasis).
std::string candidates_text(const Decision& decision, std::string_view mark = "*") {
    std::vector<std::string> names;
    for (const decide::CandidateGpu& candidate : decision.candidate_gpus) {
        names.push_back(candidate.gpu + (candidate.preferred ? std::string(mark) : ""));
    }
    return names.empty() ? std::string("none") : join(names);
}

// Whether a step belongs in a `fired` Why section: it changed the decision.
bool shown_step(const decide::TraceStep& step, WhyDetail detail) {
    return detail == WhyDetail::full || !step.effects.empty();
}

std::string omitted_note(const Decision& decision, WhyDetail detail) {
    const auto shown = static_cast<std::size_t>(
        std::count_if(decision.trace.begin(), decision.trace.end(),
                      [&](const decide::TraceStep& step) { return shown_step(step, detail); }));
    if (shown == decision.trace.size()) {
        return {};
    }
    return fmt::format("{} of {} rules shown (those that changed the decision); --explain shows "
                       "the full path.\n",
                       shown, decision.trace.size());
}

std::string why_text(const Decision& decision, WhyDetail detail, std::size_t width) {
    std::string out = "Why\n";
    for (std::size_t i = 0; i < decision.trace.size(); ++i) {
        const decide::TraceStep& step = decision.trace[i];
        if (!shown_step(step, detail)) {
            continue;
        }
        out += wrap_lines(fmt::format("{:2}. {}: {}\n", i + 1, step.node, step.test), width);
        out += wrap("facts: " + fact_uses(step.facts), "    ", width);
        out += wrap(fmt::format("outcome: {}, took {}: {}", decide::to_string(step.outcome),
                                step.branch, effects_or_none(step.effects)),
                    "    ", width);
        out += wrap("why: " + step.why + sources_suffix(step.sources), "    ", width);
    }
    out += wrap_lines(omitted_note(decision, detail), width);
    out += "\nCandidate GPUs (* preferred by a rule)\n";
    out += wrap(candidates_text(decision), "  ", width);
    if (!decision.excluded_gpus.empty()) {
        out += "\nExcluded GPUs, by rule\n";
        // Grouped by rule in the order the rules excluded them; the trace above says why.
        std::vector<std::pair<std::string, std::vector<std::string>>> groups;
        for (const decide::ExcludedGpu& excluded : decision.excluded_gpus) {
            if (groups.empty() || groups.back().first != excluded.reason.rule) {
                groups.push_back({excluded.reason.rule, {}});
            }
            groups.back().second.push_back(excluded.gpu);
        }
        for (const auto& [rule, gpus] : groups) {
            out += wrap(rule + ": " + join(gpus), "  ", width);
        }
    }
    out += "\nPurchase options\n";
    TextTable table;
    table.add_column("option");
    table.add_column("status");
    table.add_column("rule");
    for (const decide::PurchaseVerdict& verdict : decision.purchase_options) {
        table.add_row({std::string(to_string(verdict.option)),
                       std::string(decide::to_string(verdict.status)),
                       verdict.reason ? verdict.reason->rule : "-"});
    }
    std::string rendered = table.render_text(width == 0 ? 0 : width - 2);
    std::string indented;
    std::size_t start = 0;
    while (start < rendered.size()) {
        const std::size_t end = rendered.find('\n', start);
        indented += "  " + rendered.substr(start, end - start + 1);
        start = end == std::string::npos ? rendered.size() : end + 1;
    }
    out += indented;
    out += "\nInterconnect\n";
    out += wrap(interconnect_text(decision.interconnect), "  ", width);
    return out;
}

std::string why_markdown(const Decision& decision, WhyDetail detail) {
    std::string out = "## Why\n\n";
    TextTable trace;
    trace.add_column("#", Align::right);
    trace.add_column("rule");
    trace.add_column("test");
    trace.add_column("facts");
    trace.add_column("outcome");
    trace.add_column("effects");
    trace.add_column("why");
    for (std::size_t i = 0; i < decision.trace.size(); ++i) {
        const decide::TraceStep& step = decision.trace[i];
        if (!shown_step(step, detail)) {
            continue;
        }
        trace.add_row({std::to_string(i + 1), step.node, step.test, fact_uses(step.facts),
                       fmt::format("{} ({})", decide::to_string(step.outcome), step.branch),
                       effects_or_none(step.effects), step.why + sources_suffix(step.sources)});
    }
    out += trace.render_markdown();
    const std::string omitted = omitted_note(decision, detail);
    out += omitted.empty() ? std::string() : "\n" + omitted;
    out += "\nCandidate GPUs (\\* preferred by a rule): " + candidates_text(decision, "\\*") + "\n";
    if (!decision.excluded_gpus.empty()) {
        out += "\n### Excluded by the rules\n\n";
        TextTable excluded;
        excluded.add_column("GPU");
        excluded.add_column("rule");
        excluded.add_column("why");
        for (const decide::ExcludedGpu& gpu : decision.excluded_gpus) {
            excluded.add_row({gpu.gpu, gpu.reason.rule, gpu.reason.why});
        }
        out += excluded.render_markdown();
    }
    out += "\n### Purchase options\n\n";
    TextTable purchase;
    purchase.add_column("option");
    purchase.add_column("status");
    purchase.add_column("rule");
    purchase.add_column("why");
    for (const decide::PurchaseVerdict& verdict : decision.purchase_options) {
        purchase.add_row({std::string(to_string(verdict.option)),
                          std::string(decide::to_string(verdict.status)),
                          verdict.reason ? verdict.reason->rule : "-",
                          verdict.reason ? verdict.reason->why : ""});
    }
    out += purchase.render_markdown();
    out += "\nInterconnect: " + interconnect_text(decision.interconnect) + "\n";
    return out;
}

// Narrowest the value column of the facts is wrapped to.
constexpr std::size_t k_min_fact_value_width = 20;

TextTable facts_table(const Facts& facts) {
    TextTable table;
    table.add_column("fact");
    table.add_column("unit");
    table.add_column("value", Align::left, k_min_fact_value_width, Cut::wrap);
    auto currency = facts.find("currency");
    for (const decide::FactDefinition& definition : decide::fact_definitions()) {
        auto it = facts.find(definition.name);
        // Money facts are in the `currency` fact's currency.
        std::string unit(definition.unit);
        if (unit == "currency" && currency != facts.end()) {
            unit = decide::describe(currency->second);
        }
        table.add_row({std::string(definition.name), unit,
                       it == facts.end() ? std::string("unknown") : decide::describe(it->second)});
    }
    return table;
}

} // namespace

ordered_json fact_value_json(const FactValue& value) {
    if (const auto* number = std::get_if<double>(&value)) {
        return *number;
    }
    if (const auto* text = std::get_if<std::string>(&value)) {
        return *text;
    }
    if (const auto* flag = std::get_if<bool>(&value)) {
        return *flag;
    }
    return std::get<std::vector<std::string>>(value);
}

ordered_json facts_json(const Facts& facts) {
    ordered_json out = ordered_json::object();
    for (const auto& [name, value] : facts) {
        out[name] = fact_value_json(value);
    }
    return out;
}

ordered_json decision_json(const Decision& decision, const std::string& rules_file) {
    auto reason_json = [](const std::optional<decide::Reason>& reason) {
        return std::pair{reason ? ordered_json(reason->rule) : ordered_json(),
                         reason ? ordered_json(reason->why) : ordered_json()};
    };
    ordered_json trace = ordered_json::array();
    for (const decide::TraceStep& step : decision.trace) {
        ordered_json facts = ordered_json::array();
        for (const decide::FactUse& use : step.facts) {
            facts.push_back({{"fact", use.fact},
                             {"value", use.value ? fact_value_json(*use.value) : ordered_json()}});
        }
        trace.push_back({{"node", step.node},
                         {"test", step.test},
                         {"facts", facts},
                         {"outcome", decide::to_string(step.outcome)},
                         {"branch", step.branch},
                         {"effects", step.effects},
                         {"why", step.why},
                         {"sources", step.sources}});
    }
    ordered_json candidates = ordered_json::array();
    ordered_json preferred = ordered_json::array();
    for (const decide::CandidateGpu& candidate : decision.candidate_gpus) {
        candidates.push_back(candidate.gpu);
        if (candidate.preferred && candidate.reason) {
            preferred.push_back({{"gpu", candidate.gpu},
                                 {"rule", candidate.reason->rule},
                                 {"why", candidate.reason->why}});
        }
    }
    ordered_json excluded = ordered_json::array();
    for (const decide::ExcludedGpu& gpu : decision.excluded_gpus) {
        excluded.push_back({{"gpu", gpu.gpu}, {"rule", gpu.reason.rule}, {"why", gpu.reason.why}});
    }
    ordered_json allowed = ordered_json::array();
    ordered_json verdicts = ordered_json::array();
    for (const decide::PurchaseVerdict& verdict : decision.purchase_options) {
        if (verdict.status != decide::PurchaseStatus::excluded) {
            allowed.push_back(to_string(verdict.option));
        }
        auto [rule, why] = reason_json(verdict.reason);
        verdicts.push_back({{"purchase", to_string(verdict.option)},
                            {"status", decide::to_string(verdict.status)},
                            {"rule", rule},
                            {"why", why}});
    }
    const decide::InterconnectRequirement& need = decision.interconnect;
    auto [nvlink_rule, nvlink_why] = reason_json(need.nvlink_reason);
    auto [network_rule, network_why] = reason_json(need.network_reason);
    ordered_json out;
    out["rules"] = rules_file.empty() ? ordered_json() : ordered_json(rules_file);
    out["trace"] = trace;
    out["candidate_gpus"] = candidates;
    out["preferred_gpus"] = preferred;
    out["excluded_gpus"] = excluded;
    out["purchase_options"] = allowed;
    out["purchase_verdicts"] = verdicts;
    out["interconnect"] = {{"nvlink", need.nvlink},
                           {"nvlink_rule", nvlink_rule},
                           {"min_network_gbps", need.min_network_gbps
                                                    ? ordered_json(*need.min_network_gbps)
                                                    : ordered_json()},
                           {"network_rule", network_rule}};
    return out;
}

std::string render_tree(const Tree& tree, Format format, const GeneratorInfo& generator,
                        std::size_t width) {
    switch (format) {
    case Format::json:
        return tree_json(tree, generator);
    case Format::markdown:
        return tree_markdown(tree);
    case Format::table:
        break;
    }
    return tree_text(tree, width);
}

std::string render_why(const Decision& decision, Format format, WhyDetail detail,
                       std::size_t width) {
    return format == Format::markdown ? why_markdown(decision, detail)
                                      : why_text(decision, detail, width);
}

std::string render_explanation(const Facts& facts, const Decision& decision,
                               const std::string& tree_file, Format format,
                               const GeneratorInfo& generator, std::size_t width) {
    switch (format) {
    case Format::json: {
        ordered_json out;
        out["schema_version"] = k_json_schema_version;
        put_generator(out, generator);
        out["facts"] = facts_json(facts);
        out["decision"] = decision_json(decision, tree_file);
        return out.dump(2) + "\n";
    }
    case Format::markdown:
        return "# Decision\n\n## Facts\n\n" + facts_table(facts).render_markdown() + "\n" +
               why_markdown(decision, WhyDetail::full);
    case Format::table:
        break;
    }
    return "Facts\n" + facts_table(facts).render_text(width) + "\n" +
           why_text(decision, WhyDetail::full, width);
}

} // namespace gpuplan::report
