#include "cli/completion_values.hpp"

#include "cli/update_cmd.hpp"
#include "cli/workload_flags.hpp"
#include "cli/workload_input.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace gpuplan::cli {

namespace {

// A word every shell takes unquoted in a completion list.
bool plain_word(std::string_view word) {
    return !word.empty() && std::ranges::all_of(word, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_' || c == '.' || c == '+';
    });
}

// `words` without repeats or words a shell would need quoted, in their first order.
std::vector<std::string> plain_words(const std::vector<std::string>& words) {
    std::vector<std::string> out;
    for (const std::string& word : words) {
        if (plain_word(word) && std::find(out.begin(), out.end(), word) == out.end()) {
            out.push_back(word);
        }
    }
    return out;
}

std::vector<std::string> gpu_names() {
    std::vector<std::string> out;
    for (const catalog::Gpu& gpu : embedded::catalog().gpus) {
        out.push_back(gpu.name);
    }
    return out;
}

std::vector<std::string> provider_names() {
    std::vector<std::string> out;
    for (const catalog::Provider& provider : embedded::catalog().providers) {
        out.push_back(provider.name);
    }
    return out;
}

std::vector<std::string> objectives() {
    std::vector<std::string> out;
    for (rank::Objective objective :
         {rank::Objective::cost, rank::Objective::time, rank::Objective::balanced}) {
        out.emplace_back(rank::to_string(objective));
    }
    return out;
}

// The named values of the workload fields a workload flag sets (--precision sets two).
std::vector<std::string> workload_choices(std::string_view name) {
    std::vector<std::string> out;
    for (const WorkloadFlag& flag : workload_flags()) {
        if (flag.name == name) {
            for (std::string_view choice : workload::field_choices(flag.path)) {
                out.emplace_back(choice);
            }
        }
    }
    return out;
}

} // namespace

std::vector<std::string> option_values(std::string_view path, std::string_view name) {
    if (name == "--format") {
        return {"table", "json", "markdown", "html"};
    }
    if (name == "--color") {
        return {"auto", "always", "never"};
    }
    if (name == "--objective") {
        return objectives();
    }
    if (name == "--preset") {
        return plain_words(preset_names());
    }
    if (name == "--gpu") {
        return plain_words(gpu_names());
    }
    // `catalog import --provider` names the provider a feed becomes: any new name.
    if (name == "--provider" && path != "catalog import") {
        return plain_words(provider_names());
    }
    if (path == "catalog list" && name == "--sort") {
        return {"gpu", "price", "provider"};
    }
    if (path == "catalog import" && name == "--from") {
        return {"skypilot"};
    }
    if (path == "catalog update" && name == "--cloud") {
        return {k_default_update_clouds.begin(), k_default_update_clouds.end()};
    }
    return plain_words(workload_choices(name));
}

} // namespace gpuplan::cli
