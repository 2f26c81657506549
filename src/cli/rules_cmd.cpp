#include "cli/rules_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "cli/input_file.hpp"
#include "detail/strings.hpp"
#include "gpuplan/decide/decide.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/report/decision_view.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <ostream>

namespace gpuplan::cli {

namespace {

decide::FactValue parse_fact_value(const decide::FactDefinition& fact, const std::string& text,
                                   const std::string& flag) {
    switch (fact.type) {
    case decide::FactType::number:
        if (auto value = parse_si_number(text)) {
            return *value;
        }
        throw UsageError(fmt::format("{}: expected a number, got '{}'", flag, text));
    case decide::FactType::boolean:
        if (text == "true" || text == "false") {
            return text == "true";
        }
        throw UsageError(fmt::format("{}: expected true or false, got '{}'", flag, text));
    case decide::FactType::string:
        if (!fact.choices.empty() &&
            std::find(fact.choices.begin(), fact.choices.end(), text) == fact.choices.end()) {
            throw UsageError(fmt::format("{}: expected one of {}, got '{}'", flag,
                                         detail::join_choices(fact.choices), text));
        }
        return text;
    case decide::FactType::list: {
        std::vector<std::string> items;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t end = std::min(text.find(',', start), text.size());
            if (end > start) {
                items.push_back(text.substr(start, end - start));
            }
            start = end + 1;
        }
        return items;
    }
    }
    throw UsageError(fmt::format("{}: unsupported fact type", flag));
}

// Applies `--fact NAME=VALUE` overrides; `NAME=` makes the fact unknown.
void override_facts(decide::Facts& facts, const std::vector<std::string>& overrides) {
    for (const std::string& entry : overrides) {
        const std::string flag = "--fact " + entry;
        const std::size_t equals = entry.find('=');
        if (equals == std::string::npos) {
            throw UsageError(fmt::format("{}: expected NAME=VALUE", flag));
        }
        const std::string name = entry.substr(0, equals);
        const std::string text = entry.substr(equals + 1);
        const decide::FactDefinition* fact = decide::find_fact(name);
        if (fact == nullptr) {
            std::vector<std::string_view> names;
            for (const decide::FactDefinition& definition : decide::fact_definitions()) {
                names.push_back(definition.name);
            }
            const std::string hint = detail::closest_match(name, names);
            throw UsageError(hint.empty() ? fmt::format("{}: unknown fact '{}'", flag, name)
                                          : fmt::format("{}: unknown fact '{}'; did you mean '{}'?",
                                                        flag, name, hint));
        }
        if (text.empty()) {
            facts.erase(name);
        } else {
            facts[name] = parse_fact_value(*fact, text, flag);
        }
    }
}

} // namespace

decide::Tree load_tree(const std::string& rules_path, const catalog::Catalog& catalog) {
    if (!rules_path.empty()) {
        return decide::read_tree(read_text_file(rules_path), &catalog);
    }
    return embedded::decision_tree(catalog);
}

Exit run_rules_show(const CommonOptions& common, const RulesShowOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const decide::Tree tree = load_tree(options.rules, catalog);
    write_output(
        common, report::render_tree(tree, common.format, generator_info(common), common.width), io);
    return Exit::ok;
}

Exit run_rules_check(const CommonOptions& common, const RulesCheckOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const TextFile file = read_text_file(options.path);
    std::vector<Diagnostic> problems = decide::validate_tree(file, &catalog);
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    if (common.verbosity >= 0) {
        const decide::Tree tree = decide::read_tree(file, &catalog, decide::UnknownGpus::error);
        io.out << fmt::format("ok: {}: a valid decision tree ({} node{})\n", file.name,
                              tree.nodes.size(), tree.nodes.size() == 1 ? "" : "s");
    }
    return Exit::ok;
}

Exit run_rules_explain(const CommonOptions& common, const RulesExplainOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const decide::Tree tree = load_tree(options.rules, catalog);
    const workload::Workload workload = resolve_workload(options.input, common, catalog);
    const std::vector<estimate::GpuEstimate> estimates = estimate::estimate_all(workload, catalog);
    decide::Facts facts = decide::make_facts(workload, estimates, catalog, common.currency);
    override_facts(facts, options.facts);
    const decide::Decision decision = decide::decide(tree, facts);
    write_output(common,
                 report::render_explanation(facts, decision, tree.file, common.format,
                                            generator_info(common), common.width),
                 io);
    return Exit::ok;
}

} // namespace gpuplan::cli
