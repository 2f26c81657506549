#include "gpuplan/runs/importers.hpp"

#include "gpuplan/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gpuplan::runs {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const TextFile& file, std::uint32_t line, const std::string& path,
                       const std::string& message) {
    throw InputError({Diagnostic{file.name, line, line == 0 ? 0U : 1U, path, message}});
}

json parse_json(const TextFile& file) {
    try {
        json doc = json::parse(file.text);
        if (!doc.is_object()) {
            fail(file, 1, "", "expected a JSON object");
        }
        return doc;
    } catch (const json::parse_error& e) {
        fail(file, 1, "", fmt::format("not JSON: {}", e.what()));
    }
}

// A positive number at `key` of `doc`, or of doc[key][field] when `field` is given.
std::optional<double> number_at(const json& doc, std::string_view key,
                                std::string_view field = {}) {
    const auto it = doc.find(key);
    if (it == doc.end()) {
        return std::nullopt;
    }
    const json* value = &*it;
    if (!field.empty()) {
        if (!value->is_object() || !value->contains(field)) {
            return std::nullopt;
        }
        value = &(*value)[std::string(field)];
    }
    if (!value->is_number()) {
        return std::nullopt;
    }
    const double x = value->get<double>();
    return std::isfinite(x) && x > 0.0 ? std::optional(x) : std::nullopt;
}

std::string string_at(const json& doc, std::string_view key) {
    const auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ImportedRun labelled(const TextFile& file, const ImportLabels& labels, const std::string& name) {
    if (labels.workload.empty()) {
        fail(file, 0, "", "a run names its workload: give --workload FILE");
    }
    if (labels.gpu.empty() || labels.gpu_count <= 0) {
        fail(file, 0, "", "the file does not say which GPUs ran it: give --gpu and --gpu-count");
    }
    ImportedRun run;
    run.name = labels.name.empty() ? name : labels.name;
    run.workload = labels.workload;
    run.gpu = labels.gpu;
    run.gpu_count = labels.gpu_count;
    run.engine = labels.engine;
    run.source = labels.source.empty() ? file.name : labels.source;
    return run;
}

void add(ImportedRun& run, Metric metric, std::optional<double> value) {
    if (value) {
        run.measured.push_back({metric, *value});
    }
}

// The file's name without folders and extension: the default run name.
std::string stem(const std::string& path) {
    const auto slash = path.find_last_of('/');
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    const auto dot = base.rfind('.');
    return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

void require_measured(const TextFile& file, const ImportedRun& run, std::string_view fields) {
    if (run.measured.empty()) {
        fail(file, 1, "", fmt::format("none of the fields gpuplan reads is present: {}", fields));
    }
}

// One `vllm bench serve --save-result` (benchmarks/benchmark_serving.py) result object.
ImportedRun vllm_run(const TextFile& file, std::uint32_t line, const json& doc,
                     const ImportLabels& labels, const std::string& name) {
    ImportedRun run = labelled(file, labels, name);
    if (run.engine.empty()) {
        run.engine = string_at(doc, "backend");
    }
    // At a finite request rate the output throughput is the offered load, not the capacity
    // gpuplan predicts: only a run with every request sent at once (`inf`) measures it.
    const auto rate_value = doc.find("request_rate");
    const bool saturated = rate_value == doc.end() ||
                           (rate_value->is_string() && rate_value->get<std::string>() == "inf");
    // Its latencies, though, are of a burst of every request at once, which no request rate
    // describes: they are kept only at a finite rate, which the run then states.
    if (saturated) {
        add(run, Metric::output_tokens_per_second, number_at(doc, "output_throughput"));
    } else {
        run.requests_per_second = number_at(doc, "request_rate");
        if (run.requests_per_second) {
            add(run, Metric::ttft_ms, number_at(doc, "median_ttft_ms"));
            add(run, Metric::tpot_ms, number_at(doc, "median_tpot_ms"));
        }
    }
    if (run.measured.empty()) {
        fail(file, line, "",
             "none of the fields gpuplan reads is present: output_throughput (at request rate "
             "inf), or request_rate with median_ttft_ms or median_tpot_ms");
    }
    run.percentile = run.requests_per_second ? 50 : 0;
    const std::string model = string_at(doc, "model_id");
    run.note = fmt::format("vLLM benchmark{}{}{}", model.empty() ? "" : " of " + model,
                           rate_value != doc.end() ? " at request rate " + rate_value->dump() : "",
                           doc.contains("date") ? ", " + string_at(doc, "date") : "");
    return run;
}

// The objects of a JSON Lines file, with their line numbers. `whole` is the error of reading
// the file as one JSON value: it is the one reported when the first line is not JSON either.
std::vector<std::pair<std::uint32_t, json>> json_lines(const TextFile& file,
                                                       const json::parse_error& whole) {
    std::vector<std::pair<std::uint32_t, json>> docs;
    std::istringstream in(file.text);
    std::string line;
    std::uint32_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        try {
            docs.emplace_back(number, json::parse(line));
        } catch (const json::parse_error& e) {
            fail(file, docs.empty() ? 1 : number, "",
                 fmt::format("not JSON: {}", docs.empty() ? whole.what() : e.what()));
        }
    }
    return docs;
}

// vLLM's result file: one JSON object, or one object per line as `--append-result` writes
// them (each line a run, named after the file and its line).
std::vector<ImportedRun> import_vllm(const TextFile& file, const ImportLabels& labels) {
    std::vector<std::pair<std::uint32_t, json>> docs;
    try {
        docs.emplace_back(1, json::parse(file.text));
    } catch (const json::parse_error& whole) {
        docs = json_lines(file, whole);
    }
    std::vector<ImportedRun> runs;
    runs.reserve(docs.size());
    for (const auto& [line, doc] : docs) {
        if (!doc.is_object()) {
            fail(file, line, "", "expected a JSON object");
        }
        const std::string name =
            docs.size() == 1 ? stem(file.name) : fmt::format("{}-{}", stem(file.name), line);
        runs.push_back(vllm_run(file, line, doc, labels, name));
    }
    if (runs.empty()) {
        fail(file, 1, "", "expected a JSON object");
    }
    return runs;
}

// GenAI-Perf's profile_export_genai_perf.json and AIPerf's profile_export_aiperf.json: each
// metric an object with `unit`, `avg`, `p50`, `p90`, ... (AIPerf may nest them in `records`).
ImportedRun import_profile(const TextFile& file, const ImportLabels& labels, bool aiperf) {
    json doc = parse_json(file);
    if (aiperf && doc.contains("records") && doc["records"].is_object()) {
        doc = doc["records"];
    }
    ImportedRun run = labelled(file, labels, stem(file.name));
    add(run, Metric::output_tokens_per_second, number_at(doc, "output_token_throughput", "avg"));
    add(run, Metric::ttft_ms, number_at(doc, "time_to_first_token", "p50"));
    add(run, Metric::tpot_ms, number_at(doc, "inter_token_latency", "p50"));
    require_measured(file, run,
                     "output_token_throughput.avg, time_to_first_token.p50, "
                     "inter_token_latency.p50");
    run.percentile = 50;
    run.note = aiperf ? "AIPerf profile export" : "GenAI-Perf profile export";
    return run;
}

std::string trim(std::string_view s) {
    const auto begin = s.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos) {
        return {};
    }
    return std::string(s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1));
}

// MLPerf Inference's mlperf_log_summary.txt: `Key : value` lines after "MLPerf Results Summary".
ImportedRun import_mlperf(const TextFile& file, const ImportLabels& labels) {
    if (file.text.find("MLPerf Results Summary") == std::string::npos) {
        fail(file, 1, "", "expected an MLPerf results summary (mlperf_log_summary.txt)");
    }
    std::istringstream in(file.text);
    std::string line;
    std::string scenario;
    std::string valid;
    ImportedRun run = labelled(file, labels, stem(file.name));
    std::uint32_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        const auto colon = line.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        const std::string key = trim(std::string_view(line).substr(0, colon));
        const std::string value = trim(std::string_view(line).substr(colon + 1));
        auto parsed = [&]() -> std::optional<double> {
            try {
                std::size_t used = 0;
                const double x = std::stod(value, &used);
                if (used == value.size() && std::isfinite(x) && x > 0.0) {
                    return x;
                }
            } catch (const std::exception&) {
            }
            fail(file, number, key, fmt::format("expected a positive number, got \"{}\"", value));
        };
        if (key == "Scenario") {
            scenario = value;
        } else if (key == "Result is") {
            valid = value;
        } else if (key == "Samples per second" || key == "Completed samples per second" ||
                   (key == "QPS w/o loadgen overhead" && scenario == "SingleStream")) {
            // SingleStream sends one query of one sample at a time: its QPS is the stream's
            // samples per second.
            add(run, Metric::samples_per_second, parsed());
        } else if (key == "Tokens per second" || key == "Completed tokens per second") {
            add(run, Metric::output_tokens_per_second, parsed());
        }
    }
    require_measured(
        file, run,
        "Samples per second, Tokens per second, QPS w/o loadgen overhead (SingleStream)");
    run.note = fmt::format("MLPerf Inference, scenario {}, result {}",
                           scenario.empty() ? "?" : scenario, valid.empty() ? "?" : valid);
    return run;
}

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) {
        cells.push_back(trim(cell));
    }
    return cells;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

// A positive number in a CSV cell; throws InputError at the row and column otherwise.
double csv_number(const TextFile& file, const std::vector<std::string>& cells, std::size_t at,
                  std::uint32_t line, std::string_view name) {
    const std::string text = at < cells.size() ? cells[at] : std::string();
    try {
        std::size_t used = 0;
        const double x = std::stod(text, &used);
        if (used == text.size() && std::isfinite(x) && x > 0.0) {
            return x;
        }
    } catch (const std::exception&) {
    }
    fail(file, line, std::string(name),
         fmt::format("expected a positive number, got \"{}\"", text));
}

// Where a CSV's rate comes from: a per-step amount over step_seconds, or a rate column.
struct CsvColumns {
    std::optional<std::size_t> amount; // tokens_per_step or samples_per_step
    std::optional<std::size_t> step;   // step_seconds
    std::optional<std::size_t> rate;   // tokens_per_second or samples_per_second
    std::string amount_name;
    std::string rate_name;
    bool tokens = true;
};

CsvColumns csv_columns(const TextFile& file, const std::vector<std::string>& header) {
    auto column = [&](std::string_view name) -> std::optional<std::size_t> {
        const auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? std::nullopt
                                  : std::optional(static_cast<std::size_t>(it - header.begin()));
    };
    CsvColumns c;
    c.step = column("step_seconds");
    for (const bool tokens : {true, false}) {
        const std::string unit = tokens ? "tokens" : "samples";
        const auto amount = column(unit + "_per_step");
        const auto rate = column(unit + "_per_second");
        if ((c.step && amount) || rate) {
            c.amount = c.step ? amount : std::nullopt;
            c.rate = rate;
            c.amount_name = unit + "_per_step";
            c.rate_name = unit + "_per_second";
            c.tokens = tokens;
            return c;
        }
    }
    fail(file, 1, "",
         "expected columns step_seconds with tokens_per_step or samples_per_step, or "
         "tokens_per_second or samples_per_second");
}

// A CSV of one run's steps: `step_seconds` with `tokens_per_step` (or `samples_per_step`), or
// `tokens_per_second` or `samples_per_second` per row; the run's figure is the median row.
ImportedRun import_csv(const TextFile& file, const ImportLabels& labels) {
    std::istringstream in(file.text);
    std::string line;
    if (!std::getline(in, line)) {
        fail(file, 1, "", "empty CSV: expected a header row");
    }
    const CsvColumns c = csv_columns(file, split_csv(line));
    std::vector<double> rates;
    std::uint32_t number = 1;
    while (std::getline(in, line)) {
        ++number;
        if (trim(line).empty()) {
            continue;
        }
        const std::vector<std::string> cells = split_csv(line);
        rates.push_back(c.amount ? csv_number(file, cells, *c.amount, number, c.amount_name) /
                                       csv_number(file, cells, *c.step, number, "step_seconds")
                                 : csv_number(file, cells, *c.rate, number, c.rate_name));
    }
    if (rates.empty()) {
        fail(file, 1, "", "no data rows");
    }
    ImportedRun run = labelled(file, labels, stem(file.name));
    add(run, c.tokens ? Metric::tokens_per_second : Metric::samples_per_second, median(rates));
    run.note = fmt::format("median of {} rows of a step log", rates.size());
    return run;
}

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c == '\n' ? ' ' : c;
    }
    return out + "\"";
}

} // namespace

std::vector<ImportedRun> import_runs(ImportFormat format, const TextFile& file,
                                     const ImportLabels& labels) {
    switch (format) {
    case ImportFormat::vllm:
        return import_vllm(file, labels);
    case ImportFormat::genai_perf:
        return {import_profile(file, labels, false)};
    case ImportFormat::aiperf:
        return {import_profile(file, labels, true)};
    case ImportFormat::mlperf:
        return {import_mlperf(file, labels)};
    case ImportFormat::csv:
        return {import_csv(file, labels)};
    }
    return {};
}

std::string runs_yaml(const std::vector<ImportedRun>& runs) {
    std::string out;
    for (const ImportedRun& run : runs) {
        out += fmt::format("  - name: {}\n    workload: {}\n    gpu: {}\n    gpu_count: {}\n",
                           quoted(run.name), quoted(run.workload), quoted(run.gpu), run.gpu_count);
        if (run.requests_per_second) {
            out += fmt::format("    requests_per_second: {:.7g}\n", *run.requests_per_second);
        }
        if (!run.engine.empty()) {
            out += fmt::format("    stack: {{engine: {}}}\n", quoted(run.engine));
        }
        out += "    measured:\n";
        for (const Measurement& m : run.measured) {
            out += fmt::format("      {}: {:.7g}\n", to_string(m.metric), m.value);
        }
        if (run.percentile != 0) {
            out += fmt::format("      percentile: {}\n", run.percentile);
        }
        out += fmt::format("    source: {}\n", quoted(run.source));
        if (!run.note.empty()) {
            out += fmt::format("    note: {}\n", quoted(run.note));
        }
    }
    return out;
}

std::string append_runs(const TextFile& existing, const std::string& entries) {
    if (existing.text.empty()) {
        return "schema_version: 1\nruns:\n" + entries;
    }
    std::istringstream in(existing.text);
    std::string line;
    std::string last_key;
    std::uint32_t number = 0;
    std::uint32_t key_line = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line[0] != ' ' && line[0] != '#' && line[0] != '-') {
            last_key = trim(line);
            key_line = number;
        }
    }
    if (last_key != "runs:") {
        throw InputError({Diagnostic{existing.name, key_line, 1, "",
                                     "the runs can only be appended when `runs:` is the file's "
                                     "last top-level key, with its runs below it"}});
    }
    std::string text = existing.text;
    if (text.back() != '\n') {
        text += '\n';
    }
    return text + entries;
}

} // namespace gpuplan::runs
