#include "cli/common.hpp"

#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace gpuplan::cli {

namespace fs = std::filesystem;

catalog::TextFile read_text_file(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw RuntimeError(fmt::format("{}: error: is a directory, expected a file", path));
    }
    const auto too_large = [&](std::string size) {
        return InputError(
            {Diagnostic{path, 0, 0, "",
                        fmt::format("file too large: {} bytes (the limit is {} bytes)", size,
                                    k_max_input_bytes)}});
    };
    if (fs::is_regular_file(path, ec)) {
        const std::uintmax_t size = fs::file_size(path, ec);
        if (!ec && size > k_max_input_bytes) {
            throw too_large(std::to_string(size));
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw RuntimeError(
            fmt::format("{}: error: cannot read file: {}", path, std::strerror(errno)));
    }
    // Read at most one byte past the limit, so that a pipe or device cannot grow memory forever.
    std::string text;
    constexpr std::size_t k_chunk_bytes = 1U << 16U;
    std::vector<char> chunk(k_chunk_bytes);
    while (in && text.size() <= k_max_input_bytes) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) {
        throw RuntimeError(fmt::format("{}: error: cannot read file", path));
    }
    if (text.size() > k_max_input_bytes) {
        throw too_large(fmt::format("more than {}", k_max_input_bytes));
    }
    return {path, std::move(text)};
}

std::vector<catalog::TextFile> read_catalog_paths(const std::vector<std::string>& paths) {
    std::vector<catalog::TextFile> files;
    for (const std::string& path : paths) {
        std::error_code ec;
        if (!fs::is_directory(path, ec)) {
            files.push_back(read_text_file(path));
            continue;
        }
        std::vector<fs::path> found;
        for (auto it = fs::recursive_directory_iterator(path, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const fs::path relative = fs::relative(it->path(), path);
            if (it->is_directory() && relative == "presets") {
                it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file() && it->path().extension() == ".yaml" &&
                relative != "decision_tree.yaml") {
                found.push_back(it->path());
            }
        }
        if (ec) {
            throw RuntimeError(
                fmt::format("{}: error: cannot read folder: {}", path, ec.message()));
        }
        std::sort(found.begin(), found.end());
        for (const fs::path& file : found) {
            files.push_back(read_text_file(file.string()));
        }
    }
    return files;
}

catalog::Catalog load_catalog(const CommonOptions& options) {
    std::vector<catalog::TextFile> overlays = read_catalog_paths(options.catalogs);
    if (options.no_default_catalog) {
        if (overlays.empty()) {
            throw UsageError("--no-default-catalog needs at least one --catalog PATH");
        }
        return catalog::load_catalog(overlays);
    }
    catalog::Catalog base = embedded::bundle().catalog;
    if (overlays.empty()) {
        return base;
    }
    return catalog::overlay_catalog(std::move(base), overlays);
}

namespace {

// Inserts `generated_at` into a JSON object after its generator (or schema_version) key.
std::string stamp_json(const std::string& text, const std::string& generated_at) {
    const auto document = nlohmann::ordered_json::parse(text, nullptr, false);
    if (!document.is_object() || document.contains("generated_at")) {
        return text;
    }
    const std::string after = document.contains("generator") ? "generator" : "schema_version";
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& [key, value] : document.items()) {
        out[key] = value;
        if (key == after) {
            out["generated_at"] = generated_at;
        }
    }
    return out.dump(2) + "\n";
}

} // namespace

std::string utc_timestamp() {
    const auto now =
        std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", parts.tm_year + 1900,
                       parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec);
}

void write_output(const CommonOptions& options, const std::string& raw, Io& io) {
    const std::string text = !options.generated_at.empty() && options.format == report::Format::json
                                 ? stamp_json(raw, options.generated_at)
                                 : raw;
    if (options.output.empty() || options.output == "-") {
        io.out << text;
        io.out.flush();
        return;
    }
    const fs::path target = options.output;
    std::error_code ec;
    if (fs::is_directory(target, ec)) {
        throw RuntimeError(
            fmt::format("{}: error: is a directory, expected a file", target.string()));
    }
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const fs::path temporary =
        folder / fmt::format(".{}.tmp.{}", target.filename().string(), ::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            fs::remove(temporary, ec);
            throw RuntimeError(fmt::format("{}: error: cannot write file: {}", target.string(),
                                           std::strerror(errno)));
        }
    }
    fs::rename(temporary, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw RuntimeError(
            fmt::format("{}: error: cannot write file: {}", target.string(), ec.message()));
    }
}

report::GeneratorInfo generator_info() {
    return {"gpuplan", GPUPLAN_VERSION};
}

} // namespace gpuplan::cli
