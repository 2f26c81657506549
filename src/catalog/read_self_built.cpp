// Self-built servers: the site they run in, the builds, and the site parameters builds need once
// every file is merged.

#include "detail/strings.hpp"
#include "file_reader.hpp"

#include <array>
#include <fmt/format.h>

namespace gpuplan::catalog::reading {

namespace {

constexpr NumberRange k_pue{1.0, 10.0, false, "a PUE from 1 to 10"};
constexpr NumberRange k_life{1.0, 600.0, false, "a number of months from 1 to 600"};

// A sourced site parameter: its key, its range and its member of Site.
struct SiteParameter {
    std::string_view key;
    NumberRange range;
    std::optional<Parameter> Site::*member;
};

// Every site parameter, in the order they are read and reported missing.
constexpr std::array<SiteParameter, 8> k_site_parameters{{
    {"electricity_per_kwh", k_price, &Site::electricity_per_kwh},
    {"pue", k_pue, &Site::pue},
    {"colocation_per_kw_month", k_price, &Site::colocation_per_kw_month},
    {"staff_fte_per_node", k_non_negative, &Site::staff_fte_per_node},
    {"staff_cost_per_fte_year", k_price, &Site::staff_cost_per_fte_year},
    {"maintenance_rate_per_year", k_fraction, &Site::maintenance_rate_per_year},
    {"utilisation", k_fraction, &Site::utilisation},
    {"economic_life_months", k_life, &Site::economic_life_months},
}};

// The resale curve's points, in increasing months.
void read_resale_points(const YamlNode& node, std::vector<ResalePoint>& curve) {
    double previous_months = -1.0;
    for (const YamlNode& point : node.items()) {
        if (!point.expect_map({"months", "fraction"})) {
            continue;
        }
        auto months = point.number_at("months", true, k_non_negative);
        auto fraction = point.number_at("fraction", true, k_fraction);
        if (!months || !fraction) {
            continue;
        }
        if (*months <= previous_months) {
            point.error("resale curve points must have increasing months");
            continue;
        }
        previous_months = *months;
        curve.push_back({*months, *fraction});
    }
}

} // namespace

void FileReader::read_self_built(const YamlNode& node) {
    if (!node.expect_map({"currency", "site", "builds"})) {
        return;
    }
    SelfBuilt self_built = m_catalog.self_built.value_or(SelfBuilt{});
    if (auto currency = m_catalog.self_built ? node.get("currency") : node.require("currency")) {
        if (auto code = read_currency(*currency)) {
            self_built.currency = std::move(*code);
        }
    }
    if (auto site = node.get("site")) {
        read_site(*site, self_built.site);
    }
    if (auto builds = node.get("builds")) {
        read_builds(*builds, self_built.builds);
    }
    m_catalog.self_built = std::move(self_built);
}

// The site parameters this file states replace the earlier ones; the others stay.
void FileReader::read_site(const YamlNode& node, Site& site) {
    if (!node.expect_map({"electricity_per_kwh", "pue", "colocation_per_kw_month",
                          "staff_fte_per_node", "staff_cost_per_fte_year",
                          "maintenance_rate_per_year", "utilisation", "economic_life_months",
                          "resale_curve"})) {
        return;
    }
    for (const SiteParameter& parameter : k_site_parameters) {
        if (auto value = parameter_at(node, parameter.key, false, parameter.range)) {
            site.*parameter.member = std::move(value);
        }
    }
    if (auto curve = node.get("resale_curve")) {
        read_resale_curve(*curve, site);
    }
}

// A stated resale curve replaces the earlier one whole.
void FileReader::read_resale_curve(const YamlNode& node, Site& site) {
    if (!node.expect_map({"source", "as_of", "note", "points"})) {
        return;
    }
    site.resale_sources = required_sources(node);
    if (auto as_of = node.get("as_of")) {
        site.resale_as_of = as_of->as_date();
    }
    site.resale_curve.clear();
    if (auto points = node.require("points")) {
        read_resale_points(*points, site.resale_curve);
    }
}

// Reads the builds, each name once; a build replaces an earlier file's build of its name.
void FileReader::read_builds(const YamlNode& node, std::vector<Build>& builds) {
    std::set<std::string, std::less<>> seen;
    for (const YamlNode& item : node.items()) {
        Build build;
        if (!read_build(item, build) || build.name.empty()) {
            continue;
        }
        if (!seen.insert(build.name).second) {
            item.get("name")->error(fmt::format("duplicate build '{}'", build.name));
            continue;
        }
        auto same = [&](const Build& b) { return b.name == build.name; };
        replace_or_append(builds, std::move(build), same);
    }
}

// Returns false when the build is not a mapping.
bool FileReader::read_build(const YamlNode& node, Build& build) {
    if (!node.expect_map({"name", "gpu", "gpu_count", "capex", "network_capex_per_node", "node_kw",
                          "lead_time_weeks", "network_gbps", "nvlink", "source", "as_of",
                          "note"})) {
        return false;
    }
    build.name = node.string_at("name", true).value_or("");
    build.gpu = required_gpu(node);
    if (auto count = node.require("gpu_count")) {
        build.gpu_count = static_cast<int>(count->as_integer(1, 1024).value_or(0));
    }
    build.capex = node.number_at("capex", true, k_price).value_or(0.0);
    build.network_capex_per_node =
        node.number_at("network_capex_per_node", false, k_price).value_or(0.0);
    build.node_kw = node.number_at("node_kw", true, k_positive).value_or(0.0);
    build.lead_time_weeks = node.number_at("lead_time_weeks", true, k_non_negative).value_or(0.0);
    build.network_gbps = node.number_at("network_gbps", false, k_positive);
    if (auto nvlink = node.get("nvlink")) {
        build.nvlink = nvlink->as_bool().value_or(false);
    }
    build.sources = required_sources(node);
    if (auto as_of = node.require("as_of")) {
        build.as_of = as_of->as_date().value_or(Date{});
    }
    build.note = node.string_at("note", false).value_or("");
    return true;
}

void check_site(const Catalog& catalog, DiagnosticSink& sink) {
    if (!catalog.self_built || catalog.self_built->builds.empty()) {
        return;
    }
    const Site& site = catalog.self_built->site;
    std::vector<std::string_view> missing;
    for (const SiteParameter& parameter : k_site_parameters) {
        if (!(site.*parameter.member)) {
            missing.push_back(parameter.key);
        }
    }
    if (site.resale_curve.empty()) {
        missing.emplace_back("resale_curve");
    }
    if (!missing.empty()) {
        sink.add(Diagnostic{catalog.files.empty() ? "" : catalog.files.back(), 0, 0,
                            "/self_built/site",
                            fmt::format("self-built builds need site parameters: missing {}",
                                        detail::join_choices(missing))});
    }
}

} // namespace gpuplan::catalog::reading
