#include "gpuplan/report/catalog_view.hpp"
#include "report/catalog_entries.hpp"
#include "report/generator_json.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

using catalog::Catalog;
using catalog::Gpu;
using catalog::Instance;
using catalog::PriceRow;
using catalog::Provider;
using nlohmann::ordered_json;

namespace {

// Narrowest a wrapped VALUE column of `catalog show` becomes.
constexpr std::size_t k_min_value_width = 20;

// `a100, a100-80gb`, or `-` for a GPU model without aliases.
std::string aliases_text(const Gpu& gpu) {
    std::string aliases;
    for (const std::string& alias : gpu.aliases) {
        aliases += (aliases.empty() ? "" : ", ") + alias;
    }
    return aliases.empty() ? "-" : aliases;
}

// One row per precision: its dense throughput (TOPS for the integer ones) or `not supported`.
void add_precision_rows(TextTable& table, const Gpu& gpu) {
    for (std::size_t i = 0; i < catalog::k_precision_count; ++i) {
        auto precision = static_cast<catalog::Precision>(i);
        const bool integer =
            precision == catalog::Precision::int8 || precision == catalog::Precision::int4;
        table.add_row({fmt::format("dense {}", catalog::to_string(precision)),
                       gpu.tflops.at(i)
                           ? format_price(*gpu.tflops.at(i)) + (integer ? " TOPS" : " TFLOPS")
                           : "not supported"});
    }
}

std::string show_gpu(const Catalog& catalog, const Gpu& gpu, Format format,
                     const GeneratorInfo& generator, std::size_t width) {
    if (format == Format::json) {
        ordered_json out;
        out["schema_version"] = k_json_schema_version;
        put_generator(out, generator);
        out["gpu"] = gpu_json(gpu);
        out["sources"] = sources_table(catalog, {gpu.sources.begin(), gpu.sources.end()});
        return out.dump(2) + "\n";
    }
    TextTable table;
    table.add_column("FIELD");
    table.add_column("VALUE", Align::left, k_min_value_width, Cut::wrap);
    table.add_row({"name", gpu.name});
    table.add_row({"aliases", aliases_text(gpu)});
    table.add_row({"architecture", std::string(catalog::to_string(gpu.architecture))});
    table.add_row({"form factor", std::string(catalog::to_string(gpu.form_factor))});
    table.add_row({"memory", format_price(gpu.memory_gib) + " GiB"});
    table.add_row({"memory bandwidth", format_price(gpu.memory_bandwidth_gb_per_s) + " GB/s"});
    add_precision_rows(table, gpu);
    table.add_row({"TDP", format_price(gpu.tdp_watts) + " W"});
    table.add_row({"NVLink", gpu.nvlink_gb_per_s > 0 ? format_price(gpu.nvlink_gb_per_s) +
                                                           " GB/s (total, both directions)"
                                                     : "none"});
    table.add_row(
        {"MIG", gpu.mig_instances > 0 ? std::to_string(gpu.mig_instances) + " instances" : "no"});
    table.add_row({"released", std::to_string(gpu.released)});
    table.add_row({"as of", gpu.as_of.to_string()});
    for (const std::string& id : gpu.sources) {
        auto it = catalog.sources.find(id);
        table.add_row({"source " + id, it == catalog.sources.end()
                                           ? "?"
                                           : it->second.title + " " + it->second.url});
    }
    if (!gpu.note.empty()) {
        table.add_row({"note", gpu.note});
    }
    return format == Format::markdown ? table.render_markdown() : table.render_text(width);
}

// An instance type with every price row the catalog holds, in the provider's currency.
std::string instance_json(const Catalog& catalog, const Provider& provider,
                          const Instance& instance, const GeneratorInfo& generator) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, generator);
    out["provider"] = provider.name;
    out["instance"] = instance.type;
    out["gpu"] = instance.gpu;
    out["gpu_count"] = instance.gpu_count;
    out["vcpus"] = instance.vcpus;
    out["memory_gib"] = instance.memory_gib;
    out["network_gbps"] =
        instance.network_gbps ? ordered_json(*instance.network_gbps) : ordered_json(nullptr);
    out["nvlink"] = instance.nvlink;
    out["currency"] = provider.currency;
    ordered_json prices = ordered_json::array();
    for (const PriceRow& row : instance.prices) {
        prices.push_back(
            {{"region", row.region},
             {"zone", row.zone.empty() ? ordered_json(nullptr) : ordered_json(row.zone)},
             {"on_demand_per_hour",
              row.on_demand ? ordered_json(*row.on_demand) : ordered_json(nullptr)},
             {"spot_per_hour", row.spot ? ordered_json(*row.spot) : ordered_json(nullptr)},
             {"as_of", catalog::price_as_of_text(catalog, provider, row)}});
    }
    out["prices"] = prices;
    return out.dump(2) + "\n";
}

// An instance type's figures in one line, then a table of its price rows.
std::string instance_text(const Catalog& catalog, const Provider& provider,
                          const Instance& instance, Format format, std::size_t width) {
    TextTable table;
    table.add_column("REGION");
    table.add_column("ZONE");
    table.add_column("ON-DEMAND/H", Align::right);
    table.add_column("SPOT/H", Align::right);
    table.add_column("AS OF");
    for (const PriceRow& row : instance.prices) {
        table.add_row({row.region, row.zone.empty() ? "-" : row.zone,
                       row.on_demand ? format_price(*row.on_demand) : "-",
                       row.spot ? format_price(*row.spot) : "-",
                       catalog::price_as_of_text(catalog, provider, row)});
    }
    std::string header = fmt::format(
        "{} {}: {} x {}, {} vCPU, {} GiB RAM, network {}, prices in {}\n", provider.name,
        instance.type, count_text(instance.gpu_count), instance.gpu, instance.vcpus,
        format_price(instance.memory_gib),
        instance.network_gbps ? format_price(*instance.network_gbps) + " Gbps" : "not stated",
        provider.currency);
    return format == Format::markdown ? header + "\n" + table.render_markdown()
                                      : wrap_lines(header, width) + table.render_text(width);
}

// A self-built build: its figures, in the self_built currency, and its sources.
std::string build_json(const Catalog& catalog, const catalog::Build& build,
                       const GeneratorInfo& generator) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, generator);
    out["build"] = build.name;
    out["gpu"] = build.gpu;
    out["gpu_count"] = build.gpu_count;
    out["currency"] = catalog.self_built->currency;
    out["capex_per_node"] = build.capex;
    out["network_capex_per_node"] = build.network_capex_per_node;
    out["node_kw"] = build.node_kw;
    out["lead_time_weeks"] = build.lead_time_weeks;
    out["network_gbps"] =
        build.network_gbps ? ordered_json(*build.network_gbps) : ordered_json(nullptr);
    out["nvlink"] = build.nvlink;
    out["sources"] = build.sources;
    out["as_of"] = build.as_of.to_string();
    out["note"] = build.note;
    return out.dump(2) + "\n";
}

std::string build_text(const Catalog& catalog, const catalog::Build& build, Format format,
                       std::size_t width) {
    const std::string& currency = catalog.self_built->currency;
    const std::string text = fmt::format(
        "self_built/{}: {} x {}, capex {} {} per node plus {} {} of fabric, {} kW per node, "
        "lead time {} weeks, network {}, NVLink {}; as of {}; sources {}\n{}\n",
        build.name, build.gpu_count, build.gpu, format_price(build.capex), currency,
        format_price(build.network_capex_per_node), currency, format_price(build.node_kw),
        format_price(build.lead_time_weeks),
        build.network_gbps ? format_price(*build.network_gbps) + " Gbps" : "not stated",
        build.nvlink ? "yes" : "no", build.as_of.to_string(), fmt::join(build.sources, ", "),
        build.note);
    return format == Format::markdown ? escape_markdown_cell(text) + "\n" : wrap_lines(text, width);
}

} // namespace

std::string render_catalog_show(const Catalog& catalog, const catalog::Named& named, Format format,
                                const GeneratorInfo& generator, std::size_t width) {
    if (named.gpu != nullptr) {
        return show_gpu(catalog, *named.gpu, format, generator, width);
    }
    if (named.build != nullptr && catalog.self_built) {
        return format == Format::json ? build_json(catalog, *named.build, generator)
                                      : build_text(catalog, *named.build, format, width);
    }
    if (named.provider == nullptr || named.instance == nullptr) {
        return {};
    }
    return format == Format::json
               ? instance_json(catalog, *named.provider, *named.instance, generator)
               : instance_text(catalog, *named.provider, *named.instance, format, width);
}

} // namespace gpuplan::report
