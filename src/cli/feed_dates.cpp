#include "cli/feed_dates.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::cli {

namespace {

constexpr std::string_view k_raw_host = "https://raw.githubusercontent.com/";

// The next `/`-separated part of `rest`, removed from it; empty when there is none.
std::string_view next_part(std::string_view& rest) {
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos) {
        return {};
    }
    const std::string_view part = rest.substr(0, slash);
    rest.remove_prefix(slash + 1);
    return part;
}

} // namespace

std::optional<std::string> github_last_commit_url(std::string_view raw_url) {
    if (raw_url.substr(0, k_raw_host.size()) != k_raw_host) {
        return std::nullopt;
    }
    std::string_view rest = raw_url.substr(k_raw_host.size());
    const std::string_view owner = next_part(rest);
    const std::string_view repo = next_part(rest);
    const std::string_view ref = next_part(rest);
    const bool plain = rest.find_first_of("?#&% ") == std::string_view::npos;
    if (owner.empty() || repo.empty() || ref.empty() || rest.empty() || !plain) {
        return std::nullopt;
    }
    return fmt::format("https://api.github.com/repos/{}/{}/commits?path={}&sha={}&per_page=1",
                       owner, repo, rest, ref);
}

std::optional<Date> github_commit_date(std::string_view json) {
    const auto answer = nlohmann::json::parse(json, nullptr, false);
    if (!answer.is_array() || answer.empty()) {
        return std::nullopt;
    }
    const auto& first = answer.front();
    if (!first.is_object() || !first.contains("commit")) {
        return std::nullopt;
    }
    const auto& commit = first["commit"];
    if (!commit.is_object() || !commit.contains("committer") || !commit["committer"].is_object()) {
        return std::nullopt;
    }
    const auto& committer = commit["committer"];
    if (!committer.contains("date") || !committer["date"].is_string()) {
        return std::nullopt;
    }
    const auto& date = committer["date"];
    if (!date.is_string()) {
        return std::nullopt;
    }
    const std::string text = date.get<std::string>(); // 2026-11-30T06:13:17Z
    return text.size() >= 10 ? parse_date(text.substr(0, 10)) : std::nullopt;
}

} // namespace gpuplan::cli
