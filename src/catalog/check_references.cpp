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

// What is wrong with one pending reference; empty when it resolves. `gpu_names` are the
// catalog's models (for the hint), `currencies` the base and every currency with a rate.
std::string reference_error(const Catalog& catalog, const PendingReference& ref,
                            std::span<const std::string_view> gpu_names,
                            std::span<const std::string_view> currencies) {
    if (ref.kind == PendingReference::Kind::slice) {
        return slice_error(catalog, ref);
    }
    if (ref.kind == PendingReference::Kind::gpu) {
        if (find_gpu(catalog, ref.name) != nullptr) {
            return {};
        }
        std::string hint = detail::closest_match(ref.name, gpu_names);
        return hint.empty() ? fmt::format("unknown GPU '{}': no such model in `gpus`", ref.name)
                            : fmt::format("unknown GPU '{}'; did you mean '{}'?", ref.name, hint);
    }
    if (std::find(currencies.begin(), currencies.end(), ref.name) != currencies.end()) {
        return {};
    }
    return fmt::format("currency {} has no exchange rate: add it to `fx.rates`", ref.name);
}

// Canonical GPU names everywhere, so later stages compare names exactly.
void use_canonical_gpu_names(Catalog& catalog) {
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
        std::string message = reference_error(catalog, ref, gpu_names, currencies);
        if (!message.empty()) {
            Diagnostic diagnostic = ref.where;
            diagnostic.message = std::move(message);
            sink.add(std::move(diagnostic));
        }
    }
    use_canonical_gpu_names(catalog);
}

} // namespace gpuplan::catalog::reading
