#pragma once
// Reading a workload: a YAML file (docs/workload-format.md), a preset, and command-line flags
// that override either.

#include "gpuplan/error.hpp"
#include "gpuplan/text_file.hpp"
#include "gpuplan/workload/workload.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::workload {

// Workload file versions this build reads (`schema_version: 1`).
inline constexpr int k_min_schema_version = 1;
inline constexpr int k_max_schema_version = 1;
// Smallest accepted training.mfu; below it run times leave the range of finite numbers.
inline constexpr double k_min_mfu = 0.001;

// Names what sets the workload field at `path` (`/model/params`) for the messages about a missing
// field; empty when nothing does. Without one, those messages give just the field.
using FieldHint = std::string_view (*)(std::string_view path);

// A bad override: the field it was meant for (`/training/mfu`) and what was wrong with the value
// (`expected a fraction from 0.001 to 1, got '2'`). what() is `PATH: MESSAGE`.
class FieldError : public UsageError {
public:
    FieldError(std::string_view path, const std::string& message);
    [[nodiscard]] const std::string& path() const { return m_path; }
    [[nodiscard]] const std::string& message() const { return m_message; }

private:
    std::string m_path;
    std::string m_message;
};

// Reads a file a workload names (inference.load.csv), the path already resolved against the
// workload's folder: returns it, or nullopt with `why` set when it cannot be read.
using FileLoader =
    std::function<std::optional<TextFile>(const std::string& path, std::string& why)>;

// Parses a workload file. Throws InputError with every problem found (unknown keys with a
// "did you mean" hint, wrong types, out-of-range values, an unsupported schema_version, and
// what the workload lacks to be estimated).
[[nodiscard]] Workload read_workload(const TextFile& file);

// Workload fields given as command-line flags, as typed; unset flags leave the workload alone.
struct WorkloadOverrides {
    std::optional<std::string> params;
    std::optional<std::string> active_params;
    std::optional<std::string> tokens;
    std::optional<std::string> samples;
    std::optional<std::string> epochs;
    std::optional<std::string> task;
    std::optional<std::string> family;
    std::optional<std::string> precision; // training precision, or inference for task inference
    std::optional<std::string> optimizer;
    std::optional<std::string> method;
    std::optional<std::string> sharding;
    std::optional<std::string> micro_batch;
    std::optional<std::string> mfu;
    std::vector<std::string> gpus; // constraints.gpu_models
    std::optional<std::string> gpu_count;
    std::optional<std::string> max_gpus;
    std::optional<std::string> deadline;
    std::optional<std::string> budget;
    std::optional<std::string> horizon;
    std::optional<std::string> discount_rate;
    std::optional<bool> interruptible;
    std::vector<std::string> purchase;
    std::vector<std::string> providers;
    std::vector<std::string> regions;
    std::optional<std::string> rps;
    std::optional<std::string> latency_ms;
    std::optional<std::string> hours_per_day;
    std::optional<std::string> currency;

    // True when no flag is set.
    [[nodiscard]] bool empty() const;
};

// Reads a workload file and applies the flags on top (flags win). Throws InputError for problems
// in the file and for what the file and the flags together still lack (placed at the `data` or
// `model` section, with `hint`'s name for each missing field), FieldError for a bad flag value.
// When `currencies` is not empty, a budget or finance.currency in any other currency is an error at
// its place in the file (the catalog's exchange rates decide which currencies gpuplan can convert).
// The catalog's provider and region names a workload file's constraints.providers and
// constraints.regions are checked against (empty: not checked).
struct KnownPlaces {
    std::span<const std::string> providers;
    std::span<const std::string> regions;
    std::span<const std::string> gpus; // GPU model names and aliases (compared ignoring case)
};
// With `places`, a provider, region or GPU model the catalog lacks is an error at its place in
// the file, with the closest name.
// `load` reads a CSV load curve; without one, `inference.load.csv` is an error at its place.
[[nodiscard]] Workload read_workload(const TextFile& file, const WorkloadOverrides& overrides,
                                     std::span<const std::string> currencies = {},
                                     const KnownPlaces& places = {}, FieldHint hint = nullptr,
                                     const FileLoader& load = {});

// Applies the flags on top of `workload`. Throws FieldError naming the field of a bad value;
// `hint` names another field a message points to (a path without it).
void apply_overrides(Workload& workload, const WorkloadOverrides& overrides,
                     FieldHint hint = nullptr);

// What a workload still lacks before it can be estimated ("model.params", "data.tokens, or
// data.samples with model.seq_len", ..., each field followed by `hint`'s name for it in
// parentheses when it has one); empty when it is complete.
[[nodiscard]] std::vector<std::string> missing_fields(const Workload& workload,
                                                      FieldHint hint = nullptr);

// The workload from flags alone. Throws UsageError when no flag is set, FieldError for a bad
// value; `hint` as apply_overrides takes it.
[[nodiscard]] Workload workload_from_flags(const WorkloadOverrides& overrides,
                                           FieldHint hint = nullptr);

// The values the workload field at `path` takes when it holds one of a list of names
// (`/training/method`: full, lora, qlora), in their documented order; empty for any other field.
[[nodiscard]] std::vector<std::string_view> field_choices(std::string_view path);

} // namespace gpuplan::workload
