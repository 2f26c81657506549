#include "cli/command_notes.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <vector>

namespace gpuplan::cli {

namespace {

// What each command's help ends with, and the man page's EXAMPLES: the global options it honours
// and two examples (run from the repository, with its example workloads).
struct NotesRow {
    std::string_view path;
    std::string_view globals;
    std::array<std::string_view, 2> examples;
};

constexpr std::string_view k_catalog_globals = "--catalog --no-default-catalog --offline";
constexpr std::array<NotesRow, 18> k_command_notes{{
    {"recommend",
     "--catalog --no-default-catalog --offline --as-of --currency --format -o --color --wide "
     "--max-catalog-age --timestamp -v -q",
     {"recommend examples/llama-7b-lora-finetune.yaml",
      "recommend --preset llama-70b-inference --format json -o plan.json"}},
    {"estimate",
     "--catalog --no-default-catalog --offline --as-of --format -o --color --wide -v -q",
     {"estimate --preset llama2-7b-pretrain --gpu H100",
      "estimate examples/llama-7b-lora-finetune.yaml --format json"}},
    {"tco",
     "--catalog --no-default-catalog --offline --as-of --currency --format -o --color --wide -v "
     "-q",
     {"tco --preset llama-7b-lora --gpu H100 --gpu-count 8",
      "tco --preset llama-7b-lora --gpu A100-80GB --discount aws=15% --format json"}},
    {"report",
     "--catalog --no-default-catalog --offline --as-of --currency --format -o --color "
     "--timestamp -v -q",
     {"report --preset resnet50-imagenet -o report.md --chart cost.svg",
      "report examples/llama-7b-lora-finetune.yaml --objective time"}},
    {"check",
     "--catalog --no-default-catalog --offline --currency --format -o --color --max-catalog-age "
     "--timestamp -v -q",
     {"check plan.json --max-cost \"300000 USD\"",
      "check plan.json --compare-to base.json --max-increase 10% --format markdown"}},
    {"presets", "--format -o --color", {"presets", "presets --format json"}},
    {"catalog", k_catalog_globals, {"catalog list --gpu H100", "catalog validate my-prices.yaml"}},
    {"catalog list",
     "--catalog --no-default-catalog --offline --as-of --currency --format -o --color --wide "
     "--max-catalog-age -v -q",
     {"catalog list --gpu A100-80GB", "catalog list --provider aws --format json"}},
    {"catalog show",
     "--catalog --no-default-catalog --offline --format -o --color --wide",
     {"catalog show H100", "catalog show aws"}},
    {"catalog validate",
     "--no-default-catalog --format -v -q",
     {"catalog validate", "catalog validate my-prices.yaml"}},
    {"catalog audit",
     "--catalog --no-default-catalog --offline --format -o --color --wide -v -q",
     {"catalog audit", "catalog audit my-prices.yaml --format json"}},
    {"catalog import",
     "--as-of --format -o -v -q",
     {"catalog import --from skypilot aws/vms.csv -o aws.yaml",
      "catalog import --undated --as-of 2026-11-01 gcp/vms.csv"}},
    {"catalog update",
     "-v -q",
     {"catalog update", "catalog update --cloud aws --cloud gcp --timeout 10"}},
    {"catalog diff",
     "--as-of --format -o --color",
     {"catalog diff old-prices.yaml new-prices.yaml", "catalog diff catalog/ aws/vms.csv"}},
    {"rules", "--format -o --color", {"rules show", "rules explain --preset llama-7b-lora"}},
    {"rules explain",
     "--catalog --no-default-catalog --offline --currency --format -o --color -v -q",
     {"rules explain --preset bert-large-finetune-squad",
      "rules explain --preset llama-7b-lora --fact interruptible=true"}},
    {"config", "--catalog --currency --color", {"config show", "--color never config show"}},
    {"config show",
     "--catalog --currency --color -o",
     {"config show", "--currency CNY config show"}},
}};

const NotesRow* notes_for(std::string_view path) {
    for (const NotesRow& notes : k_command_notes) {
        if (notes.path == path) {
            return &notes;
        }
    }
    return nullptr;
}

std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        if (end > start) {
            words.emplace_back(text.substr(start, end - start));
        }
        start = end + 1;
    }
    return words;
}

} // namespace

std::optional<CommandNotes> command_notes(std::string_view path) {
    const NotesRow* row = notes_for(path);
    if (row == nullptr) {
        return std::nullopt;
    }
    return CommandNotes{words_of(row->globals), {row->examples.begin(), row->examples.end()}};
}

std::optional<std::string> help_footer(std::string_view path) {
    const std::optional<CommandNotes> notes = command_notes(path);
    if (!notes) {
        return std::nullopt;
    }
    std::string footer = "Global options it honours (see 'gpuplan --help'):\n ";
    for (const std::string& name : notes->globals) {
        footer += " " + name;
    }
    footer += "\n\nExamples:\n";
    for (const std::string& example : notes->examples) {
        footer += fmt::format("  gpuplan {}\n", example);
    }
    return footer;
}

} // namespace gpuplan::cli
