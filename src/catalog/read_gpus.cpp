// GPU models and the benchmarks measured on them.

#include "detail/strings.hpp"
#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

namespace {

// Whether `name` is `gpu`'s name or one of its aliases, in any case.
bool names_gpu(const Gpu& gpu, const std::string& name) {
    if (detail::iequals(name, gpu.name)) {
        return true;
    }
    return std::any_of(gpu.aliases.begin(), gpu.aliases.end(),
                       [&](const std::string& alias) { return detail::iequals(name, alias); });
}

// The peak TFLOPS per precision: fp32 is required, every other precision optional.
void read_tflops(const YamlNode& node, Gpu& gpu) {
    if (!node.expect_map(
            {"fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4", "nvfp4", "mxfp4"})) {
        return;
    }
    for (std::size_t i = 0; i < k_precision_count; ++i) {
        auto key = to_string(static_cast<Precision>(i));
        gpu.tflops.at(i) = node.number_at(key, key == "fp32", k_positive);
    }
}

} // namespace

void FileReader::read_gpu(const YamlNode& node) {
    if (!node.expect_map({"name", "aliases", "architecture", "form_factor", "memory_gib",
                          "memory_bandwidth_gb_per_s", "tflops", "tdp_watts", "nvlink_gb_per_s",
                          "mig_instances", "released", "source", "as_of", "note"})) {
        return;
    }
    Gpu gpu;
    gpu.name = node.string_at("name", true).value_or("");
    if (auto aliases = node.get("aliases")) {
        gpu.aliases = aliases->as_string_list().value_or(std::vector<std::string>{});
    }
    if (auto arch = node.require("architecture")) {
        if (auto index = arch->as_choice(
                {"volta", "turing", "ampere", "ada", "hopper", "blackwell", "cdna3"})) {
            gpu.architecture = static_cast<Architecture>(*index);
        }
    }
    if (auto form = node.require("form_factor")) {
        if (auto index = form->as_choice({"sxm", "pcie", "oam"})) {
            gpu.form_factor = static_cast<FormFactor>(*index);
        }
    }
    gpu.memory_gib = node.number_at("memory_gib", true, k_positive).value_or(0.0);
    gpu.memory_bandwidth_gb_per_s =
        node.number_at("memory_bandwidth_gb_per_s", true, k_positive).value_or(0.0);
    if (auto tflops = node.require("tflops")) {
        read_tflops(*tflops, gpu);
    }
    gpu.tdp_watts = node.number_at("tdp_watts", true, k_positive).value_or(0.0);
    gpu.nvlink_gb_per_s = node.number_at("nvlink_gb_per_s", false, k_positive).value_or(0.0);
    if (auto mig = node.get("mig_instances")) {
        gpu.mig_instances = static_cast<int>(mig->as_integer(1, 64).value_or(0));
    }
    if (auto released = node.require("released")) {
        gpu.released = static_cast<int>(released->as_integer(1990, 2100).value_or(0));
    }
    gpu.sources = required_sources(node);
    if (auto as_of = node.require("as_of")) {
        gpu.as_of = as_of->as_date().value_or(Date{});
    }
    gpu.note = node.string_at("note", false).value_or("");
    if (gpu.name.empty()) {
        return;
    }
    if (const Gpu* other = clashing_gpu(gpu)) {
        node.get("name")->error(fmt::format(
            "GPU '{}' clashes with GPU '{}' defined earlier in this file (name or alias)", gpu.name,
            other->name));
        return;
    }
    m_file_gpus.push_back(gpu);
    auto same = [&](const Gpu& g) { return detail::iequals(g.name, gpu.name); };
    replace_or_append(m_catalog.gpus, std::move(gpu), same);
}

// The first GPU read earlier in this file that shares a name or an alias with `gpu`.
const Gpu* FileReader::clashing_gpu(const Gpu& gpu) const {
    for (const Gpu& other : m_file_gpus) {
        const bool duplicate =
            names_gpu(other, gpu.name) ||
            std::any_of(gpu.aliases.begin(), gpu.aliases.end(),
                        [&](const std::string& alias) { return names_gpu(other, alias); });
        if (duplicate) {
            return &other;
        }
    }
    return nullptr;
}

void FileReader::read_benchmark(const YamlNode& node) {
    if (!node.expect_map({"model", "gpu", "precision", "metric", "value", "gpu_count", "batch",
                          "source", "as_of", "note"})) {
        return;
    }
    Benchmark benchmark;
    benchmark.model = node.string_at("model", true).value_or("");
    benchmark.gpu = required_gpu(node);
    if (auto precision = node.require("precision")) {
        if (auto index = precision->as_choice(
                {"fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4", "nvfp4", "mxfp4"})) {
            benchmark.precision = static_cast<Precision>(*index);
        }
    }
    if (auto metric = node.require("metric")) {
        const std::vector<std::string_view> metrics{"samples_per_second_per_gpu",
                                                    "tokens_per_second_per_gpu",
                                                    "inference_samples_per_second_per_gpu"};
        if (auto index = metric->as_choice(metrics)) {
            benchmark.metric = std::string(metrics.at(*index));
        }
    }
    benchmark.value = node.number_at("value", true, k_positive).value_or(0.0);
    if (auto count = node.get("gpu_count")) {
        benchmark.gpu_count = static_cast<int>(count->as_integer(1, 100'000).value_or(1));
    }
    if (auto batch = node.get("batch")) {
        benchmark.batch = static_cast<int>(batch->as_integer(1, 1'000'000).value_or(0));
    }
    benchmark.sources = required_sources(node);
    if (auto as_of = node.require("as_of")) {
        benchmark.as_of = as_of->as_date().value_or(Date{});
    }
    auto same = [&](const Benchmark& b) {
        return b.model == benchmark.model && detail::iequals(b.gpu, benchmark.gpu) &&
               b.precision == benchmark.precision && b.metric == benchmark.metric &&
               b.batch == benchmark.batch;
    };
    replace_or_append(m_catalog.benchmarks, std::move(benchmark), same);
}

} // namespace gpuplan::catalog::reading
