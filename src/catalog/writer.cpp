#include "gpuplan/catalog/writer.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace gpuplan::catalog {

namespace {

bool is_plain_safe(std::string_view text) {
    if (text.empty()) {
        return false;
    }
    const char first = text.front();
    const bool letter = (first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z');
    if (!letter && first != '_') {
        return false; // numbers, dates and indicators would change meaning
    }
    const bool ordinary = std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '-' || c == '/' || c == '+';
    });
    if (!ordinary) {
        return false;
    }
    static const std::set<std::string, std::less<>> k_reserved{
        "true", "false", "yes",  "no",    "on",   "off", "null", "y",  "n",
        "True", "False", "TRUE", "FALSE", "Yes",  "No",  "YES",  "NO", "On",
        "Off",  "ON",    "OFF",  "Null",  "NULL", "Y",   "N"};
    return !k_reserved.contains(text);
}

std::string source_refs(const std::vector<std::string>& ids) {
    if (ids.size() == 1) {
        return yaml_scalar(ids.front());
    }
    std::string out = "[";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        out += (i == 0 ? "" : ", ") + yaml_scalar(ids[i]);
    }
    return out + "]";
}

std::string_view term_text(Term term) {
    return term == Term::one_year ? "1y" : "3y";
}

void write_gpu(std::string& out, const Gpu& gpu, std::set<std::string>& cited) {
    out += fmt::format("  - name: {}\n", yaml_scalar(gpu.name));
    if (!gpu.aliases.empty()) {
        std::string list;
        for (const std::string& alias : gpu.aliases) {
            list += (list.empty() ? "" : ", ") + yaml_scalar(alias);
        }
        out += fmt::format("    aliases: [{}]\n", list);
    }
    out += fmt::format("    architecture: {}\n", to_string(gpu.architecture));
    out += fmt::format("    form_factor: {}\n", to_string(gpu.form_factor));
    out += fmt::format("    memory_gib: {}\n", yaml_number(gpu.memory_gib));
    out += fmt::format("    memory_bandwidth_gb_per_s: {}\n",
                       yaml_number(gpu.memory_bandwidth_gb_per_s));
    out += "    tflops:\n";
    for (std::size_t i = 0; i < k_precision_count; ++i) {
        if (const auto& peak = gpu.tflops.at(i)) {
            out += fmt::format("      {}: {}\n", to_string(static_cast<Precision>(i)),
                               yaml_number(*peak));
        }
    }
    out += fmt::format("    tdp_watts: {}\n", yaml_number(gpu.tdp_watts));
    if (gpu.nvlink_gb_per_s > 0.0) {
        out += fmt::format("    nvlink_gb_per_s: {}\n", yaml_number(gpu.nvlink_gb_per_s));
    }
    if (gpu.mig_instances > 0) {
        out += fmt::format("    mig_instances: {}\n", gpu.mig_instances);
    }
    out += fmt::format("    released: {}\n", gpu.released);
    out += fmt::format("    source: {}\n", source_refs(gpu.sources));
    cited.insert(gpu.sources.begin(), gpu.sources.end());
    out += fmt::format("    as_of: {}\n", gpu.as_of.to_string());
    if (!gpu.note.empty()) {
        out += fmt::format("    note: {}\n", yaml_scalar(gpu.note));
    }
}

// One price row, as a flow mapping on one line.
void write_price_row(std::string& out, const PriceRow& row, std::set<std::string>& cited) {
    out += fmt::format("          - {{region: {}", yaml_scalar(row.region));
    if (!row.zone.empty()) {
        out += fmt::format(", zone: {}", yaml_scalar(row.zone));
    }
    if (row.on_demand) {
        out += fmt::format(", on_demand: {}", yaml_number(*row.on_demand));
    }
    if (row.spot) {
        out += fmt::format(", spot: {}", yaml_number(*row.spot));
    }
    if (row.monthly) {
        out += fmt::format(", monthly: {}", yaml_number(*row.monthly));
    }
    if (row.yearly) {
        out += fmt::format(", yearly: {}", yaml_number(*row.yearly));
    }
    if (!row.sources.empty()) {
        out += fmt::format(", source: {}", source_refs(row.sources));
        cited.insert(row.sources.begin(), row.sources.end());
    }
    if (row.as_of) {
        out += fmt::format(", as_of: {}", row.as_of->to_string());
    }
    out += "}\n";
}

// One reserved price, as a flow mapping on one line.
void write_reserved_price(std::string& out, const ReservedPrice& price,
                          std::set<std::string>& cited) {
    out += fmt::format("          - {{term: {}, payment: {}, effective_per_hour: {}",
                       term_text(price.term), to_string(price.payment),
                       yaml_number(price.effective_per_hour));
    if (price.payment == Payment::partial_upfront) {
        out += fmt::format(", upfront_fraction: {}", yaml_number(price.upfront_fraction));
    }
    if (!price.region.empty()) {
        out += fmt::format(", region: {}", yaml_scalar(price.region));
    }
    out += fmt::format(", source: {}", source_refs(price.sources));
    cited.insert(price.sources.begin(), price.sources.end());
    if (price.as_of) {
        out += fmt::format(", as_of: {}", price.as_of->to_string());
    }
    out += "}\n";
}

void write_instance(std::string& out, const Instance& instance, std::set<std::string>& cited) {
    out += fmt::format("      - type: {}\n", yaml_scalar(instance.type));
    out += fmt::format("        gpu: {}\n", yaml_scalar(instance.gpu));
    if (instance.mig_profile.empty()) {
        out += fmt::format("        gpu_count: {}\n", yaml_number(instance.gpu_count));
    } else {
        out += fmt::format("        mig_profile: {}\n", yaml_scalar(instance.mig_profile));
    }
    if (instance.gpu_memory_gib) {
        out += fmt::format("        gpu_memory_gib: {}\n", yaml_number(*instance.gpu_memory_gib));
    }
    out += fmt::format("        vcpus: {}\n", instance.vcpus);
    out += fmt::format("        memory_gib: {}\n", yaml_number(instance.memory_gib));
    if (instance.network_gbps) {
        out += fmt::format("        network_gbps: {}\n", yaml_number(*instance.network_gbps));
        out += fmt::format("        network_source: {}\n", source_refs(instance.network_sources));
        cited.insert(instance.network_sources.begin(), instance.network_sources.end());
    }
    if (instance.nvlink) {
        out += "        nvlink: true\n";
    }
    if (instance.local_nvme_gb) {
        out += fmt::format("        local_nvme_gb: {}\n", yaml_number(*instance.local_nvme_gb));
    }
    if (const auto& rate = instance.spot_interruption_rate_per_node_hour) {
        out += fmt::format("        spot_interruption_rate_per_node_hour: {{value: {}, source: {}",
                           yaml_number(rate->value), source_refs(rate->sources));
        out += rate->note.empty() ? "}\n" : fmt::format(", note: {}}}\n", yaml_scalar(rate->note));
        cited.insert(rate->sources.begin(), rate->sources.end());
    }
    out += "        prices:\n";
    for (const PriceRow& row : instance.prices) {
        write_price_row(out, row, cited);
    }
    if (!instance.reserved.empty()) {
        out += "        reserved:\n";
        for (const ReservedPrice& price : instance.reserved) {
            write_reserved_price(out, price, cited);
        }
    }
    if (!instance.note.empty()) {
        out += fmt::format("        note: {}\n", yaml_scalar(instance.note));
    }
}

} // namespace

std::string yaml_scalar(std::string_view text) {
    if (is_plain_safe(text)) {
        return std::string(text);
    }
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string yaml_number(double value) {
    return fmt::format("{}", value);
}

std::string write_providers_yaml(std::span<const Provider> providers,
                                 const std::map<std::string, Source>& sources,
                                 std::string_view comment) {
    return write_catalog_yaml({}, providers, sources, comment);
}

std::string write_catalog_yaml(std::span<const Gpu> gpus, std::span<const Provider> providers,
                               const std::map<std::string, Source>& sources,
                               std::string_view comment) {
    std::set<std::string> cited;
    std::string body;
    if (!gpus.empty()) {
        body += "gpus:\n";
        for (const Gpu& gpu : gpus) {
            write_gpu(body, gpu, cited);
        }
    }
    if (!providers.empty()) {
        body += "providers:\n";
    }
    for (const Provider& provider : providers) {
        body += fmt::format("  - name: {}\n", yaml_scalar(provider.name));
        body += fmt::format("    display_name: {}\n", yaml_scalar(provider.display_name));
        body += fmt::format("    currency: {}\n", provider.currency);
        body += fmt::format("    as_of: {}\n", provider.as_of.to_string());
        body += fmt::format("    source: {}\n", source_refs(provider.sources));
        cited.insert(provider.sources.begin(), provider.sources.end());
        if (!provider.note.empty()) {
            body += fmt::format("    note: {}\n", yaml_scalar(provider.note));
        }
        body += "    instances:\n";
        for (const Instance& instance : provider.instances) {
            write_instance(body, instance, cited);
        }
    }
    std::string out;
    std::size_t start = 0;
    while (start < comment.size()) {
        std::size_t end = comment.find('\n', start);
        end = end == std::string_view::npos ? comment.size() : end;
        out += fmt::format("# {}\n", comment.substr(start, end - start));
        start = end + 1;
    }
    out += "schema_version: 1\nsources:\n";
    for (const std::string& id : cited) {
        auto it = sources.find(id);
        if (it == sources.end()) {
            continue;
        }
        const Source& source = it->second;
        out += fmt::format("  {}:\n", yaml_scalar(id));
        out += fmt::format("    title: {}\n", yaml_scalar(source.title));
        if (!source.url.empty()) {
            out += fmt::format("    url: {}\n", yaml_scalar(source.url));
        }
        if (!source.grade.empty()) {
            out += fmt::format("    grade: {}\n", source.grade);
        }
        if (!source.note.empty()) {
            out += fmt::format("    note: {}\n", yaml_scalar(source.note));
        }
        if (source.undated) {
            out += "    undated: true\n";
        }
    }
    return out + body;
}

} // namespace gpuplan::catalog
