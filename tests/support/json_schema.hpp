#pragma once
// A small JSON Schema (draft 2020-12) checker for the keywords docs/schema/*.schema.json use:
// type, const, enum, required, properties, additionalProperties (false), items, minimum,
// maximum, pattern and local $ref. It returns every violation with its JSON pointer.

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace gpuplan::test {

class SchemaChecker {
public:
    explicit SchemaChecker(nlohmann::json schema) : m_root(std::move(schema)) {}

    [[nodiscard]] std::vector<std::string> check(const nlohmann::json& value) const {
        std::vector<std::string> problems;
        check(m_root, value, "", problems);
        return problems;
    }

private:
    static bool has_type(const nlohmann::json& value, const std::string& type) {
        if (type == "object")
            return value.is_object();
        if (type == "array")
            return value.is_array();
        if (type == "string")
            return value.is_string();
        if (type == "boolean")
            return value.is_boolean();
        if (type == "null")
            return value.is_null();
        if (type == "integer")
            return value.is_number_integer();
        if (type == "number")
            return value.is_number();
        return false;
    }

    void check(const nlohmann::json& schema, const nlohmann::json& value, const std::string& path,
               std::vector<std::string>& problems) const {
        if (schema.contains("$ref")) {
            const std::string ref = schema["$ref"];
            const nlohmann::json::json_pointer pointer(ref.substr(1));
            check(m_root.at(pointer), value, path, problems);
        }
        if (schema.contains("type")) {
            const auto& type = schema["type"];
            bool ok = false;
            for (const auto& t : type.is_array() ? type : nlohmann::json::array({type})) {
                ok = ok || has_type(value, t.get<std::string>());
            }
            if (!ok) {
                problems.push_back(path + ": expected type " + type.dump() + ", got " +
                                   value.dump());
                return;
            }
        }
        if (schema.contains("const") && schema["const"] != value) {
            problems.push_back(path + ": expected " + schema["const"].dump());
        }
        if (schema.contains("enum")) {
            const auto& choices = schema["enum"];
            if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
                problems.push_back(path + ": " + value.dump() + " not in " + choices.dump());
            }
        }
        if (value.is_number()) {
            if (schema.contains("minimum") &&
                value.get<double>() < schema["minimum"].get<double>()) {
                problems.push_back(path + ": below minimum");
            }
            if (schema.contains("maximum") &&
                value.get<double>() > schema["maximum"].get<double>()) {
                problems.push_back(path + ": above maximum");
            }
        }
        if (value.is_string() && schema.contains("pattern") &&
            !std::regex_search(value.get<std::string>(),
                               std::regex(schema["pattern"].get<std::string>()))) {
            problems.push_back(path + ": does not match " + schema["pattern"].dump());
        }
        if (value.is_object()) {
            for (const auto& key : schema.value("required", nlohmann::json::array())) {
                if (!value.contains(key.get<std::string>())) {
                    problems.push_back(path + ": missing " + key.get<std::string>());
                }
            }
            const auto properties = schema.value("properties", nlohmann::json::object());
            for (const auto& [key, child] : value.items()) {
                if (properties.contains(key)) {
                    check(properties[key], child, path + "/" + key, problems);
                } else if (schema.contains("additionalProperties") &&
                           schema["additionalProperties"] == false) {
                    problems.push_back(path + ": unexpected key " + key);
                }
            }
        }
        if (value.is_array() && schema.contains("items")) {
            for (std::size_t i = 0; i < value.size(); ++i) {
                check(schema["items"], value[i], path + "/" + std::to_string(i), problems);
            }
        }
    }

    nlohmann::json m_root;
};

} // namespace gpuplan::test
