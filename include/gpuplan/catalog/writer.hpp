#pragma once
// Writing GPU models and providers as a catalog file (docs/catalog-format.md): block style with one
// compact flow mapping per price row, numbers in their shortest exact form, so that reading the
// file back gives the same values.

#include "gpuplan/catalog/catalog.hpp"

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace gpuplan::catalog {

// A `schema_version: 1` catalog file holding `providers` and every source they cite (looked up
// in `sources`), after `comment` (each line prefixed with `# `). Writes the instance fields a
// catalog file can hold and the provider's name, display name, currency, as_of, sources and
// note; billing, spot terms and provider-wide discounts are left to the catalog underneath.
[[nodiscard]] std::string write_providers_yaml(std::span<const Provider> providers,
                                               const std::map<std::string, Source>& sources,
                                               std::string_view comment);

// A `schema_version: 1` catalog file holding `gpus` (every field a catalog file can hold),
// then `providers` as write_providers_yaml writes them, and every source either cites.
[[nodiscard]] std::string write_catalog_yaml(std::span<const Gpu> gpus,
                                             std::span<const Provider> providers,
                                             const std::map<std::string, Source>& sources,
                                             std::string_view comment);

// A YAML scalar for `text`: plain when that reads back as the same string, else double-quoted.
[[nodiscard]] std::string yaml_scalar(std::string_view text);

// The shortest decimal text that reads back as exactly `value`.
[[nodiscard]] std::string yaml_number(double value);

} // namespace gpuplan::catalog
