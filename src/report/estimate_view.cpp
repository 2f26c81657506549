#include "gpuplan/report/estimate_view.hpp"

#include "gpuplan/report/text_table.hpp"
#include "report/generator_json.hpp"
#include "report/workload_json.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

namespace {

using estimate::GpuEstimate;
using nlohmann::ordered_json;

// GPU-hours below this are shown with one decimal so that short jobs do not read as 0.
constexpr double k_small_hours = 100.0;

// Significant figures kept for large physical quantities (FLOPs, throughput) in JSON.
constexpr int k_json_digits = 4;
// Width of text output (tables and wrapped notes).
constexpr std::size_t k_text_width = 80;
// Significant figures kept for hours, so that short runs (seconds) keep their precision.
constexpr int k_json_digits_hours = 6;

ordered_json goodput_json(const estimate::Goodput& g) {
    auto hours = [](double value) { return round_significant(value, k_json_digits_hours); };
    return {{"fraction", round_significant(g.fraction(), k_json_digits_hours)},
            {"failure_free_wall_hours", hours(g.failure_free_wall_hours)},
            {"expected_wall_hours", hours(g.expected_wall_hours)},
            {"p90_wall_hours", hours(g.p90_wall_hours)},
            {"confidence", g.confidence},
            {"confidence_wall_hours", hours(g.confidence_wall_hours)},
            {"failures_per_hour", round_significant(g.failure_rate_per_hour, k_json_digits)},
            {"expected_failures", round_significant(g.expected_failures, k_json_digits)},
            {"checkpoint_interval_hours", hours(g.checkpoint_interval_hours)},
            {"checkpoint_hours", hours(g.checkpoint_hours)},
            {"restart_hours", hours(g.restart_hours)}};
}

// The stages of a multi-stage training estimate, each with its own layout (E5.6).
ordered_json stages_json(const std::vector<estimate::StageEstimate>& stages) {
    ordered_json out = ordered_json::array();
    for (const estimate::StageEstimate& stage : stages) {
        out.push_back({{"name", stage.name},
                       {"tokens", round_significant(stage.tokens, k_json_digits)},
                       {"seq_len", stage.seq_len},
                       {"train_hours", round_significant(stage.train_hours, k_json_digits_hours)},
                       {"fits", stage.fits},
                       {"memory_per_gpu_gib", round_to(stage.memory_per_gpu_gib, 2)},
                       {"parallelism",
                        {{"tensor", stage.tensor_parallel},
                         {"pipeline", stage.pipeline_parallel},
                         {"data", stage.data_parallel},
                         {"context", stage.context_parallel},
                         {"expert", stage.expert_parallel},
                         {"zero", stage.sharding}}},
                       {"micro_batches", stage.micro_batches}});
    }
    return out;
}

ordered_json estimate_json(const GpuEstimate& e) {
    ordered_json out;
    out["gpu"] = e.gpu;
    out["gpu_count"] = e.gpu_count;
    out["nodes"] = e.nodes;
    out["gpus_per_node"] = e.node.gpus_per_node;
    out["min_gpus"] = e.min_gpus;
    out["fits"] = e.fits;
    out["memory_per_gpu_gib"] = round_to(e.memory_per_gpu_gib, 2);
    out["memory_breakdown"] = {{"weights_gib", round_to(e.memory.weights_gib, 2)},
                               {"gradients_gib", round_to(e.memory.gradients_gib, 2)},
                               {"optimizer_gib", round_to(e.memory.optimizer_gib, 2)},
                               {"activations_gib", round_to(e.memory.activations_gib, 2)},
                               {"kv_cache_gib", round_to(e.memory.kv_cache_gib, 2)},
                               {"overhead_gib", round_to(e.memory.overhead_gib, 2)}};
    out["parallelism"] = {{"tensor", e.tensor_parallel},
                          {"pipeline", e.pipeline_parallel},
                          {"data", e.data_parallel}};
    if (!e.sharding.empty()) {
        out["parallelism"]["context"] = e.context_parallel;
        out["parallelism"]["expert"] = e.expert_parallel;
        out["parallelism"]["zero"] = e.sharding;
    } else if (e.expert_parallel > 1) {
        out["parallelism"]["expert"] = e.expert_parallel; // serving: the expert layout (E7.4)
    }
    if (!e.stages.empty()) {
        out["stages"] = stages_json(e.stages);
    }
    if (e.batch > 0) {
        out["batch"] = e.batch;
    }
    out["precision"] = catalog::to_string(e.precision);
    out["mfu"] = round_to(e.mfu, 3);
    out["scaling_efficiency"] = round_to(e.scaling_efficiency, 3);
    out["total_flops"] = round_significant(e.total_flops, k_json_digits);
    out["gpu_hours"] = round_significant(e.gpu_hours, k_json_digits_hours);
    out["wall_hours"] = round_significant(e.wall_hours, k_json_digits_hours);
    out["meets_deadline"] = e.meets_deadline;
    if (e.goodput) {
        out["goodput"] = goodput_json(*e.goodput);
    }
    out["bottleneck"] = estimate::to_string(e.bottleneck);
    ordered_json throughput;
    throughput["samples_per_second"] =
        round_significant(e.throughput.samples_per_second, k_json_digits);
    throughput["tokens_per_second"] =
        round_significant(e.throughput.tokens_per_second, k_json_digits);
    if (e.throughput.decode_tokens_per_second) {
        throughput["decode_tokens_per_second"] =
            round_significant(*e.throughput.decode_tokens_per_second, k_json_digits);
    }
    if (e.throughput.prefill_tokens_per_second) {
        throughput["prefill_tokens_per_second"] =
            round_significant(*e.throughput.prefill_tokens_per_second, k_json_digits);
    }
    if (e.throughput.requests_per_second_capacity) {
        throughput["requests_per_second_capacity"] =
            round_significant(*e.throughput.requests_per_second_capacity, k_json_digits);
    }
    out["throughput"] = throughput;
    if (!e.serving.batching.empty()) {
        const estimate::ServingTime& v = e.serving;
        auto ms = [](double value) { return round_significant(value, k_json_digits); };
        out["serving"] = {{"batching", v.batching},
                          {"batch", ms(v.batch)},
                          {"max_batch", ms(v.max_batch)},
                          {"utilisation", ms(v.utilisation)},
                          {"ttft_p50_ms", ms(v.ttft_p50_ms)},
                          {"ttft_p90_ms", ms(v.ttft_p90_ms)},
                          {"tpot_p50_ms", ms(v.tpot_p50_ms)},
                          {"tpot_p90_ms", ms(v.tpot_p90_ms)},
                          {"latency_p50_ms", ms(v.latency_p50_ms)},
                          {"latency_p90_ms", ms(v.latency_p90_ms)}};
    }
    out["from_benchmark"] = e.from_benchmark;
    out["checkpoint_gb"] = round_to(e.checkpoint_gb, 2);
    out["flops_convention"] = e.flops_convention;
    if (e.time.micro_batches > 0) {
        const estimate::TrainingTime& t = e.time;
        out["training_time"] = {
            {"compute_hours", round_significant(t.compute_hours, k_json_digits_hours)},
            {"compute_gpu_hours", round_significant(t.compute_gpu_hours, k_json_digits_hours)},
            {"goodput_hours", round_significant(t.goodput_hours, k_json_digits_hours)},
            {"bubble_hours", round_significant(t.bubble_hours, k_json_digits_hours)},
            {"communication_hours", round_significant(t.communication_hours, k_json_digits_hours)},
            {"data_loading_hours", round_significant(t.data_loading_hours, k_json_digits_hours)},
            {"staging_hours", round_significant(t.staging_hours, k_json_digits_hours)},
            {"bubble_fraction", round_to(t.bubble_fraction, 4)},
            {"global_batch", round_significant(t.global_batch, k_json_digits_hours)},
            {"micro_batches", t.micro_batches},
            {"virtual_stages", t.virtual_stages},
            {"data_cache", estimate::to_string(t.data_cache)}};
    }
    out["notes"] = e.notes;
    if (e.calibration) {
        out["calibration"] = calibration_factor_json(*e.calibration);
    }
    return out;
}

// `first` followed by the words of `text`, broken at spaces so that no line is longer than
// `width` (a longer word stays whole); continuation lines start with `indent`. Ends with a newline.
std::string wrap(const std::string& first, const std::string& text, std::size_t width,
                 const std::string& indent) {
    std::string out;
    std::string line = first;
    bool fresh = true; // no word on the line yet
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        end = end == std::string::npos ? text.size() : end;
        const std::string word = text.substr(start, end - start);
        start = end + 1;
        if (word.empty()) {
            continue;
        }
        if (!fresh && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line = indent;
            fresh = true;
        }
        line += (fresh ? "" : " ") + word;
        fresh = false;
    }
    return out + line + "\n";
}

std::string yes_no(bool value) {
    return value ? "yes" : "no";
}

// Which columns an estimate table has: the GPU name always, whole (never cut).
struct EstimateColumns {
    bool sizing = true; // GPUs, nodes, min, fits, GiB/GPU
    bool time = true;   // wall (hours/mo), P90, GPU-hours, bottleneck
    bool p90 = true;    // training: the P90 wall time
};

void add_estimate_columns(TextTable& table, bool inference, const EstimateColumns& columns) {
    table.add_column("GPU");
    if (columns.sizing) {
        table.add_column("GPUs", Align::right);
        table.add_column("nodes", Align::right);
        table.add_column("min", Align::right);
        table.add_column("fits");
        table.add_column("GiB/GPU", Align::right);
    }
    if (columns.time) {
        table.add_column(inference ? "hours/mo" : "wall", Align::right);
        if (columns.p90) {
            table.add_column("P90", Align::right);
        }
        table.add_column(inference ? "GPU-h/mo" : "GPU-hours", Align::right);
        table.add_column("bottleneck");
    }
}

// An estimate's time cells: wall time (hours a month), P90, GPU-hours, bottleneck.
std::vector<std::string> time_cells(const GpuEstimate& e, bool inference, bool p90) {
    std::vector<std::string> row{inference ? format_fixed(e.wall_hours, 0)
                                           : format_duration(e.wall_hours)};
    if (p90) {
        row.push_back(e.goodput ? format_duration(e.goodput->p90_wall_hours) : "-");
    }
    row.push_back(e.gpu_hours < k_small_hours ? format_fixed(e.gpu_hours, 1)
                                              : format_thousands(e.gpu_hours));
    const std::string bottleneck(estimate::to_string(e.bottleneck));
    row.push_back(e.meets_deadline ? bottleneck : bottleneck + " *");
    return row;
}

TextTable estimate_table(const std::vector<GpuEstimate>& estimates, bool inference,
                         EstimateColumns columns = {}) {
    columns.p90 = columns.p90 && !inference;
    TextTable table;
    add_estimate_columns(table, inference, columns);
    for (const GpuEstimate& e : estimates) {
        std::vector<std::string> row{e.gpu};
        if (columns.sizing) {
            row.insert(row.end(), {std::to_string(e.gpu_count), std::to_string(e.nodes),
                                   e.min_gpus > 0 ? std::to_string(e.min_gpus) : "-",
                                   yes_no(e.fits), format_fixed(e.memory_per_gpu_gib, 1)});
        }
        if (columns.time) {
            const std::vector<std::string> time = time_cells(e, inference, columns.p90);
            row.insert(row.end(), time.begin(), time.end());
        }
        table.add_row(row);
    }
    return table;
}

// True when the P90 column would repeat the wall time on every row.
bool p90_is_wall(const std::vector<GpuEstimate>& estimates) {
    return std::all_of(estimates.begin(), estimates.end(), [](const GpuEstimate& e) {
        return !e.goodput ||
               format_duration(e.goodput->p90_wall_hours) == format_duration(e.wall_hours);
    });
}

// The estimates for a terminal `width` columns wide (0: as wide as they are), GPU names whole:
// one table when it fits; else without a P90 column that only repeats the wall time; else two
// tables, the sizing and the time of each GPU.
std::string fitted_estimate_tables(const std::vector<GpuEstimate>& estimates, bool inference,
                                   std::size_t width) {
    std::string full = estimate_table(estimates, inference).render_text(width);
    if (width == 0 || widest_line(full) <= width) {
        return full;
    }
    if (!inference && p90_is_wall(estimates)) {
        const std::string without_p90 =
            estimate_table(estimates, inference, {true, true, false}).render_text(width);
        if (widest_line(without_p90) <= width) {
            return without_p90 + "(P90 wall time: the same as the wall time for every GPU)\n";
        }
    }
    return estimate_table(estimates, inference, {true, false, true}).render_text(width) + "\n" +
           estimate_table(estimates, inference, {false, true, true}).render_text(width);
}

std::string notes_text(const std::vector<GpuEstimate>& estimates, bool markdown) {
    std::string out;
    for (const GpuEstimate& e : estimates) {
        for (const std::string& note : e.notes) {
            out += markdown ? fmt::format("- **{}**: {}\n", e.gpu, note)
                            : wrap(fmt::format("  {}: ", e.gpu), note, k_text_width, "    ");
        }
    }
    return out;
}

// One training estimate's layout and where its time and memory go (methodology E5).
std::string layout_line(const GpuEstimate& e) {
    std::string layout = fmt::format("t{} x pp{}", e.tensor_parallel, e.pipeline_parallel);
    if (e.context_parallel > 1) {
        layout += fmt::format(" x cp{}", e.context_parallel);
    }
    layout += fmt::format(" x d{}", e.data_parallel);
    if (e.expert_parallel > 1) {
        layout += fmt::format(" (experts over {})", e.expert_parallel);
    }
    const estimate::TrainingTime& t = e.time;
    const estimate::MemoryBreakdown& m = e.memory;
    const std::string zero =
        e.sharding == "none" ? "no ZeRO" : "ZeRO-" + e.sharding.substr(e.sharding.size() - 1);
    return fmt::format("{}, {}; {} micro-batch{} per replica per step; bubble {}%, "
                       "communication {} h exposed, data loading {} h; memory per GPU {} GiB "
                       "(weights {}, gradients {}, optimizer {}, activations {})",
                       layout, zero, t.micro_batches, t.micro_batches == 1 ? "" : "es",
                       format_fixed(t.bubble_fraction * 100.0, 1),
                       format_fixed(t.communication_hours, 1),
                       format_fixed(t.data_loading_hours, 1), format_fixed(e.memory_per_gpu_gib, 1),
                       format_fixed(m.weights_gib, 1), format_fixed(m.gradients_gib, 1),
                       format_fixed(m.optimizer_gib, 1), format_fixed(m.activations_gib, 1));
}

// A serving replica laid out by expert parallelism (methodology E7.4).
std::string serving_layout_line(const GpuEstimate& e) {
    return fmt::format("{} replica{} of {} GPUs, experts over {} with attention data-parallel "
                       "(all-to-all dispatch and combine per layer); memory per GPU {} GiB "
                       "(weights {}, KV cache {})",
                       e.data_parallel, e.data_parallel == 1 ? "" : "s", e.model_parallel,
                       e.expert_parallel, format_fixed(e.memory_per_gpu_gib, 1),
                       format_fixed(e.memory.weights_gib, 1),
                       format_fixed(e.memory.kv_cache_gib, 1));
}

std::string layouts_text(const std::vector<GpuEstimate>& estimates, bool markdown) {
    std::string out;
    for (const GpuEstimate& e : estimates) {
        const bool serving_experts = e.sharding.empty() && e.expert_parallel > 1;
        if (e.sharding.empty() && !serving_experts) {
            continue; // dense inference, or no estimate at this precision
        }
        const std::string line = serving_experts ? serving_layout_line(e) : layout_line(e);
        out += markdown ? fmt::format("- **{}**: {}\n", e.gpu, line)
                        : wrap(fmt::format("  {}: ", e.gpu), line, k_text_width, "    ");
    }
    return out;
}

// Provenance of an estimate: no prices are used, so as_of spans the specs of the GPUs estimated.
ordered_json estimate_catalog_json(const recommend::CatalogInfo& catalog) {
    ordered_json out;
    out["digest"] = catalog.digest;
    out["as_of"] = catalog.oldest.empty()
                       ? ordered_json(nullptr)
                       : ordered_json{{"oldest", catalog.oldest}, {"newest", catalog.newest}};
    out["offers"] = catalog.offers;
    return out;
}

std::string header_line(const workload::Workload& w) {
    return fmt::format("{} ({}, {}, {} parameters)", w.name, workload::to_string(w.task),
                       workload::to_string(w.model.family), format_si(w.model.params));
}

} // namespace

std::string render_estimates(const workload::Workload& workload,
                             const std::vector<GpuEstimate>& estimates, Format format,
                             const GeneratorInfo& generator, const recommend::CatalogInfo& catalog,
                             std::size_t width) {
    const bool inference = workload.task == workload::Task::inference;
    switch (format) {
    case Format::json: {
        ordered_json out;
        out["schema_version"] = k_json_schema_version;
        put_generator(out, generator);
        out["catalog"] = estimate_catalog_json(catalog);
        out["workload"] = workload_json(workload);
        ordered_json list = ordered_json::array();
        for (const GpuEstimate& e : estimates) {
            list.push_back(estimate_json(e));
        }
        out["estimates"] = list;
        return out.dump(2) + "\n";
    }
    case Format::markdown: {
        std::string out = fmt::format("# Estimate: {}\n\n", header_line(workload));
        out += estimate_table(estimates, inference).render_markdown();
        const std::string layouts = layouts_text(estimates, true);
        if (!layouts.empty()) {
            out += "\n## Layout\n\n" + layouts;
        }
        const std::string notes = notes_text(estimates, true);
        if (!notes.empty()) {
            out += "\n## Notes\n\n" + notes;
        }
        return out;
    }
    case Format::table:
    default: {
        std::string out = header_line(workload) + "\n\n";
        out += fitted_estimate_tables(estimates, inference, width);
        const bool missed = std::any_of(estimates.begin(), estimates.end(),
                                        [](const GpuEstimate& e) { return !e.meets_deadline; });
        if (missed) {
            out += "\n* misses the deadline (training) or the latency target (inference)\n";
        }
        const std::string layouts = layouts_text(estimates, false);
        if (!layouts.empty()) {
            out += "\nLayout (tensor x pipeline x data parallelism):\n" + layouts;
        }
        const std::string notes = notes_text(estimates, false);
        if (!notes.empty()) {
            out += "\nNotes:\n" + notes;
        }
        return wrap_lines(out, width);
    }
    }
}

} // namespace gpuplan::report
