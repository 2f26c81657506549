#pragma once
// Runs read from benchmark tools' result files (docs/runs-format.md, "Importers"): vLLM's
// `vllm bench serve` JSON, GenAI-Perf's and AIPerf's profile exports, an MLPerf Inference
// results summary, and a CSV of step times or throughputs.

#include "gpuplan/runs/runs.hpp"
#include "gpuplan/text_file.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::runs {

enum class ImportFormat { vllm, genai_perf, aiperf, mlperf, csv };

// What the caller knows that the result file may not say.
struct ImportLabels {
    std::string workload; // the workload file each run names (required)
    std::string gpu;      // required unless the CSV has a `gpu` column
    int gpu_count = 0;    // 0 = unknown (required unless the CSV has a `gpu_count` column)
    std::string engine;   // empty = the file's own (vllm's `backend`), else none
    std::string name;     // empty = derived from the file
    std::string source;   // empty = the file's name
};

// One imported run, written as a runs-file entry.
struct ImportedRun {
    std::string name;
    std::string workload;
    std::string gpu;
    int gpu_count = 0;
    std::optional<double> requests_per_second; // the offered load, when the file states one
    std::string engine;
    std::string version;
    std::vector<Measurement> measured;
    int percentile = 0; // 0 = not stated
    std::string source;
    std::string note;

    bool operator==(const ImportedRun&) const = default;
};

// Reads the runs of `file`. Throws InputError naming the file (and the key or the line) for a
// malformed file, a missing field or a missing label.
[[nodiscard]] std::vector<ImportedRun> import_runs(ImportFormat format, const TextFile& file,
                                                   const ImportLabels& labels);

// The runs as YAML list entries (`  - name: ...`), to append under a runs file's `runs:`.
[[nodiscard]] std::string runs_yaml(const std::vector<ImportedRun>& runs);

// Appends `entries` (runs_yaml) to an existing runs file's text, or makes a new runs file when
// `existing` is empty. Throws InputError when the existing text's last top-level key is not
// `runs:` (the entries could not be appended as its items).
[[nodiscard]] std::string append_runs(const TextFile& existing, const std::string& entries);

} // namespace gpuplan::runs
