#pragma once
// A portfolio: a team's workloads over a common horizon, each starting in a month of it
// (docs/fleet-format.md). The reader takes the portfolio file and a loader for the workload files
// it names, so the core reads no files itself.

#include "gpuplan/text_file.hpp"
#include "gpuplan/workload/workload.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::fleet {

// Portfolio file versions this build reads (`schema_version: 1`).
inline constexpr int k_min_schema_version = 1;
inline constexpr int k_max_schema_version = 1;
// The longest horizon a portfolio plans (ten years: the commitment terms sold are one or three).
inline constexpr int k_max_horizon_months = 120;
// The most workloads one portfolio holds.
inline constexpr int k_max_entries = 200;

struct Entry {
    workload::Workload workload; // horizon and finance are the portfolio's (read_portfolio)
    int start_month = 0;         // the first run or the service starts at this month's start
    int priority = 0;            // informational: higher first in the output's demand list
    std::string file;            // the workload file as written; empty for an inline workload

    bool operator==(const Entry&) const = default;
};

struct Portfolio {
    std::string name;
    int horizon_months = 36;
    workload::Finance finance;
    std::vector<Entry> entries;

    bool operator==(const Portfolio&) const = default;
};

// Reads a workload file named in the portfolio, relative to the portfolio file: returns it, or
// nullopt with `why` set when it cannot be read (the reader reports it at the `file` key).
using FileLoader =
    std::function<std::optional<TextFile>(const std::string& path, std::string& why)>;

// Parses a portfolio. Throws InputError with every problem, the referenced workload files'
// problems included (at their own file:line:col). Each workload runs for its own horizon_months
// or to the portfolio's end, whichever comes first, and takes the portfolio's finance. `currencies`
// as workload::read_workload takes them.
[[nodiscard]] Portfolio read_portfolio(const TextFile& file, const FileLoader& load,
                                       std::span<const std::string> currencies = {});

} // namespace gpuplan::fleet
