#include "cli/runs_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "cli/input_file.hpp"
#include "cli/workload_input.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/report/runs_view.hpp"
#include "gpuplan/runs/calibrate.hpp"
#include "gpuplan/runs/importers.hpp"
#include "gpuplan/runs/runs.hpp"
#include "gpuplan/runs/validate.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <map>

namespace gpuplan::cli {

namespace {

std::vector<std::string> gpu_names(const catalog::Catalog& catalog) {
    std::vector<std::string> names;
    for (const catalog::Gpu& gpu : catalog.gpus) {
        names.push_back(gpu.name);
        names.insert(names.end(), gpu.aliases.begin(), gpu.aliases.end());
    }
    return names;
}

runs::RunsFile read_runs_file(const std::string& path, const catalog::Catalog& catalog) {
    return runs::read_runs(read_text_file(path, limits::k_max_workload_bytes),
                           relative_file_loader(path), gpu_names(catalog));
}

} // namespace

workload::Calibration load_calibration(const CommonOptions& options) {
    if (options.calibration.empty()) {
        return {};
    }
    return runs::read_calibration(
        read_text_file(options.calibration, limits::k_max_workload_bytes));
}

Exit run_validate(const CommonOptions& common, const ValidateOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const runs::RunsFile file = read_runs_file(options.runs, catalog);
    const workload::Calibration calibration = load_calibration(common);
    const runs::Validation validation =
        runs::validate(file, catalog, common.calibration.empty() ? nullptr : &calibration);
    write_output(
        common,
        report::render_validation(validation, common.format, generator_info(common), common.width),
        io);
    if (options.max_median_error &&
        validation.summary.median_abs_error > *options.max_median_error) {
        io.err << fmt::format("gpuplan: validate: median |error| {:.4f} is above "
                              "--max-median-error {:.4f}\n",
                              validation.summary.median_abs_error, *options.max_median_error);
        return Exit::gate_failed;
    }
    return Exit::ok;
}

Exit run_calibrate(const CommonOptions& common, const CalibrateOptions& options, Io& io) {
    if (common.output.empty()) {
        throw UsageError("calibrate: give the calibration file to write with -o FILE");
    }
    const catalog::Catalog catalog = load_catalog(common);
    const runs::RunsFile file = read_runs_file(options.runs, catalog);
    runs::Fit fit;
    const std::vector<runs::Evidence> evidence = runs::evidence_of(file, catalog, fit.skipped);
    const std::vector<std::string> skipped = fit.skipped;
    fit = runs::fit(evidence, catalog);
    fit.skipped = skipped;
    // The calibration file goes to -o; the factors to stdout.
    CommonOptions to_stdout = common;
    to_stdout.output.clear();
    const std::vector<OutputFile> files{
        {common.output, runs::write_calibration(fit, options.runs)}};
    write_output(to_stdout,
                 report::render_fit(fit, common.format, generator_info(common), common.width), io,
                 files);
    return Exit::ok;
}

Exit run_runs_import(const CommonOptions& common, const ImportOptions& options, Io& io) {
    const std::map<std::string, runs::ImportFormat> formats{
        {"vllm", runs::ImportFormat::vllm},
        {"genai-perf", runs::ImportFormat::genai_perf},
        {"aiperf", runs::ImportFormat::aiperf},
        {"mlperf", runs::ImportFormat::mlperf},
        {"csv", runs::ImportFormat::csv}};
    runs::ImportLabels labels{options.workload, options.gpu,  options.gpu_count.value_or(0),
                              options.engine,   options.name, options.source};
    const std::vector<runs::ImportedRun> imported =
        runs::import_runs(formats.at(options.from),
                          read_text_file(options.file, limits::k_max_workload_bytes), labels);
    // Without -o the runs go to stdout as a new runs file.
    TextFile existing{common.output, ""};
    if (!common.output.empty() && std::filesystem::exists(common.output)) {
        existing = read_text_file(common.output, limits::k_max_workload_bytes);
    }
    write_output(common, runs::append_runs(existing, runs::runs_yaml(imported)), io);
    if (!common.output.empty()) {
        io.err << fmt::format("gpuplan: appended {} run{} to {}\n", imported.size(),
                              imported.size() == 1 ? "" : "s", common.output);
    }
    return Exit::ok;
}

} // namespace gpuplan::cli
