#pragma once
// The date of a downloaded feed file when its server sends no Last-Modified header: for a file of
// a GitHub repository (raw.githubusercontent.com), the date of the last commit that changed it.

#include "gpuplan/units.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::cli {

// For `https://raw.githubusercontent.com/OWNER/REPO/REF/PATH`, the GitHub API URL that lists the
// last commit of PATH on REF (`https://api.github.com/repos/OWNER/REPO/commits?path=PATH&sha=REF
// &per_page=1`); nullopt for any other URL.
[[nodiscard]] std::optional<std::string> github_last_commit_url(std::string_view raw_url);

// The committer date (UTC day) of the first commit of a GitHub "list commits" answer; nullopt
// when the text is not one or names no date.
[[nodiscard]] std::optional<Date> github_commit_date(std::string_view json);

} // namespace gpuplan::cli
