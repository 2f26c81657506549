// The checks that wait until every file is merged: GPU, currency and GPU-slice references.

#include "detail/strings.hpp"
#include "file_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuplan::catalog::reading {

namespace {

// What is wrong with a slice of an instance's GPU; empty when nothing (or the GPU is unknown,
// which its own reference reports).
std::string slice_error(const Catalog& catalog, const PendingReference& ref) {
    const Gpu* gpu = find_gpu(catalog, ref.name);
    if (gpu == nullptr) {
        return {};
    }
    if (!ref.mig_profile.empty() && find_mig_profile(gpu->name, ref.mig_profile) == nullptr) {
        std::vector<std::string_view> names;
        for (const MigProfile& p : mig_profiles(gpu->name)) {
            names.push_back(p.name);
        }
        return names.empty()
                   ? fmt::format(
                         "GPU '{}' has no MIG profiles gpuplan knows (docs/catalog-format.md)",
                         gpu->name)
                   : fmt::format("GPU '{}' has no MIG profile '{}'; its profiles: {}", gpu->name,
                                 ref.mig_profile, fmt::join(names, ", "));
    }
    if (ref.slice_memory_gib && *ref.slice_memory_gib > gpu->memory_gib) {
        return fmt::format("gpu_memory_gib {:g} is more than the {:g} GiB of a whole {}",
                           *ref.slice_memory_gib, gpu->memory_gib, gpu->name);
    }
    return {};
}

} // namespace

void check_references(Catalog& catalog, const std::vector<PendingReference>& pending,
                      DiagnosticSink& sink) {
    std::vector<std::string_view> gpu_names;
    for (const Gpu& gpu : catalog.gpus) {
        gpu_names.push_back(gpu.name);
    }
    std::vector<std::string_view> currencies{catalog.fx.base};
    for (const FxRate& rate : catalog.fx.rates) {
        currencies.push_back(rate.currency);
    }
    for (const PendingReference& ref : pending) {
        Diagnostic diagnostic = ref.where;
        if (ref.kind == PendingReference::Kind::slice) {
            diagnostic.message = slice_error(catalog, ref);
            if (!diagnostic.message.empty()) {
                sink.add(std::move(diagnostic));
            }
            continue;
        }
        if (ref.kind == PendingReference::Kind::gpu) {
            if (find_gpu(catalog, ref.name) != nullptr) {
                continue;
            }
            std::string hint = detail::closest_match(ref.name, gpu_names);
            diagnostic.message =
                hint.empty() ? fmt::format("unknown GPU '{}': no such model in `gpus`", ref.name)
                             : fmt::format("unknown GPU '{}'; did you mean '{}'?", ref.name, hint);
        } else {
            if (std::find(currencies.begin(), currencies.end(), ref.name) != currencies.end()) {
                continue;
            }
            diagnostic.message =
                fmt::format("currency {} has no exchange rate: add it to `fx.rates`", ref.name);
        }
        sink.add(std::move(diagnostic));
    }
    // Canonical GPU names everywhere, so later stages compare names exactly.
    auto canonical = [&](std::string& name) {
        if (const Gpu* gpu = find_gpu(catalog, name)) {
            name = gpu->name;
        }
    };
    for (Provider& provider : catalog.providers) {
        for (Instance& instance : provider.instances) {
            canonical(instance.gpu);
        }
    }
    if (catalog.self_built) {
        for (Build& build : catalog.self_built->builds) {
            canonical(build.gpu);
        }
    }
    for (Benchmark& benchmark : catalog.benchmarks) {
        canonical(benchmark.gpu);
    }
}

} // namespace gpuplan::catalog::reading
