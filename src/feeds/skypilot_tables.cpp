#include "feeds/skypilot_tables.hpp"

#include "detail/strings.hpp"

#include <algorithm>

namespace gpuplan::feeds::sky {

using catalog::Gpu;

bool glob_match(std::string_view pattern, std::string_view text) {
    std::size_t p = 0;
    std::size_t t = 0;
    std::size_t star = std::string_view::npos;
    std::size_t resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') {
        ++p;
    }
    return p == pattern.size();
}

std::string_view instance_gpu(std::string_view provider, std::string_view instance,
                              std::string_view accelerator) {
    for (const InstanceGpu& rule : k_instance_gpus) {
        if (rule.provider == provider && rule.accelerator == accelerator &&
            glob_match(rule.instance, instance)) {
            return rule.gpu;
        }
    }
    return {};
}

Row owned(const RowView& view) {
    return Row{std::string(view.provider),
               std::string(view.instance),
               std::string(view.accelerator),
               view.count,
               view.vcpus,
               view.memory_gib,
               std::string(view.price_text),
               std::string(view.spot_text),
               view.price,
               view.spot,
               std::string(view.region),
               std::string(view.zone),
               view.file,
               view.line};
}

std::string_view join_key(std::string& buffer, std::string_view a, std::string_view b) {
    buffer.assign(a);
    buffer.push_back('\0');
    buffer.append(b);
    return buffer;
}

std::string display_name(std::string_view provider) {
    for (const auto& [name, display] : k_display_names) {
        if (name == provider) {
            return std::string(display);
        }
    }
    return std::string(provider);
}

std::string provider_from_header(const std::vector<std::string>& header) {
    auto has = [&](std::string_view name) {
        return std::find(header.begin(), header.end(), name) != header.end();
    };
    if (has("Generation")) {
        return "azure"; // v6 Azure
    }
    if (has("Arch") || has("LocalDiskType")) {
        return "aws";
    }
    if (header.size() >= 4 && header[0] == "InstanceType" && header[1] == "vCPUs" &&
        header[2] == "MemoryGiB" && header[3] == "AcceleratorName") {
        return "gcp";
    }
    return {};
}

const Gpu* find_in(std::span<const Gpu> gpus, std::string_view name) {
    for (const Gpu& gpu : gpus) {
        if (detail::iequals(gpu.name, name)) {
            return &gpu;
        }
        for (const std::string& alias : gpu.aliases) {
            if (detail::iequals(alias, name)) {
                return &gpu;
            }
        }
    }
    return nullptr;
}

std::size_t line_count(std::string_view text) {
    std::size_t lines = 1;
    for (std::size_t at = text.find('\n'); at != std::string_view::npos;
         at = text.find('\n', at + 1)) {
        ++lines;
    }
    return lines;
}

} // namespace gpuplan::feeds::sky
