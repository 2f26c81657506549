#include "gpuplan/runs/validate.hpp"

#include "gpuplan/error.hpp"
#include "gpuplan/runs/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace gpuplan::runs {

namespace {

using estimate::GpuEstimate;

constexpr double k_within_10 = 0.10;
constexpr double k_within_25 = 0.25;
constexpr double k_p90 = 0.90;
constexpr double k_ms_per_second = 1000.0;
constexpr double k_seconds_per_hour = 3600.0;
constexpr double k_hours_per_day = 24.0;

std::string layout_of(const GpuEstimate& e) {
    std::string text =
        fmt::format("{} {} t{} pp{}", e.gpu_count, e.gpu, e.tensor_parallel, e.pipeline_parallel);
    if (e.context_parallel > 1) {
        text += fmt::format(" cp{}", e.context_parallel);
    }
    if (e.expert_parallel > 1) {
        text += fmt::format(" ep{}", e.expert_parallel);
    }
    text += fmt::format(" d{}", e.data_parallel);
    if (!e.sharding.empty() && e.sharding != "none") {
        text += " " + e.sharding;
    }
    return text;
}

std::optional<double> positive(std::optional<double> value) {
    if (!value || !std::isfinite(*value) || *value <= 0.0) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> ratio(double a, std::optional<double> b) {
    if (!b || *b <= 0.0) {
        return std::nullopt;
    }
    return positive(a / *b);
}

std::optional<double> serving_value(Metric metric, const workload::Workload& w,
                                    const GpuEstimate& e, double gpus) {
    if (w.task != workload::Task::inference) {
        return std::nullopt;
    }
    const bool p90 = w.inference.percentile == 90;
    switch (metric) {
    case Metric::output_tokens_per_second:
        return positive(e.throughput.requests_per_second_capacity.value_or(0.0) *
                        w.inference.output_tokens);
    case Metric::decode_tokens_per_second:
        return positive(e.throughput.decode_tokens_per_second);
    case Metric::ttft_ms:
        return positive(p90 ? e.serving.ttft_p90_ms : e.serving.ttft_p50_ms);
    case Metric::tpot_ms:
        return positive(p90 ? e.serving.tpot_p90_ms : e.serving.tpot_p50_ms);
    case Metric::first_token_ms:
        return ratio(k_ms_per_second * w.inference.input_tokens,
                     e.throughput.prefill_tokens_per_second);
    case Metric::seconds_per_sample:
        return ratio(gpus, e.throughput.requests_per_second_capacity);
    default:
        return std::nullopt;
    }
}

// The median of sorted values.
double median_of(const std::vector<double>& sorted) {
    const std::size_t n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

// The q-quantile of sorted values, interpolated linearly between order statistics.
double quantile_of(const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto low = static_cast<std::size_t>(std::floor(at));
    const std::size_t high = std::min(low + 1, sorted.size() - 1);
    return sorted[low] + (sorted[high] - sorted[low]) * (at - static_cast<double>(low));
}

std::optional<double> rank_agreement(std::span<const Row> rows, int& pairs) {
    double agree = 0.0;
    pairs = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (std::size_t j = i + 1; j < rows.size(); ++j) {
            const Row& a = rows[i];
            const Row& b = rows[j];
            if (a.metric != b.metric || !a.predicted || !b.predicted || a.measured == b.measured) {
                continue;
            }
            ++pairs;
            const double measured = a.measured - b.measured;
            const double predicted = *a.predicted - *b.predicted;
            agree += predicted == 0.0 ? 0.5 : (measured > 0.0) == (predicted > 0.0) ? 1.0 : 0.0;
        }
    }
    if (pairs == 0) {
        return std::nullopt;
    }
    return agree / pairs;
}

Row row_of(const Run& run, const Measurement& m) {
    Row row;
    row.name = run.name;
    row.metric = m.metric;
    row.measured = m.value;
    row.sample = run.sample;
    row.group = run.group;
    row.source = run.source;
    row.note = run.note;
    return row;
}

void predict_rows(const Run& run, const catalog::Catalog& catalog,
                  const workload::Calibration* calibration, std::vector<Row>& rows) {
    std::optional<GpuEstimate> e;
    std::string why;
    try {
        e = estimate_run(run, catalog, calibration);
    } catch (const UsageError& error) {
        why = error.what();
    }
    for (const Measurement& m : run.measured) {
        Row row = row_of(run, m);
        if (e) {
            row.layout = layout_of(*e);
            row.factor = e->calibration;
            row.predicted = predicted_value(m.metric, run.workload, *e);
            if (row.predicted) {
                row.error = relative_error(*row.predicted, m.value);
            } else {
                row.why = fmt::format("the estimate has no {} for a {} workload",
                                      to_string(m.metric), workload::to_string(run.workload.task));
            }
        } else {
            row.why = why;
        }
        rows.push_back(std::move(row));
    }
}

std::vector<Part> parts_of(const std::vector<Row>& rows) {
    std::vector<std::pair<std::string, Sample>> keys;
    for (const Row& row : rows) {
        const auto key = std::pair(row.group, row.sample);
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            keys.push_back(key);
        }
    }
    std::vector<Part> parts;
    if (keys.size() < 2) {
        return parts;
    }
    parts.reserve(keys.size());
    for (const auto& [group, sample] : keys) {
        std::vector<Row> chosen;
        for (const Row& row : rows) {
            if (row.group == group && row.sample == sample) {
                chosen.push_back(row);
            }
        }
        parts.push_back({group, sample, summarize(chosen)});
    }
    return parts;
}

// Each run predicted with the factors fitted from every other run.
Summary leave_one_out(const RunsFile& runs, const catalog::Catalog& catalog) {
    std::vector<std::string> skipped;
    const std::vector<Evidence> all = evidence_of(runs, catalog, skipped);
    std::vector<Row> rows;
    for (const Run& run : runs.runs) {
        std::vector<Evidence> others;
        others.reserve(all.size());
        std::copy_if(all.begin(), all.end(), std::back_inserter(others),
                     [&](const Evidence& e) { return e.run != run.name; });
        const Fit without = fit(others, catalog);
        workload::Calibration calibration;
        for (const Fitted& f : without.factors) {
            calibration.factors.push_back(f.factor);
        }
        predict_rows(run, catalog, &calibration, rows);
    }
    return summarize(rows);
}

} // namespace

GpuEstimate estimate_run(const Run& run, const catalog::Catalog& catalog,
                         const workload::Calibration* calibration) {
    const catalog::Gpu* gpu = catalog::find_gpu(catalog, run.gpu);
    if (gpu == nullptr) {
        throw UsageError(fmt::format("unknown GPU model '{}'", run.gpu));
    }
    workload::Workload w = run.workload;
    if (calibration != nullptr) {
        w.calibration = *calibration;
    }
    return estimate::estimate(w, *gpu, estimate::default_node_shape(catalog, *gpu, w),
                              run.gpu_count, catalog);
}

std::optional<double> predicted_value(Metric metric, const workload::Workload& w,
                                      const GpuEstimate& e) {
    const double gpus = std::max(1, e.gpu_count);
    const double seq = std::max(1, w.model.seq_len.value_or(1));
    const estimate::Throughput& t = e.throughput;
    switch (metric) {
    case Metric::wall_hours:
        return positive(e.wall_hours);
    case Metric::gpu_hours:
        return positive(e.gpu_hours);
    case Metric::wall_days:
        return positive(e.wall_hours / k_hours_per_day);
    case Metric::total_flops:
        return positive(e.total_flops);
    case Metric::tokens_per_second:
        return positive(t.tokens_per_second);
    case Metric::samples_per_second:
        return positive(t.samples_per_second);
    case Metric::tokens_per_second_per_gpu:
        return positive(t.tokens_per_second / gpus);
    case Metric::samples_per_second_per_gpu:
        return positive(t.samples_per_second / gpus);
    case Metric::sequences_per_second_per_gpu:
        return positive(t.tokens_per_second / gpus / seq);
    case Metric::seconds_per_iteration:
        return ratio(w.data.tokens.value_or(0.0), t.tokens_per_second);
    case Metric::model_flops_per_second:
        return ratio(e.total_flops, e.wall_hours * k_seconds_per_hour);
    default:
        return serving_value(metric, w, e, gpus);
    }
}

double relative_error(double predicted, double measured) {
    return (predicted - measured) / measured;
}

Summary summarize(std::span<const Row> rows) {
    std::vector<double> errors;
    errors.reserve(rows.size());
    for (const Row& row : rows) {
        if (row.error) {
            errors.push_back(std::abs(*row.error));
        }
    }
    Summary s;
    s.n = static_cast<int>(errors.size());
    s.rank_agreement = rank_agreement(rows, s.pairs);
    if (errors.empty()) {
        return s;
    }
    std::sort(errors.begin(), errors.end());
    const auto share = [&](double limit) {
        // A printed 10.0 % counts as within 10 %: compare with a tolerance below rounding.
        constexpr double k_tolerance = 1e-12;
        return static_cast<double>(
                   std::count_if(errors.begin(), errors.end(),
                                 [&](double x) { return x <= limit + k_tolerance; })) /
               static_cast<double>(errors.size());
    };
    s.median_abs_error = median_of(errors);
    s.p90_abs_error = quantile_of(errors, k_p90);
    s.max_abs_error = errors.back();
    s.within_10 = share(k_within_10);
    s.within_25 = share(k_within_25);
    return s;
}

Validation validate(const RunsFile& runs, const catalog::Catalog& catalog,
                    const workload::Calibration* calibration) {
    Validation v;
    for (const Run& run : runs.runs) {
        predict_rows(run, catalog, calibration, v.rows);
    }
    v.summary = summarize(v.rows);
    v.parts = parts_of(v.rows);
    if (calibration != nullptr) {
        v.calibration = calibration->file;
        v.leave_one_out = leave_one_out(runs, catalog);
    }
    return v;
}

} // namespace gpuplan::runs
