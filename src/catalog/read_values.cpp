// Values every section of a catalog file reads: source references, sourced parameters,
// currencies and commitment terms.

#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

std::optional<Term> read_term(const YamlNode& node) {
    if (auto index = node.as_choice({"1y", "3y"})) {
        return static_cast<Term>(*index);
    }
    return std::nullopt;
}

std::optional<Payment> read_payment(const YamlNode& node) {
    if (auto index = node.as_choice({"no_upfront", "partial_upfront", "all_upfront"})) {
        return static_cast<Payment>(*index);
    }
    return std::nullopt;
}

double read_upfront_fraction(const YamlNode& node, Payment payment) {
    auto given = node.number_at("upfront_fraction", false, k_fraction);
    switch (payment) {
    case Payment::no_upfront:
        return 0.0;
    case Payment::all_upfront:
        return 1.0;
    case Payment::partial_upfront:
        return given.value_or(0.5);
    }
    return 0.0;
}

void FileReader::defer(PendingReference::Kind kind, const std::string& name, const YamlNode& node) {
    m_pending.push_back({kind, name, node.diagnostic(""), {}, std::nullopt});
}

void FileReader::read_sources(const YamlNode& node) {
    for (auto& [id, entry] : node.entries()) {
        if (auto source = detail::read_source_entry(entry, id)) {
            m_local_sources[id] = register_source(std::move(*source));
        }
    }
}

std::string FileReader::register_source(Source source) {
    return catalog::register_source(m_catalog, std::move(source), m_file.name);
}

std::vector<std::string> FileReader::read_source_refs(const YamlNode& node) {
    return detail::read_source_refs(node, m_local_sources);
}

std::vector<std::string> FileReader::required_sources(const YamlNode& node) {
    if (auto source = node.require("source")) {
        return read_source_refs(*source);
    }
    return {};
}

std::optional<Parameter> FileReader::read_parameter(const YamlNode& node,
                                                    const NumberRange& range) {
    if (!node.expect_map({"value", "source", "as_of", "note"})) {
        return std::nullopt;
    }
    Parameter parameter;
    auto value = node.number_at("value", true, range);
    parameter.sources = required_sources(node);
    if (auto as_of = node.get("as_of")) {
        parameter.as_of = as_of->as_date();
    }
    parameter.note = node.string_at("note", false).value_or("");
    if (!value) {
        return std::nullopt;
    }
    parameter.value = *value;
    return parameter;
}

std::optional<Parameter> FileReader::parameter_at(const YamlNode& parent, std::string_view key,
                                                  bool required, const NumberRange& range) {
    auto node = required ? parent.require(key) : parent.get(key);
    if (!node) {
        return std::nullopt;
    }
    return read_parameter(*node, range);
}

std::optional<std::string> FileReader::read_currency(const YamlNode& node) {
    auto code = node.as_string();
    if (!code) {
        return std::nullopt;
    }
    if (!is_currency_code(*code)) {
        node.error(
            fmt::format("expected an ISO 4217 currency code such as USD, got \"{}\"", *code));
        return std::nullopt;
    }
    defer(PendingReference::Kind::currency, *code, node);
    return code;
}

std::string FileReader::required_gpu(const YamlNode& node) {
    auto gpu = node.require("gpu");
    if (!gpu) {
        return {};
    }
    auto name = gpu->as_string();
    if (!name) {
        return {};
    }
    defer(PendingReference::Kind::gpu, *name, *gpu);
    return std::move(*name);
}

void check_id_part(const YamlNode& node, std::string_view key, std::string_view value,
                   bool required) {
    auto at = node.get(key);
    if (!at) {
        return;
    }
    if (value.empty() && required) {
        at->error("expected a name, got an empty one");
    } else if (value.find('/') != std::string_view::npos) {
        at->error(fmt::format("'{}' holds a '/', which joins the parts of an option id "
                              "(provider/region/instance): name it without one",
                              value));
    }
}

} // namespace gpuplan::catalog::reading
