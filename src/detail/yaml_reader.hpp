#pragma once
// A checked, path-tracking view over yaml-cpp nodes. Every reader of a YAML file (catalog,
// workload, decision tree) walks its document through YamlNode, so that every problem is
// reported as `FILE:LINE:COL: error: /path: message` and all problems are collected before
// the load fails. yaml-cpp marks are 0-based; mark_of() adds 1 in this one place.

#include "gpuplan/error.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/units.hpp"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace gpuplan::detail {

// Limits that keep a hostile document from exhausting memory, the stack or time
// (docs/limits.md). A walk may visit at most k_visits_base + k_visits_per_byte visits per byte
// of the document, and never more than k_max_visited_nodes: aliases cannot make the work grow
// faster than the file.
inline constexpr std::size_t k_max_document_bytes = 64UL * 1024UL * 1024UL;
inline constexpr std::size_t k_max_nesting_depth = 64;
inline constexpr std::uint64_t k_max_visited_nodes = 20'000'000;
inline constexpr std::uint64_t k_visits_base = 100'000;
inline constexpr std::uint64_t k_visits_per_byte = 16;

// Shared state of one document walk: the file name and where diagnostics go.
struct YamlContext {
    std::string file;
    DiagnosticSink* sink = nullptr;
    std::uint64_t visited = 0;
    std::uint64_t max_visited = k_max_visited_nodes; // set from the document size when parsed
    bool budget_exhausted = false;
    std::size_t max_bytes = k_max_document_bytes; // documents larger than this are refused
};

// An inclusive numeric range with a readable name for messages ("a non-negative number").
struct NumberRange {
    double min = std::numeric_limits<double>::lowest();
    double max = std::numeric_limits<double>::max();
    bool min_exclusive = false;
    std::string_view description = "a number";
};

// No number in any gpuplan file is larger in magnitude than this (docs/limits.md): products of
// two such numbers stay far from overflow, so the pipeline never meets an infinity.
inline constexpr double k_max_magnitude = limits::k_max_magnitude;

inline constexpr NumberRange k_any_number{-k_max_magnitude, k_max_magnitude, false, "a number"};
inline constexpr NumberRange k_non_negative{0.0, k_max_magnitude, false, "a non-negative number"};
inline constexpr NumberRange k_positive{0.0, k_max_magnitude, true, "a positive number"};
inline constexpr NumberRange k_fraction{0.0, 1.0, false, "a fraction from 0 to 1"};

class YamlNode {
public:
    YamlNode(const YAML::Node& node, std::string path, YamlContext& context);

    [[nodiscard]] const std::string& path() const { return m_path; }
    [[nodiscard]] const YAML::Node& raw() const { return m_node; }
    [[nodiscard]] bool is_map() const { return m_node.IsMap(); }
    [[nodiscard]] bool is_sequence() const { return m_node.IsSequence(); }
    [[nodiscard]] bool is_scalar() const { return m_node.IsScalar(); }
    [[nodiscard]] bool is_null() const { return !m_node.IsDefined() || m_node.IsNull(); }
    // The 1-based line and column of this node (of its parent when it has none).
    [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> mark() const;
    // A diagnostic at this node, without recording it.
    [[nodiscard]] Diagnostic diagnostic(std::string message) const;
    // Records an error at this node.
    void error(std::string message) const;
    [[nodiscard]] YamlContext& context() const { return *m_context; }

    // Checks that this node is a mapping whose keys are all in `allowed` (an unknown key gets a
    // "did you mean" hint) and unique. Reports and returns false when it is not a mapping.
    bool expect_map(std::initializer_list<std::string_view> allowed) const;
    bool expect_map(const std::vector<std::string_view>& allowed) const;
    // Checks that this node is a sequence; reports and returns false otherwise.
    bool expect_sequence() const;

    // The value under `key` when present and not null.
    [[nodiscard]] std::optional<YamlNode> get(std::string_view key) const;
    // Like get(), but reports "missing required key" when absent.
    [[nodiscard]] std::optional<YamlNode> require(std::string_view key) const;
    // Sequence elements (empty and reported when not a sequence).
    [[nodiscard]] std::vector<YamlNode> items() const;
    // Mapping entries in document order (empty and reported when not a mapping).
    [[nodiscard]] std::vector<std::pair<std::string, YamlNode>> entries() const;

    // Scalar conversions; each reports a precise message and returns nullopt on failure.
    [[nodiscard]] std::optional<std::string> as_string() const;
    [[nodiscard]] std::optional<double> as_number(const NumberRange& range = k_any_number) const;
    [[nodiscard]] std::optional<double> as_si_number(const NumberRange& range = k_any_number) const;
    [[nodiscard]] std::optional<std::int64_t> as_integer(std::int64_t min, std::int64_t max) const;
    [[nodiscard]] std::optional<bool> as_bool() const;
    [[nodiscard]] std::optional<Date> as_date() const;
    [[nodiscard]] std::optional<double> as_duration_hours() const;
    [[nodiscard]] std::optional<Money> as_money(std::string_view default_currency = {}) const;
    // One of `choices` (exact match); returns its index.
    [[nodiscard]] std::optional<std::size_t>
    as_choice(std::initializer_list<std::string_view> choices) const;
    [[nodiscard]] std::optional<std::size_t>
    as_choice(const std::vector<std::string_view>& choices) const;
    // A string or a list of strings.
    [[nodiscard]] std::optional<std::vector<std::string>> as_string_list() const;

    // Keyed shortcuts: read `key` with the conversion above; `required` reports absence.
    [[nodiscard]] std::optional<std::string> string_at(std::string_view key, bool required) const;
    [[nodiscard]] std::optional<double> number_at(std::string_view key, bool required,
                                                  const NumberRange& range = k_any_number) const;

private:
    [[nodiscard]] std::string describe() const;
    // Reports and returns false when `value` is outside `range`.
    [[nodiscard]] bool within(const NumberRange& range, double value) const;
    [[nodiscard]] bool is_plain_scalar() const;
    [[nodiscard]] std::string child_path(std::string_view key) const;

    YAML::Node m_node;
    std::string m_path;
    YamlContext* m_context;
    std::pair<std::uint32_t, std::uint32_t> m_fallback_mark{0, 0};
};

// What read_schema_version found under a document's `schema_version` key.
enum class SchemaVersion {
    absent,      // no such key (reported as a missing required key)
    malformed,   // not an integer in range (reported)
    unsupported, // an integer outside the supported range (reported)
    supported,
};

// Reads `schema_version` from the document's root mapping and reports, at its place, a missing
// key, a value that is not an integer, or one outside [min, max]: "unsupported schema_version 7;
// this gpuplan reads KIND schema_version MIN to MAX".
[[nodiscard]] SchemaVersion read_schema_version(const YamlNode& root, std::string_view kind,
                                                std::int64_t min, std::int64_t max);
// The same for a format with one version: "... this gpuplan reads KIND schema_version VERSION".
[[nodiscard]] SchemaVersion read_schema_version(const YamlNode& root, std::string_view kind,
                                                std::int64_t version);

// Parses `text` as one YAML document. Reports a syntax error, an over-size document or
// excessive nesting as a diagnostic and returns nullopt; never throws.
[[nodiscard]] std::optional<YamlNode> parse_yaml_document(std::string_view text,
                                                          YamlContext& context);

} // namespace gpuplan::detail
