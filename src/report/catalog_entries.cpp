#include "report/catalog_entries.hpp"

#include "gpuplan/numbers.hpp"

#include <cmath>
#include <fmt/format.h>

namespace gpuplan::report {

using catalog::Gpu;
using nlohmann::ordered_json;

ordered_json sources_json(const std::vector<std::string>& ids) {
    ordered_json out = ordered_json::array();
    for (const std::string& id : ids) {
        out.push_back(id);
    }
    return out;
}

ordered_json gpu_json(const Gpu& gpu) {
    ordered_json tflops = ordered_json::object();
    for (std::size_t i = 0; i < catalog::k_precision_count; ++i) {
        if (gpu.tflops.at(i)) {
            tflops[std::string(catalog::to_string(static_cast<catalog::Precision>(i)))] =
                *gpu.tflops.at(i);
        }
    }
    ordered_json out;
    out["name"] = gpu.name;
    out["aliases"] = gpu.aliases;
    out["architecture"] = catalog::to_string(gpu.architecture);
    out["form_factor"] = catalog::to_string(gpu.form_factor);
    out["memory_gib"] = gpu.memory_gib;
    out["memory_bandwidth_gb_per_s"] = gpu.memory_bandwidth_gb_per_s;
    out["dense_tflops"] = tflops;
    out["tdp_watts"] = gpu.tdp_watts;
    out["nvlink_gb_per_s"] = gpu.nvlink_gb_per_s;
    out["mig_instances"] = gpu.mig_instances;
    out["released"] = gpu.released;
    out["as_of"] = gpu.as_of.to_string();
    out["sources"] = sources_json(gpu.sources);
    return out;
}

ordered_json sources_table(const catalog::Catalog& catalog, const std::set<std::string>& used) {
    ordered_json out = ordered_json::object();
    for (const std::string& id : used) {
        auto it = catalog.sources.find(id);
        if (it == catalog.sources.end()) {
            continue;
        }
        ordered_json entry;
        entry["title"] = it->second.title;
        entry["url"] = it->second.url;
        if (!it->second.grade.empty()) {
            entry["grade"] = it->second.grade;
        }
        if (!it->second.note.empty()) {
            entry["note"] = it->second.note;
        }
        out[id] = entry;
    }
    return out;
}

std::string count_text(double count) {
    return count == std::floor(count) ? fmt::format("{}", static_cast<long>(count))
                                      : format_price(count);
}

} // namespace gpuplan::report
