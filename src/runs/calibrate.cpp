#include "gpuplan/runs/calibrate.hpp"

#include "detail/yaml_reader.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/runs/validate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace gpuplan::runs {

namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string>; // gpu kind engine prec
using Family = std::tuple<std::string, std::string, std::string>;           // kind engine prec

Family family_of(const Evidence& e) {
    return {e.kind, e.engine, e.precision};
}

// The log-space sigma of the estimator's error for a task kind (C14).
double prior_sigma(std::string_view kind) {
    const double m = kind == "inference" ? k_prior_serving_error : k_prior_train_error;
    return std::log1p(m) / k_median_z;
}

// Per-run noise: the prior's per-job half pooled with the runs' own spread as one
// pseudo-observation, (s0^2 + sum (r - mean)^2) / n.
double run_variance(std::span<const double> values, double prior_variance) {
    if (values.empty()) {
        return prior_variance;
    }
    const double mean =
        std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    double squares = 0.0;
    for (double v : values) {
        squares += (v - mean) * (v - mean);
    }
    return (prior_variance + squares) / static_cast<double>(values.size());
}

double median_abs(std::vector<double> values) {
    for (double& v : values) {
        v = std::abs(v);
    }
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

// The relative error of a run after a factor exp(log_factor).
double calibrated_error(const Evidence& e, double log_factor) {
    return e.rate ? std::exp(log_factor - e.log_ratio) - 1.0
                  : std::exp(e.log_ratio - log_factor) - 1.0;
}

std::vector<double> ratios(const std::vector<const Evidence*>& list) {
    std::vector<double> out;
    out.reserve(list.size());
    for (const Evidence* e : list) {
        out.push_back(e->log_ratio);
    }
    return out;
}

std::string join_gpus(const std::vector<const Evidence*>& carried) {
    std::set<std::string> gpus;
    for (const Evidence* e : carried) {
        gpus.insert(e->gpu);
    }
    std::string out;
    for (const std::string& g : gpus) {
        out += (out.empty() ? "" : ", ") + g;
    }
    return out;
}

Fitted fitted_of(const Key& key, const std::vector<const Evidence*>& own,
                 const std::vector<const Evidence*>& carried) {
    const std::string& kind = std::get<1>(key);
    const std::vector<double> own_r = ratios(own);
    const std::vector<double> carried_r = ratios(carried);
    const Shrunk s = shrink(own_r, carried_r, kind);
    Fitted f;
    f.factor = {std::get<0>(key),
                kind,
                std::get<2>(key),
                std::get<3>(key),
                std::exp(s.log_factor),
                static_cast<int>(own.size()),
                static_cast<int>(carried.size()),
                join_gpus(carried),
                0.0};
    f.log_sd = s.log_sd;
    for (const Evidence* e : own) {
        f.runs.push_back(e->run);
    }
    for (const Evidence* e : carried) {
        f.carried_runs.push_back(e->run);
    }
    if (!own.empty()) {
        std::vector<double> errors;
        errors.reserve(own.size());
        for (std::size_t i = 0; i < own.size(); ++i) {
            std::vector<double> rest = own_r;
            rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
            errors.push_back(calibrated_error(*own[i], shrink(rest, carried_r, kind).log_factor));
        }
        f.loo_median_error = median_abs(errors);
        f.factor.loo_median_error = *f.loo_median_error;
    }
    return f;
}

} // namespace

Shrunk shrink(std::span<const double> own, std::span<const double> carried, std::string_view kind) {
    const double sigma = prior_sigma(kind);
    // Half of the estimator's log-variance is shared by a GPU model and stack (what a factor
    // learns), half is each job's own (C14).
    const double group_variance = sigma * sigma / 2.0;
    const double job_variance = sigma * sigma / 2.0;
    // Two GPU models' factors differ by a variance of 2 x group variance x (1 - rho).
    const double carry_variance = 2.0 * group_variance * (1.0 - k_carry_correlation);
    const double own_noise = run_variance(own, job_variance);
    const double carried_noise = run_variance(carried, job_variance) + carry_variance;
    double precision = 1.0 / group_variance;
    double weighted = 0.0;
    for (double r : own) {
        precision += 1.0 / own_noise;
        weighted += r / own_noise;
    }
    for (double r : carried) {
        precision += 1.0 / carried_noise;
        weighted += r / carried_noise;
    }
    return {weighted / precision, std::sqrt(1.0 / precision)};
}

std::vector<Evidence> evidence_of(const RunsFile& runs, const catalog::Catalog& catalog,
                                  std::vector<std::string>& skipped) {
    std::vector<Evidence> out;
    for (const Run& run : runs.runs) {
        const Measurement& m = run.measured.front();
        std::optional<double> predicted;
        std::string why;
        try {
            const estimate::GpuEstimate e = estimate_run(run, catalog, nullptr);
            predicted = predicted_value(m.metric, run.workload, e);
            why = fmt::format("the estimate has no {}", to_string(m.metric));
        } catch (const UsageError& error) {
            why = error.what();
        }
        if (!predicted) {
            skipped.push_back(fmt::format("{}: {}", run.name, why));
            continue;
        }
        const catalog::Gpu* gpu = catalog::find_gpu(catalog, run.gpu);
        Evidence e;
        e.run = run.name;
        e.gpu = gpu->name;
        e.architecture = std::string(catalog::to_string(gpu->architecture));
        e.kind = std::string(workload::to_string(run.workload.task));
        e.engine = run.stack.engine;
        const catalog::Precision precision = run.workload.task == workload::Task::inference
                                                 ? run.workload.inference.precision
                                                 : run.workload.training.precision;
        e.precision = std::string(catalog::to_string(precision));
        e.rate = higher_is_faster(m.metric);
        e.log_ratio = e.rate ? std::log(m.value / *predicted) : std::log(*predicted / m.value);
        out.push_back(std::move(e));
    }
    return out;
}

Fit fit(std::span<const Evidence> evidence, const catalog::Catalog& catalog) {
    std::map<Key, std::vector<const Evidence*>> own;
    std::map<Family, std::set<std::string>> architectures; // where each family was measured
    for (const Evidence& e : evidence) {
        own[{e.gpu, e.kind, e.engine, e.precision}].push_back(&e);
        architectures[family_of(e)].insert(e.architecture);
    }
    // Every GPU model of a measured architecture gets the family's factor: measured or carried.
    std::set<Key> keys;
    for (const auto& [key, list] : own) {
        keys.insert(key);
    }
    for (const auto& [family, archs] : architectures) {
        for (const catalog::Gpu& gpu : catalog.gpus) {
            if (archs.contains(std::string(catalog::to_string(gpu.architecture)))) {
                keys.insert(
                    {gpu.name, std::get<0>(family), std::get<1>(family), std::get<2>(family)});
            }
        }
    }
    Fit out;
    for (const Key& key : keys) {
        const catalog::Gpu* gpu = catalog::find_gpu(catalog, std::get<0>(key));
        const std::string arch =
            gpu == nullptr ? "" : std::string(catalog::to_string(gpu->architecture));
        std::vector<const Evidence*> carried;
        for (const Evidence& e : evidence) {
            if (e.gpu != std::get<0>(key) && e.architecture == arch &&
                family_of(e) == Family{std::get<1>(key), std::get<2>(key), std::get<3>(key)}) {
                carried.push_back(&e);
            }
        }
        const auto found = own.find(key);
        out.factors.push_back(fitted_of(
            key, found == own.end() ? std::vector<const Evidence*>{} : found->second, carried));
    }
    return out;
}

std::string write_calibration(const Fit& fit, const std::string& runs_file) {
    std::string out = fmt::format(
        "# Speed factors fitted by `gpuplan calibrate {}` (docs/runs-format.md, \"Calibration "
        "file\").\n# factor: measured speed / the default estimate's, shrunk toward 1 "
        "(docs/methodology.md, \"Calibration\").\nschema_version: {}\nprior:\n  train_error: "
        "{}\n  serving_error: {}\n  carry_correlation: {}\nfactors:\n",
        runs_file, k_calibration_schema_version, k_prior_train_error, k_prior_serving_error,
        k_carry_correlation);
    if (fit.factors.empty()) {
        out.pop_back();
        out += " []\n";
    }
    for (const Fitted& f : fit.factors) {
        const workload::SpeedFactor& s = f.factor;
        out += fmt::format("  - gpu: \"{}\"\n    kind: {}\n    engine: \"{}\"\n    precision: "
                           "\"{}\"\n    factor: {:.4f}\n    runs: {}\n    carried_runs: {}\n",
                           s.gpu, s.kind, s.engine, s.precision, s.factor, s.runs, s.carried_runs);
        if (!s.from.empty()) {
            out += fmt::format("    from: \"{}\"\n", s.from);
        }
        if (f.loo_median_error) {
            out += fmt::format("    loo_median_error: {:.4f}\n", *f.loo_median_error);
        }
    }
    return out;
}

namespace {

std::optional<workload::SpeedFactor> read_factor(const detail::YamlNode& node) {
    if (!node.expect_map({"gpu", "kind", "engine", "precision", "factor", "runs", "carried_runs",
                          "from", "loo_median_error"})) {
        return std::nullopt;
    }
    const std::size_t before = node.context().sink->size();
    workload::SpeedFactor f;
    f.gpu = node.string_at("gpu", true).value_or("");
    if (auto kind = node.require("kind")) {
        if (auto which = kind->as_choice({"train", "finetune", "inference"})) {
            f.kind = std::array{"train", "finetune", "inference"}.at(*which);
        }
    }
    f.engine = node.string_at("engine", false).value_or("");
    if (auto precision = node.get("precision")) {
        if (auto text = precision->as_string(); text && !catalog::parse_precision(*text)) {
            precision->error(fmt::format("expected a precision (fp32, tf32, fp16, bf16, fp8, "
                                         "int8, int4, nvfp4, mxfp4), got \"{}\"",
                                         *text));
        } else if (text) {
            f.precision = *text;
        }
    }
    constexpr detail::NumberRange k_factor_range{0.01, 100.0, false, "a factor from 0.01 to 100"};
    f.factor = node.number_at("factor", true, k_factor_range).value_or(1.0);
    if (auto runs = node.get("runs")) {
        f.runs = static_cast<int>(runs->as_integer(0, 1'000'000).value_or(0));
    }
    if (auto runs = node.get("carried_runs")) {
        f.carried_runs = static_cast<int>(runs->as_integer(0, 1'000'000).value_or(0));
    }
    f.from = node.string_at("from", false).value_or("");
    f.loo_median_error =
        node.number_at("loo_median_error", false, detail::k_non_negative).value_or(0.0);
    if (node.context().sink->size() != before) {
        return std::nullopt;
    }
    return f;
}

} // namespace

workload::Calibration read_calibration(const TextFile& file) {
    DiagnosticSink sink;
    detail::YamlContext context{file.name, &sink};
    context.max_bytes = limits::k_max_workload_bytes;
    workload::Calibration calibration;
    calibration.file = file.name;
    if (auto root = detail::parse_yaml_document(file.text, context)) {
        if (root->expect_map({"schema_version", "prior", "factors"})) {
            // The factors are read whatever the version, so that one run reports them all.
            (void)detail::read_schema_version(*root, "calibration", k_calibration_schema_version);
            if (auto factors = root->require("factors"); factors && factors->expect_sequence()) {
                for (const detail::YamlNode& item : factors->items()) {
                    if (auto f = read_factor(item)) {
                        calibration.factors.push_back(std::move(*f));
                    }
                }
            }
        }
    }
    sink.throw_if_any();
    return calibration;
}

} // namespace gpuplan::runs
