#include "gpuplan/workload/reader.hpp"

#include "detail/yaml_reader.hpp"
#include "gpuplan/fleet/portfolio.hpp"
#include "gpuplan/limits.hpp"
#include "workload/node_reader.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpuplan::fleet {

namespace {

using detail::YamlNode;

constexpr detail::NumberRange k_rate_range{0.0, 1.0, false, "an annual rate from 0 to 1"};

std::string stem_of(const std::string& file) {
    const auto slash = file.find_last_of("/\\");
    std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
    const auto dot = base.rfind('.');
    return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

void read_finance(const YamlNode& node, workload::Finance& finance,
                  std::span<const std::string> known) {
    if (!node.expect_map({"discount_rate", "currency"})) {
        return;
    }
    if (auto rate = node.get("discount_rate")) {
        if (auto value = rate->as_number(k_rate_range)) {
            finance.discount_rate = *value;
        }
    }
    if (auto currency = node.get("currency")) {
        if (auto code = currency->as_string()) {
            if (!is_currency_code(*code)) {
                currency->error(fmt::format(
                    "expected an ISO 4217 currency code such as USD or CNY, got \"{}\"", *code));
            } else if (!known.empty() &&
                       std::find(known.begin(), known.end(), *code) == known.end()) {
                currency->error(fmt::format("no exchange rate for {} in the catalog", *code));
            } else {
                finance.currency = *code;
            }
        }
    }
}

// A workload file named by an entry, read with the workload reader; its problems join the sink.
std::optional<workload::Workload> read_file_entry(const YamlNode& node, const FileLoader& load,
                                                  std::span<const std::string> currencies,
                                                  std::string& file) {
    auto name = node.as_string();
    if (!name) {
        return std::nullopt;
    }
    file = *name;
    std::string why;
    const std::optional<TextFile> text = load(*name, why);
    if (!text) {
        node.error(fmt::format("cannot read workload file \"{}\": {}", *name, why));
        return std::nullopt;
    }
    try {
        return workload::read_workload(*text, {}, currencies);
    } catch (const InputError& error) {
        for (const Diagnostic& diagnostic : error.diagnostics()) {
            node.context().sink->add(diagnostic);
        }
    }
    return std::nullopt;
}

// One entry of `workloads`: a file or an inline workload, its start month and priority.
std::optional<Entry> read_entry(const YamlNode& node, const FileLoader& load, int horizon,
                                std::span<const std::string> currencies, std::size_t index) {
    if (!node.expect_map({"file", "workload", "start_month", "priority"})) {
        return std::nullopt;
    }
    Entry entry;
    std::optional<workload::Workload> read;
    const auto file = node.get("file");
    const auto inline_workload = node.get("workload");
    if (file && inline_workload) {
        inline_workload->error("give either 'file' or 'workload', not both");
    } else if (file) {
        read = read_file_entry(*file, load, currencies, entry.file);
    } else if (inline_workload) {
        workload::Workload w;
        w.name = fmt::format("workload-{}", index + 1);
        const std::size_t before = node.context().sink->size();
        workload::read_workload_node(*inline_workload, w, currencies);
        if (node.context().sink->size() == before) {
            workload::report_missing(*inline_workload, w);
        }
        if (node.context().sink->size() == before) {
            read = std::move(w);
        }
    } else {
        node.error("missing required key 'file' or 'workload'");
    }
    if (auto start = node.get("start_month")) {
        if (auto value = start->as_integer(0, horizon - 1)) {
            entry.start_month = static_cast<int>(*value);
        }
    }
    if (auto priority = node.get("priority")) {
        if (auto value = priority->as_integer(-1000, 1000)) {
            entry.priority = static_cast<int>(*value);
        }
    }
    if (!read) {
        return std::nullopt;
    }
    entry.workload = std::move(*read);
    return entry;
}

void read_root(const YamlNode& root, Portfolio& portfolio, const FileLoader& load,
               std::span<const std::string> currencies) {
    if (!root.expect_map({"schema_version", "name", "horizon_months", "finance", "workloads"}) ||
        detail::read_schema_version(root, "portfolio", k_min_schema_version,
                                    k_max_schema_version) != detail::SchemaVersion::supported) {
        return;
    }
    if (auto name = root.string_at("name", false)) {
        portfolio.name = *name;
    }
    if (auto horizon = root.require("horizon_months")) {
        if (auto value = horizon->as_integer(1, k_max_horizon_months)) {
            portfolio.horizon_months = static_cast<int>(*value);
        }
    }
    if (auto finance = root.get("finance")) {
        read_finance(*finance, portfolio.finance, currencies);
    }
    auto workloads = root.require("workloads");
    if (!workloads || !workloads->expect_sequence()) {
        return;
    }
    const std::vector<YamlNode> items = workloads->items();
    if (items.empty()) {
        workloads->error("expected at least one workload");
    } else if (items.size() > static_cast<std::size_t>(k_max_entries)) {
        workloads->error(
            fmt::format("expected at most {} workloads, got {}", k_max_entries, items.size()));
        return;
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (auto entry = read_entry(items[i], load, portfolio.horizon_months, currencies, i)) {
            entry->workload.horizon_months =
                std::min(entry->workload.horizon_months,
                         static_cast<double>(portfolio.horizon_months - entry->start_month));
            entry->workload.finance = portfolio.finance;
            portfolio.entries.push_back(std::move(*entry));
        }
    }
}

} // namespace

Portfolio read_portfolio(const TextFile& file, const FileLoader& load,
                         std::span<const std::string> currencies) {
    DiagnosticSink sink;
    detail::YamlContext context{file.name, &sink};
    context.max_bytes = limits::k_max_workload_bytes;
    Portfolio portfolio;
    portfolio.name = stem_of(file.name);
    if (auto root = detail::parse_yaml_document(file.text, context)) {
        read_root(*root, portfolio, load, currencies);
    }
    sink.throw_if_any();
    return portfolio;
}

} // namespace gpuplan::fleet
