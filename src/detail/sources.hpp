#pragma once
// The `sources` table every sourced YAML file carries (catalog files, decision trees), and the
// `source:` references into it.

#include "detail/yaml_reader.hpp"
#include "gpuplan/source.hpp"

#include <map>
#include <string>
#include <vector>

namespace gpuplan::detail {

// Ids of a file's `sources` table mapped to the ids recorded for them.
using SourceIds = std::map<std::string, std::string, std::less<>>;

// Reads one entry of a `sources` table (title, url, grade, note, date); problems are reported
// through `entry` and nullopt is returned when it is not a mapping.
[[nodiscard]] std::optional<Source> read_source_entry(const YamlNode& entry, const std::string& id);

// The recorded ids for the source ids under `node` (one id or a list); an id missing from
// `known` is reported with a "did you mean" hint and left out.
[[nodiscard]] std::vector<std::string> read_source_refs(const YamlNode& node,
                                                        const SourceIds& known);

} // namespace gpuplan::detail
