// Instances: the server a provider rents, its share of a GPU, its price rows and reserved prices.

#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

namespace {

// Limits that keep catalog numbers physical: a server holds at most this many GPUs.
constexpr NumberRange k_instance_gpu_count{limits::k_min_instance_gpus, limits::k_max_instance_gpus,
                                           false, "a GPU count from 0.01 (a share of one GPU)"};
constexpr NumberRange k_instance_memory{0.0, limits::k_max_instance_memory_gib, true,
                                        "a positive number"};

} // namespace

// Reads an instance. With `price_overlay`, an instance that states none of gpu, gpu_count,
// vcpus and memory_gib (allowed when the type is already in the catalog) only overlays its
// price rows; `price_rows_only` says whether it did.
std::optional<Instance> FileReader::read_instance(const YamlNode& node, bool price_overlay,
                                                  bool& price_rows_only) {
    if (!node.expect_map({"type", "gpu", "gpu_count", "mig_profile", "gpu_memory_gib", "vcpus",
                          "memory_gib", "network_gbps", "network_source", "nvlink", "local_nvme_gb",
                          "spot_interruption_rate_per_node_hour", "prices", "reserved", "note"})) {
        return std::nullopt;
    }
    Instance instance;
    instance.type = node.string_at("type", true).value_or("");
    check_id_part(node, "type", instance.type, node.get("type").has_value());
    price_rows_only = price_overlay && !node.get("gpu") && !node.get("gpu_count") &&
                      !node.get("vcpus") && !node.get("memory_gib");
    if (price_rows_only) {
        read_price_overlay(node, instance);
        return instance;
    }
    instance.gpu = required_gpu(node);
    read_gpu_share(node, instance);
    if (auto vcpus = node.require("vcpus")) {
        instance.vcpus = static_cast<int>(
            vcpus->as_integer(1, static_cast<std::int64_t>(limits::k_max_instance_vcpus))
                .value_or(0));
    }
    instance.memory_gib = node.number_at("memory_gib", true, k_instance_memory).value_or(0.0);
    instance.network_gbps = node.number_at("network_gbps", false, k_positive);
    if (auto source = node.get("network_source")) {
        instance.network_sources = read_source_refs(*source);
    } else if (node.get("network_gbps")) {
        node.error("network_gbps needs a network_source");
    }
    if (auto nvlink = node.get("nvlink")) {
        instance.nvlink = nvlink->as_bool().value_or(false);
    }
    instance.local_nvme_gb = node.number_at("local_nvme_gb", false, k_positive);
    if (auto rate = node.get("spot_interruption_rate_per_node_hour")) {
        instance.spot_interruption_rate_per_node_hour = read_parameter(*rate, k_interruption_rate);
    }
    read_price_rows(node, instance);
    if (auto reserved = node.get("reserved")) {
        for (const YamlNode& item : reserved->items()) {
            read_reserved_price(item, instance);
        }
    }
    instance.note = node.string_at("note", false).value_or("");
    return instance;
}

// gpu_count, or a MIG profile (whose compute share is the count), and a fraction's memory.
void FileReader::read_gpu_share(const YamlNode& node, Instance& instance) {
    auto profile = node.get("mig_profile");
    if (!profile) {
        instance.gpu_count = node.number_at("gpu_count", true, k_instance_gpu_count).value_or(0.0);
    } else if (auto name = profile->as_string()) {
        instance.mig_profile = *name;
        if (auto count = node.get("gpu_count")) {
            count->error("a MIG instance's GPU count is its profile's compute share; leave "
                         "gpu_count out");
        }
        if (auto slices = catalog::mig_compute_slices(*name)) {
            instance.gpu_count = static_cast<double>(*slices) / k_mig_compute_slices;
        } else {
            profile->error(fmt::format("'{}' is not a MIG profile name such as 1g.10gb", *name));
        }
    }
    instance.gpu_memory_gib = node.number_at("gpu_memory_gib", false, k_positive);
    if (auto memory = node.get("gpu_memory_gib");
        memory && (profile || instance.gpu_count >= 1.0)) {
        memory->error("gpu_memory_gib is the memory of a fractional GPU (gpu_count below 1); "
                      "a whole GPU or a MIG profile has the model's memory");
    }
    if (auto gpu = node.get("gpu"); gpu && (profile || instance.gpu_memory_gib)) {
        m_pending.push_back({PendingReference::Kind::slice, instance.gpu,
                             (profile ? *profile : *node.get("gpu_memory_gib")).diagnostic(""),
                             instance.mig_profile, instance.gpu_memory_gib});
    }
}

// A price overlay's rows; any key but the type and the prices is reported.
void FileReader::read_price_overlay(const YamlNode& node, Instance& instance) {
    read_price_rows(node, instance);
    for (std::string_view key : {"network_gbps", "nvlink", "local_nvme_gb",
                                 "spot_interruption_rate_per_node_hour", "reserved"}) {
        if (auto extra = node.get(key)) {
            extra->error(fmt::format(
                "a price overlay (an instance without gpu, gpu_count, vcpus and "
                "memory_gib) states only prices; give the whole instance to change '{}'",
                key));
        }
    }
}

// The required `prices` list, one row per (region, zone).
void FileReader::read_price_rows(const YamlNode& node, Instance& instance) {
    if (auto prices = node.require("prices")) {
        PriceRowKeys seen;
        for (const YamlNode& row : prices->items()) {
            read_price_row(row, instance, seen);
        }
    }
}

void FileReader::read_price_row(const YamlNode& node, Instance& instance, PriceRowKeys& seen) {
    if (!node.expect_map(
            {"region", "zone", "on_demand", "spot", "monthly", "yearly", "source", "as_of"})) {
        return;
    }
    PriceRow row;
    row.region = node.string_at("region", true).value_or("");
    row.zone = node.string_at("zone", false).value_or("");
    check_id_part(node, "region", row.region, node.get("region").has_value());
    check_id_part(node, "zone", row.zone, false);
    row.on_demand = node.number_at("on_demand", false, k_price);
    row.spot = node.number_at("spot", false, k_price);
    row.monthly = node.number_at("monthly", false, k_price);
    row.yearly = node.number_at("yearly", false, k_price);
    if (auto source = node.get("source")) {
        row.sources = read_source_refs(*source);
    }
    if (auto as_of = node.get("as_of")) {
        row.as_of = as_of->as_date();
    }
    if (!row.on_demand && !row.spot && !row.monthly && !row.yearly && !node.get("on_demand") &&
        !node.get("spot") && !node.get("monthly") && !node.get("yearly")) {
        node.error("a price row needs at least one of on_demand, spot, monthly or yearly");
        return;
    }
    if (!seen.emplace(row.region, row.zone).second) {
        node.error(fmt::format("duplicate price row for region '{}'{}", row.region,
                               row.zone.empty() ? "" : fmt::format(" zone '{}'", row.zone)));
        return;
    }
    instance.prices.push_back(std::move(row));
}

void FileReader::read_reserved_price(const YamlNode& node, Instance& instance) {
    if (!node.expect_map({"term", "payment", "effective_per_hour", "upfront_fraction", "region",
                          "source", "as_of"})) {
        return;
    }
    instance.reserved.push_back(read_reserved_fields(node));
}

ReservedPrice FileReader::read_reserved_fields(const YamlNode& node) {
    ReservedPrice price;
    auto term = node.require("term");
    auto payment = node.require("payment");
    if (term) {
        price.term = read_term(*term).value_or(Term::one_year);
    }
    if (payment) {
        price.payment = read_payment(*payment).value_or(Payment::no_upfront);
    }
    price.effective_per_hour = node.number_at("effective_per_hour", true, k_price).value_or(0);
    price.upfront_fraction = read_upfront_fraction(node, price.payment);
    price.region = node.string_at("region", false).value_or("");
    price.sources = required_sources(node);
    if (auto as_of = node.get("as_of")) {
        price.as_of = as_of->as_date();
    }
    return price;
}

} // namespace gpuplan::catalog::reading
