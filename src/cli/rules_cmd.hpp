#pragma once
// `gpuplan rules show|check|explain`: print, validate and apply the decision tree.

#include "cli/common.hpp"
#include "gpuplan/decide/tree.hpp"

#include <string>
#include <vector>

namespace gpuplan::cli {

struct RulesShowOptions {
    std::string rules; // --rules FILE; empty = the shipped tree
};

struct RulesCheckOptions {
    std::string path;
};

struct RulesExplainOptions {
    std::string workload; // WORKLOAD.yaml; empty with --preset
    std::string preset;
    std::string rules;
    std::vector<std::string> facts; // NAME=VALUE overrides; NAME= makes the fact unknown
};

// The decision tree: the shipped one, or `rules_path` when not empty, with GPU names resolved
// against `catalog`. Throws InputError for an invalid tree and RuntimeError for an unreadable file.
[[nodiscard]] decide::Tree load_tree(const std::string& rules_path,
                                     const catalog::Catalog& catalog);

[[nodiscard]] Exit run_rules_show(const CommonOptions& common, const RulesShowOptions& options,
                                  Io& io);
[[nodiscard]] Exit run_rules_check(const CommonOptions& common, const RulesCheckOptions& options,
                                   Io& io);
[[nodiscard]] Exit run_rules_explain(const CommonOptions& common,
                                     const RulesExplainOptions& options, Io& io);

} // namespace gpuplan::cli
