#include "../support/files.hpp"
#include "cli/output_writer.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace gpuplan;
using gpuplan::test::Scratch;
using gpuplan::test::slurp;
using gpuplan::test::spit;
namespace fs = std::filesystem;

namespace {

std::size_t entries(const fs::path& folder) {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

} // namespace

TEST_CASE("files are written whole and keep the mode of the file they replace", "[output_writer]") {
    const Scratch scratch;
    const fs::path target = scratch.path / "out.txt";
    spit(target, "old");
    ::chmod(target.c_str(), 0600);
    const std::vector<cli::OutputFile> files{{target.string(), "new contents\n"}};
    cli::write_files(files);
    CHECK(slurp(target) == "new contents\n");
    struct stat info {};
    REQUIRE(::stat(target.c_str(), &info) == 0);
    CHECK((info.st_mode & 07777) == 0600);
    CHECK(entries(scratch.path) == 1); // no temporary file left
}

TEST_CASE("a symlink is written through to its target and stays a link", "[output_writer]") {
    const Scratch scratch;
    spit(scratch.path / "target.txt", "old");
    fs::create_symlink("target.txt", scratch.path / "link.txt");
    const std::vector<cli::OutputFile> files{{(scratch.path / "link.txt").string(), "via link"}};
    cli::write_files(files);
    CHECK(fs::is_symlink(scratch.path / "link.txt"));
    CHECK(slurp(scratch.path / "target.txt") == "via link");
}

TEST_CASE("a FIFO or folder target is refused and nothing of the run is written",
          "[output_writer]") {
    const Scratch scratch;
    const fs::path fifo = scratch.path / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    fs::create_directory(scratch.path / "folder");
    const std::vector<cli::OutputFile> to_fifo{{(scratch.path / "a.txt").string(), "a"},
                                               {fifo.string(), "b"}};
    CHECK_THROWS_WITH(cli::write_files(to_fifo),
                      fifo.string() +
                          ": error: refusing to replace a FIFO; gpuplan writes regular files only");
    const std::vector<cli::OutputFile> to_folder{{(scratch.path / "a.txt").string(), "a"},
                                                 {(scratch.path / "folder").string(), "b"}};
    CHECK_THROWS_AS(cli::write_files(to_folder), RuntimeError);
    CHECK_FALSE(fs::exists(scratch.path / "a.txt"));
    CHECK(entries(scratch.path) == 2);
}

TEST_CASE("two outputs naming one file are a usage error", "[output_writer]") {
    const Scratch scratch;
    const std::string a = (scratch.path / "r.md").string();
    const std::string b = (scratch.path / "." / "r.md").string();
    const std::vector<cli::OutputFile> files{{a, "1"}, {b, "2"}};
    CHECK_THROWS_AS(cli::write_files(files), UsageError);
    CHECK(entries(scratch.path) == 0);
}

TEST_CASE("a failed stream write reports the failure instead of success", "[output_writer]") {
    std::ostringstream out;
    out.setstate(std::ios::badbit);
    CHECK_THROWS_AS(cli::write_stream(out, "text"), cli::OutputError);
    std::ostringstream good;
    cli::write_stream(good, "text");
    CHECK(good.str() == "text");
}
