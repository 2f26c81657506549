#include "detail/sources.hpp"

#include "detail/strings.hpp"

#include <array>
#include <fmt/format.h>

namespace gpuplan::detail {

std::optional<Source> read_source_entry(const YamlNode& entry, const std::string& id) {
    if (!entry.expect_map({"title", "url", "grade", "note", "date", "as_of", "undated"})) {
        return std::nullopt;
    }
    Source source;
    source.id = id;
    source.title = entry.string_at("title", true).value_or("");
    source.url = entry.string_at("url", false).value_or("");
    if (auto grade = entry.get("grade")) {
        constexpr std::array<std::string_view, 7> k_grades{"L", "L2", "P", "Q", "R", "E", "D"};
        if (auto index = grade->as_choice({k_grades.begin(), k_grades.end()})) {
            source.grade = std::string(k_grades.at(*index));
        }
    }
    source.note = entry.string_at("note", false).value_or("");
    if (auto undated = entry.get("undated")) {
        source.undated = undated->as_bool().value_or(false);
    }
    if (auto as_of = entry.get("as_of")) {
        source.as_of = as_of->as_date();
    }
    if (auto date = entry.get("date")) {
        if (auto parsed = date->as_date()) {
            source.note = source.note.empty()
                              ? "dated " + parsed->to_string()
                              : source.note + " (dated " + parsed->to_string() + ")";
        }
    }
    return source;
}

std::vector<std::string> read_source_refs(const YamlNode& node, const SourceIds& known) {
    std::vector<std::string> out;
    auto ids = node.as_string_list();
    if (!ids) {
        return out;
    }
    for (const std::string& id : *ids) {
        auto it = known.find(id);
        if (it == known.end()) {
            std::vector<std::string_view> names;
            for (const auto& [name, recorded] : known) {
                names.push_back(name);
            }
            std::string hint = closest_match(id, names);
            node.error(hint.empty()
                           ? fmt::format("unknown source '{}': add it to this file's `sources` "
                                         "table",
                                         id)
                           : fmt::format("unknown source '{}'; did you mean '{}'?", id, hint));
            continue;
        }
        out.push_back(it->second);
    }
    return out;
}

} // namespace gpuplan::detail
