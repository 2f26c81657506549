#include "gpuplan/feeds/skypilot.hpp"

#include "detail/strings.hpp"
#include "feeds/skypilot_reader.hpp"

#include <algorithm>

namespace gpuplan::feeds {

std::string_view describe(AsOfOrigin origin, std::string_view as_of_name) {
    switch (origin) {
    case AsOfOrigin::option:
        return as_of_name;
    case AsOfOrigin::file_date:
        return "the file's modification date";
    case AsOfOrigin::download:
        return "the download time";
    case AsOfOrigin::last_modified:
        return "the server's Last-Modified date";
    case AsOfOrigin::commit_date:
        return "the file's last commit";
    }
    return as_of_name;
}

bool is_provider_id(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

std::string provider_from_file_name(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    std::string_view candidate;
    if (base == "vms.csv" && slash != std::string_view::npos) {
        std::string_view folder = path.substr(0, slash);
        const std::size_t parent = folder.find_last_of("/\\");
        candidate = parent == std::string_view::npos ? folder : folder.substr(parent + 1);
    } else {
        candidate = base.substr(0, base.find_first_of("_-."));
    }
    std::string lower = detail::to_lower(candidate);
    for (std::string_view cloud : sky::k_skypilot_clouds) {
        if (cloud == lower) {
            return lower;
        }
    }
    return {};
}

FeedRead read_skypilot(std::span<const FeedFile> files, const FeedOptions& options,
                       std::span<const catalog::Gpu> known,
                       std::span<const catalog::Gpu> fallback) {
    return sky::FeedReader(files, options, known, fallback).read();
}

} // namespace gpuplan::feeds
