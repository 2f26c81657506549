// The date of a downloaded feed file from GitHub when its server sends no Last-Modified header.

#include "cli/feed_dates.hpp"

#include <catch2/catch.hpp>

using gpuplan::Date;
using gpuplan::cli::github_commit_date;
using gpuplan::cli::github_last_commit_url;

TEST_CASE("a GitHub raw URL maps to the API listing its file's last commit", "[cli][update]") {
    CHECK(github_last_commit_url("https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/"
                                 "master/catalogs/v8/aws/vms.csv") ==
          "https://api.github.com/repos/skypilot-org/skypilot-catalog/commits?"
          "path=catalogs/v8/aws/vms.csv&sha=master&per_page=1");
    CHECK_FALSE(github_last_commit_url("https://example.com/catalogs/v8/aws/vms.csv"));
    CHECK_FALSE(github_last_commit_url("https://raw.githubusercontent.com/owner/repo/master"));
    CHECK_FALSE(github_last_commit_url("https://raw.githubusercontent.com/o/r/main/a.csv?x=1"));
}

TEST_CASE("the committer date of the first commit is the file's date", "[cli][update]") {
    CHECK(
        github_commit_date(R"([{"sha": "abc", "commit": {"author": {"date": "2026-11-01T00:00:00Z"},
                                 "committer": {"date": "2026-11-30T06:13:17Z"}}}])") ==
        Date{2026, 11, 30});
    CHECK_FALSE(github_commit_date("[]"));
    CHECK_FALSE(github_commit_date(R"({"message": "API rate limit exceeded"})"));
    CHECK_FALSE(github_commit_date(R"([{"commit": {"committer": {"date": "yesterday"}}}])"));
    CHECK_FALSE(github_commit_date(R"([{"commit": {"committer": {}}}])"));
    CHECK_FALSE(github_commit_date("not json"));
}
