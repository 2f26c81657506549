#include "gpuplan/workload/reader.hpp"

#include "detail/yaml_reader.hpp"
#include "gpuplan/runs/runs.hpp"
#include "workload/fields.hpp"
#include "workload/node_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <set>

namespace gpuplan::runs {

namespace {

using detail::YamlNode;

constexpr std::array<std::string_view, k_metric_count> k_metric_names{
    "wall_hours",
    "gpu_hours",
    "tokens_per_second",
    "samples_per_second",
    "output_tokens_per_second",
    "decode_tokens_per_second",
    "ttft_ms",
    "tpot_ms",
    "wall_days",
    "total_flops",
    "tokens_per_second_per_gpu",
    "samples_per_second_per_gpu",
    "sequences_per_second_per_gpu",
    "seconds_per_iteration",
    "model_flops_per_second",
    "first_token_ms",
    "seconds_per_sample",
};

// A whole training run's FLOPs pass the magnitude limit of other numbers (GPT-3: 3.14e23); still
// far from overflow in the products the comparison forms.
constexpr double k_max_flops = 1e30;
constexpr detail::NumberRange k_flops_range{0.0, k_max_flops, true, "a positive number"};

// The largest GPU count a run may state (docs/limits.md: a workload's constraints.gpu_count).
constexpr std::int64_t k_max_run_gpus = 1'000'000;

bool same_name(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

// A workload file named by a run, read with the workload reader; its problems join the sink.
std::optional<workload::Workload> read_file_workload(const YamlNode& node, const FileLoader& load,
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
        return workload::read_workload(*text, {});
    } catch (const InputError& error) {
        for (const Diagnostic& diagnostic : error.diagnostics()) {
            node.context().sink->add(diagnostic);
        }
    }
    return std::nullopt;
}

std::optional<workload::Workload> read_run_workload(const YamlNode& node, const FileLoader& load,
                                                    const std::string& run_name,
                                                    std::string& file) {
    if (node.is_scalar()) {
        return read_file_workload(node, load, file);
    }
    if (!node.is_map()) {
        node.error("expected a workload file name or an inline workload (a mapping)");
        return std::nullopt;
    }
    workload::Workload w;
    w.name = run_name;
    const std::size_t before = node.context().sink->size();
    workload::read_workload_node(node, w, {});
    if (node.context().sink->size() == before) {
        workload::report_missing(node, w);
    }
    if (node.context().sink->size() != before) {
        return std::nullopt;
    }
    return w;
}

void read_stack(const YamlNode& node, Stack& stack) {
    if (!node.expect_map({"engine", "version", "precision"})) {
        return;
    }
    stack.engine = node.string_at("engine", false).value_or("");
    stack.version = node.string_at("version", false).value_or("");
    if (auto precision = node.get("precision")) {
        if (auto text = precision->as_string()) {
            if (catalog::parse_precision(*text)) {
                stack.precision = *text;
            } else {
                precision->error(fmt::format(
                    "expected a precision (fp32, tf32, fp16, bf16, fp8, int8, int4, nvfp4, mxfp4), "
                    "got \"{}\"",
                    *text));
            }
        }
    }
}

void read_measured(const YamlNode& node, Run& run) {
    std::vector<std::string_view> allowed(k_metric_names.begin(), k_metric_names.end());
    allowed.emplace_back("percentile");
    if (!node.expect_map(allowed)) {
        return;
    }
    bool any = false;
    for (std::size_t i = 0; i < k_metric_count; ++i) {
        const auto metric = static_cast<Metric>(i);
        if (auto value = node.get(k_metric_names.at(i))) {
            any = true;
            const bool flops =
                metric == Metric::total_flops || metric == Metric::model_flops_per_second;
            if (auto number = value->as_si_number(flops ? k_flops_range : detail::k_positive)) {
                run.measured.push_back({metric, *number});
            }
        }
    }
    if (auto percentile = node.get("percentile")) {
        if (auto value = percentile->as_integer(1, 99)) {
            if (*value != 50 && *value != 90) {
                percentile->error(fmt::format("expected 50 or 90 (the percentiles gpuplan "
                                              "models), got {}",
                                              *value));
            }
            run.percentile = static_cast<int>(*value);
            run.percentile_stated = true;
        }
    }
    if (!any) {
        node.error(
            fmt::format("expected at least one measured value: {}",
                        fmt::join(k_metric_names.begin(), k_metric_names.begin() + 8, ", ")));
    }
}

// The run's GPU, count and precision written into its workload, so the estimate is the run's.
void apply_run(Run& run) {
    workload::Workload& w = run.workload;
    w.constraints.gpu_models = {run.gpu};
    w.constraints.gpu_count = run.gpu_count;
    if (run.gpu_count > w.constraints.max_gpus.value_or(workload::k_default_max_gpus)) {
        w.constraints.max_gpus = run.gpu_count;
    }
    if (!run.provider.empty()) {
        w.constraints.providers = {run.provider};
    }
    if (run.requests_per_second) {
        w.inference.requests_per_second = *run.requests_per_second;
    }
    if (run.percentile_stated) {
        w.inference.percentile = run.percentile;
    }
    // A serving engine the stack names times the run as that engine (E7.3); others leave it.
    if (auto engine = workload::parse_engine(run.stack.engine)) {
        w.inference.engine = *engine;
    }
    if (auto precision = catalog::parse_precision(run.stack.precision)) {
        (w.task == workload::Task::inference ? w.inference.precision : w.training.precision) =
            *precision;
    }
}

void read_gpu(const YamlNode& run_node, Run& run, std::span<const std::string> gpus) {
    auto gpu = run_node.require("gpu");
    if (!gpu) {
        return;
    }
    auto name = gpu->as_string();
    if (!name) {
        return;
    }
    run.gpu = *name;
    if (!gpus.empty() && std::none_of(gpus.begin(), gpus.end(), [&](const std::string& known) {
            return same_name(known, *name);
        })) {
        gpu->error(
            fmt::format("unknown GPU model \"{}\"; `gpuplan catalog list` lists them", *name));
    }
}

void read_labels(const YamlNode& node, Run& run) {
    run.instance = node.string_at("instance", false).value_or("");
    run.provider = node.string_at("provider", false).value_or("");
    run.source = node.string_at("source", true).value_or("");
    run.group = node.string_at("group", false).value_or("");
    run.note = node.string_at("note", false).value_or("");
    if (auto date = node.get("date")) {
        run.date = date->as_date();
    }
    if (auto sample = node.get("sample")) {
        if (auto which = sample->as_choice({"in", "out"})) {
            run.sample = *which == 0 ? Sample::in : Sample::out;
        }
    }
}

std::optional<Run> read_run(const YamlNode& node, const FileLoader& load,
                            std::span<const std::string> gpus) {
    if (!node.expect_map({"name", "workload", "gpu", "gpu_count", "instance", "provider", "stack",
                          "measured", "source", "date", "sample", "group", "note",
                          "requests_per_second"})) {
        return std::nullopt;
    }
    const std::size_t before = node.context().sink->size();
    Run run;
    run.name = node.string_at("name", true).value_or("");
    read_gpu(node, run, gpus);
    if (auto count = node.require("gpu_count")) {
        if (auto value = count->as_integer(1, k_max_run_gpus)) {
            run.gpu_count = static_cast<int>(*value);
        }
    }
    if (auto rate = node.get("requests_per_second")) {
        run.requests_per_second = rate->as_number(workload::fields::k_requests_per_second.range);
    }
    read_labels(node, run);
    if (auto stack = node.get("stack")) {
        read_stack(*stack, run.stack);
    }
    if (auto measured = node.require("measured")) {
        read_measured(*measured, run);
    }
    std::optional<workload::Workload> w;
    if (auto workload_node = node.require("workload")) {
        w = read_run_workload(*workload_node, load, run.name, run.workload_file);
    }
    if (!w || node.context().sink->size() != before) {
        return std::nullopt;
    }
    run.workload = std::move(*w);
    apply_run(run);
    return run;
}

void read_root(const YamlNode& root, RunsFile& file, const FileLoader& load,
               std::span<const std::string> gpus) {
    if (!root.expect_map({"schema_version", "description", "runs"}) ||
        detail::read_schema_version(root, "runs", k_min_schema_version, k_max_schema_version) !=
            detail::SchemaVersion::supported) {
        return;
    }
    auto list = root.require("runs");
    if (!list || !list->expect_sequence()) {
        return;
    }
    const std::vector<YamlNode> items = list->items();
    if (items.size() > k_max_runs) {
        list->error(fmt::format("at most {} runs in one file, got {}", k_max_runs, items.size()));
        return;
    }
    std::set<std::string> names;
    file.runs.reserve(items.size());
    for (const YamlNode& item : items) {
        std::optional<Run> run = read_run(item, load, gpus);
        if (!run) {
            continue;
        }
        if (!names.insert(run->name).second) {
            item.get("name")->error(fmt::format("duplicate run name \"{}\"", run->name));
            continue;
        }
        file.runs.push_back(std::move(*run));
    }
    if (items.empty()) {
        list->error("expected at least one run");
    }
}

} // namespace

std::string_view to_string(Metric metric) {
    return k_metric_names.at(static_cast<std::size_t>(metric));
}

std::optional<Metric> parse_metric(std::string_view text) {
    for (std::size_t i = 0; i < k_metric_count; ++i) {
        if (k_metric_names.at(i) == text) {
            return static_cast<Metric>(i);
        }
    }
    return std::nullopt;
}

std::vector<std::string_view> metric_names() {
    return {k_metric_names.begin(), k_metric_names.end()};
}

bool higher_is_faster(Metric metric) {
    switch (metric) {
    case Metric::tokens_per_second:
    case Metric::samples_per_second:
    case Metric::output_tokens_per_second:
    case Metric::decode_tokens_per_second:
    case Metric::tokens_per_second_per_gpu:
    case Metric::samples_per_second_per_gpu:
    case Metric::sequences_per_second_per_gpu:
    case Metric::model_flops_per_second:
        return true;
    default:
        return false;
    }
}

RunsFile read_runs(const TextFile& file, const FileLoader& load,
                   std::span<const std::string> gpus) {
    DiagnosticSink sink;
    detail::YamlContext context{file.name, &sink};
    context.max_bytes = limits::k_max_workload_bytes;
    RunsFile result;
    if (auto root = detail::parse_yaml_document(file.text, context)) {
        read_root(*root, result, load, gpus);
    }
    sink.throw_if_any();
    return result;
}

} // namespace gpuplan::runs
