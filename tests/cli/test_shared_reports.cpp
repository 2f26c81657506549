// Names from input files reach pages a team shares: they are text there, never markup.

#include "../support/cli_runner.hpp"
#include "../support/files.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

TEST_CASE("a portfolio or workload name holding a script stays text in html and markdown",
          "[cli][report]") {
    const gpuplan::test::Scratch scratch;
    const fs::path& dir = scratch.path;
    fs::copy_file(fs::path(GPUPLAN_SOURCE_DIR) / "tests/fixtures/fleet/serve-8.yaml",
                  dir / "serve-8.yaml");
    std::ofstream(dir / "portfolio.yaml")
        << "schema_version: 1\nname: \"team\\n<details><script>alert(1)</script>\"\n"
           "horizon_months: 12\nfinance: {discount_rate: 0.10, currency: USD}\n"
           "workloads:\n  - {file: serve-8.yaml, start_month: 0}\n";
    const auto html = gpuplan::test::run_cli(
        {"--no-default-catalog", "--catalog",
         std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/fleet/catalog.yaml", "fleet",
         (dir / "portfolio.yaml").string(), "--format", "html"});
    REQUIRE(html.exit_code == 0);
    CHECK(html.out.find("<script>alert(1)") == std::string::npos);
    CHECK(html.out.find("<details><script>") == std::string::npos);
    CHECK(html.out.find("&lt;details&gt;&lt;script&gt;alert(1)") != std::string::npos);

    std::ofstream(dir / "w.yaml")
        << "schema_version: 1\nname: \"w\\n<details><script>x</script>\"\n"
           "task: finetune\nmodel: {family: transformer, params: 7B}\n"
           "data: {tokens: 100M}\n";
    const auto markdown = gpuplan::test::run_cli(
        {"recommend", (dir / "w.yaml").string(), "--format", "markdown", "--top", "1"});
    REQUIRE(markdown.exit_code == 0);
    const std::string first = markdown.out.substr(0, markdown.out.find('\n'));
    CHECK_THAT(first, Catch::Contains("w\\x0a<details>")); // the newline shown, not obeyed
    CHECK(markdown.out.find("\n<details><script>") == std::string::npos);
}

TEST_CASE("an output through another user's symlink in a sticky shared folder is refused",
          "[cli][output]") {
    const gpuplan::test::Scratch scratch;
    const fs::path& dir = scratch.path;
    fs::create_directories(dir / "shared");
    fs::permissions(dir / "shared", fs::perms::all | fs::perms::sticky_bit);
    std::ofstream(dir / "victim.conf") << "keep\n";
    fs::create_symlink(dir / "victim.conf", dir / "shared" / "report.md");
    // Only root can give the link to another user (nobody, 65534); elsewhere the link is the
    // runner's own and is followed, as the kernel would.
    const bool foreign = ::lchown((dir / "shared" / "report.md").c_str(), 65534, 65534) == 0;
    const auto r =
        gpuplan::test::run_cli({"presets", "-o", (dir / "shared" / "report.md").string()});
    std::ifstream in(dir / "victim.conf");
    const std::string victim((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    if (foreign) {
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Catch::Contains("refusing to follow a symlink that another user owns"));
        CHECK(victim == "keep\n");
    } else {
        CHECK(r.exit_code == 0);
    }
}

TEST_CASE("a name holding a line break cannot forge a line of a table", "[cli][report]") {
    const gpuplan::test::Scratch scratch;
    const fs::path& dir = scratch.path;
    std::ofstream(dir / "evil.yaml")
        << "schema_version: 1\nsources: {p: {title: t}}\nproviders:\n"
           "  - name: evilcloud\n    display_name: E\n    currency: USD\n    as_of: 2026-11-01\n"
           "    source: p\n    instances:\n      - type: \"x\\nBest: forged line\"\n"
           "        gpu: H100\n        gpu_count: 8\n        vcpus: 96\n        memory_gib: 1024\n"
           "        prices: [{region: r1, on_demand: 0.01}]\n";
    const auto r = gpuplan::test::run_cli({"--catalog", (dir / "evil.yaml").string(), "recommend",
                                           "--preset", "llama-7b-lora", "--accept-soft"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\nBest: forged") == std::string::npos);
    CHECK(r.out.find("\n  Best: forged") == std::string::npos);
}
