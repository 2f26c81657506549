// Self-built servers: the site they run in, the builds, and the site parameters builds need once
// every file is merged.

#include "detail/strings.hpp"
#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

void FileReader::read_site(const YamlNode& node, Site& site) {
    if (!node.expect_map({"electricity_per_kwh", "pue", "colocation_per_kw_month",
                          "staff_fte_per_node", "staff_cost_per_fte_year",
                          "maintenance_rate_per_year", "utilisation", "economic_life_months",
                          "resale_curve"})) {
        return;
    }
    auto merge = [&](std::string_view key, std::optional<Parameter>& target,
                     const NumberRange& range) {
        if (auto value = parameter_at(node, key, false, range)) {
            target = std::move(value);
        }
    };
    constexpr NumberRange k_pue{1.0, 10.0, false, "a PUE from 1 to 10"};
    constexpr NumberRange k_life{1.0, 600.0, false, "a number of months from 1 to 600"};
    merge("electricity_per_kwh", site.electricity_per_kwh, k_price);
    merge("pue", site.pue, k_pue);
    merge("colocation_per_kw_month", site.colocation_per_kw_month, k_price);
    merge("staff_fte_per_node", site.staff_fte_per_node, k_non_negative);
    merge("staff_cost_per_fte_year", site.staff_cost_per_fte_year, k_price);
    merge("maintenance_rate_per_year", site.maintenance_rate_per_year, k_fraction);
    merge("utilisation", site.utilisation, k_fraction);
    merge("economic_life_months", site.economic_life_months, k_life);
    if (auto curve = node.get("resale_curve")) {
        if (curve->expect_map({"source", "as_of", "note", "points"})) {
            site.resale_sources = required_sources(*curve);
            if (auto as_of = curve->get("as_of")) {
                site.resale_as_of = as_of->as_date();
            }
            site.resale_curve.clear();
            if (auto points = curve->require("points")) {
                double previous_months = -1.0;
                for (const YamlNode& point : points->items()) {
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
                    site.resale_curve.push_back({*months, *fraction});
                }
            }
        }
    }
}

void FileReader::read_self_built(const YamlNode& node) {
    if (!node.expect_map({"currency", "site", "builds"})) {
        return;
    }
    SelfBuilt self_built = m_catalog.self_built.value_or(SelfBuilt{});
    if (auto currency = m_catalog.self_built ? node.get("currency") : node.require("currency")) {
        if (auto code = currency->as_string()) {
            if (!is_currency_code(*code)) {
                currency->error(fmt::format(
                    "expected an ISO 4217 currency code such as USD, got \"{}\"", *code));
            } else {
                self_built.currency = *code;
                defer(PendingReference::Kind::currency, *code, *currency);
            }
        }
    }
    if (auto site = node.get("site")) {
        read_site(*site, self_built.site);
    }
    if (auto builds = node.get("builds")) {
        std::set<std::string, std::less<>> seen;
        for (const YamlNode& item : builds->items()) {
            if (!item.expect_map({"name", "gpu", "gpu_count", "capex", "network_capex_per_node",
                                  "node_kw", "lead_time_weeks", "network_gbps", "nvlink", "source",
                                  "as_of", "note"})) {
                continue;
            }
            Build build;
            build.name = item.string_at("name", true).value_or("");
            if (auto gpu = item.require("gpu")) {
                if (auto name = gpu->as_string()) {
                    build.gpu = *name;
                    defer(PendingReference::Kind::gpu, *name, *gpu);
                }
            }
            if (auto count = item.require("gpu_count")) {
                build.gpu_count = static_cast<int>(count->as_integer(1, 1024).value_or(0));
            }
            build.capex = item.number_at("capex", true, k_price).value_or(0.0);
            build.network_capex_per_node =
                item.number_at("network_capex_per_node", false, k_price).value_or(0.0);
            build.node_kw = item.number_at("node_kw", true, k_positive).value_or(0.0);
            build.lead_time_weeks =
                item.number_at("lead_time_weeks", true, k_non_negative).value_or(0.0);
            build.network_gbps = item.number_at("network_gbps", false, k_positive);
            if (auto nvlink = item.get("nvlink")) {
                build.nvlink = nvlink->as_bool().value_or(false);
            }
            build.sources = required_sources(item);
            if (auto as_of = item.require("as_of")) {
                build.as_of = as_of->as_date().value_or(Date{});
            }
            build.note = item.string_at("note", false).value_or("");
            if (build.name.empty()) {
                continue;
            }
            if (!seen.insert(build.name).second) {
                item.get("name")->error(fmt::format("duplicate build '{}'", build.name));
                continue;
            }
            auto it = std::find_if(self_built.builds.begin(), self_built.builds.end(),
                                   [&](const Build& b) { return b.name == build.name; });
            if (it != self_built.builds.end()) {
                *it = std::move(build);
            } else {
                self_built.builds.push_back(std::move(build));
            }
        }
    }
    m_catalog.self_built = std::move(self_built);
}

void check_site(const Catalog& catalog, DiagnosticSink& sink) {
    if (!catalog.self_built || catalog.self_built->builds.empty()) {
        return;
    }
    const Site& site = catalog.self_built->site;
    std::vector<std::string_view> missing;
    auto need = [&](std::string_view key, const std::optional<Parameter>& value) {
        if (!value) {
            missing.push_back(key);
        }
    };
    need("electricity_per_kwh", site.electricity_per_kwh);
    need("pue", site.pue);
    need("colocation_per_kw_month", site.colocation_per_kw_month);
    need("staff_fte_per_node", site.staff_fte_per_node);
    need("staff_cost_per_fte_year", site.staff_cost_per_fte_year);
    need("maintenance_rate_per_year", site.maintenance_rate_per_year);
    need("utilisation", site.utilisation);
    need("economic_life_months", site.economic_life_months);
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
