#pragma once
// What every subcommand shares: options, streams, catalog loading and atomic output.

#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/format.hpp"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

enum class Exit : int { ok = 0, runtime = 1, usage = 2, invalid_input = 3, gate_failed = 4 };

// The process environment the CLI sees; tests pass string streams.
struct Io {
    std::ostream& out;
    std::ostream& err;
    bool out_is_tty = false;
    bool no_color_env = false; // NO_COLOR is set
};

struct CommonOptions {
    std::vector<std::string> catalogs;
    bool no_default_catalog = false;
    report::Format format = report::Format::table;
    std::string output; // empty = stdout
    std::string currency;
    int verbosity = 0; // -1 quiet, 0 normal, 1+ verbose
    bool no_color = false;
    bool wide = false;
    std::string generated_at; // UTC time of the run with --timestamp; empty otherwise
};

// The largest input file any command reads (docs/limits.md); YAML documents have a lower limit.
inline constexpr std::size_t k_max_input_bytes = 64U * 1024U * 1024U;

// Reads a whole file; throws RuntimeError naming the file and the reason, and InputError when it
// is larger than k_max_input_bytes (checked before reading, and while reading pipes).
[[nodiscard]] catalog::TextFile read_text_file(const std::string& path);

// Expands catalog paths: a file as is, a folder as its *.yaml files (recursively, sorted, without
// presets/ and decision_tree.yaml). Throws RuntimeError for an unreadable path.
[[nodiscard]] std::vector<catalog::TextFile>
read_catalog_paths(const std::vector<std::string>& paths);

// The embedded catalog (unless --no-default-catalog) with the --catalog overlays applied.
// Throws InputError for invalid overlays and UsageError when no catalog is left.
[[nodiscard]] catalog::Catalog load_catalog(const CommonOptions& options);

// Writes `text` to stdout, or atomically to options.output (a temporary file in the same
// folder, then rename), so a failed run never leaves a half-written file. With --timestamp, a
// JSON object gains `generated_at` after `generator` (or after `schema_version`).
void write_output(const CommonOptions& options, const std::string& text, Io& io);

// The current UTC time as `2026-11-29T19:40:00Z` (only for --timestamp: outputs are otherwise
// reproducible).
[[nodiscard]] std::string utc_timestamp();

// Program name and version for outputs.
[[nodiscard]] report::GeneratorInfo generator_info();

} // namespace gpuplan::cli
