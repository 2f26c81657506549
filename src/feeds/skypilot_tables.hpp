#pragma once

// SkyPilot catalog names and layouts: accelerator and instance names, known source errors,
// the clouds and their display names, GCP host machine families, and the columns of vms.csv.

#include "gpuplan/catalog/catalog.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::feeds::sky {

inline constexpr std::string_view k_currency = "USD";

// SkyPilot's accelerator names that are not catalog GPU names or aliases.
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 6> k_skypilot_names{{
    {"H100-MEGA", "H100"},            // GCP a3-megagpu: H100 SXM with more network
    {"H100-NVLINK", "H100"},          // Fluidstack H100_NVLINK_80GB: SXM, 80 GB (the NVL has 94)
    {"A100-80GB-160GB", "A100-80GB"}, // Verda names the instance's total memory
    {"A100-80GB-320GB", "A100-80GB"},
    {"A100-80GB-640GB", "A100-80GB"},
    {"A100-40GB-320GB", "A100"},
}};

// Instances whose accelerator name is the SXM model's but whose card is another (PCIe, NVL):
// the provider's instance type says which. `instance` may hold `*` (any run of characters).
struct InstanceGpu {
    std::string_view provider;
    std::string_view accelerator; // as the feed names it
    std::string_view instance;
    std::string_view gpu; // catalog GPU model
};
inline constexpr std::array<InstanceGpu, 14> k_instance_gpus{{
    {"lambda", "H100", "*_pcie", "H100-PCIe"},
    {"lambda", "A100", "gpu_1x_a100", "A100-40GB-PCIe"}, // the sxm4 and 8x types are SXM4
    {"lambda", "A100", "gpu_2x_a100", "A100-40GB-PCIe"},
    {"lambda", "A100", "gpu_4x_a100", "A100-40GB-PCIe"},
    {"azure", "H100", "Standard_NC*_H100_v5", "H100-NVL"}, // NC H100 v5: H100 NVL 94 GB
    {"azure", "A100-80GB", "Standard_NC*_A100_v4", "A100-80GB-PCIe"},
    {"azure", "V100", "Standard_NC*_v3", "V100-PCIe"}, // NCv3: V100 PCIe 16 GB
    {"runpod", "A100-80GB", "*", "A100-80GB-PCIe"},    // GpuInfo 'A100 PCIe'; SXM is -SXM
    {"runpod", "H100", "*", "H100-PCIe"},              // GpuInfo 'H100 PCIe'; SXM is H100-SXM
    {"vast", "H100", "*H100_NVL*", "H100-NVL"},
    {"vast", "A100", "*A100_PCIE*", "A100-40GB-PCIe"}, // 40,960 MiB per GPU
    {"cudo", "A100", "*a100-pci*", "A100-80GB-PCIe"},  // 81,920 MiB: the 80 GB PCIe card
    // Shadeform resells these clouds' A100 80GB PCIe: Cudo's are PCIe (its own feed), and
    // Crusoe's price, 1.65 a GPU-hour, is its A100-PCIe-80GB price (gpuhunt's Crusoe table).
    {"shadeform", "A100-80GB", "cudo_A100-80GB*", "A100-80GB-PCIe"},
    {"shadeform", "A100-80GB", "crusoe_A100-80GB*", "A100-80GB-PCIe"},
}};

// Known errors in published feeds, corrected on import and reported.
struct Correction {
    std::string_view provider;
    std::string_view instance;
    double source_count;
    double count;
    std::string_view reason;
};
inline constexpr std::array<Correction, 1> k_corrections{{
    {"azure", "Standard_ND96isr_H100_v5", 12.0, 8.0,
     "Microsoft lists ND96isr_H100_v5 as 96 vCPUs, 1900 GB RAM, 8 GPUs"},
}};

inline constexpr std::array<std::pair<std::string_view, std::string_view>, 15> k_display_names{{
    {"aws", "Amazon Web Services"},
    {"azure", "Microsoft Azure"},
    {"cudo", "CUDO Compute"},
    {"do", "DigitalOcean"},
    {"fluidstack", "Fluidstack"},
    {"gcp", "Google Cloud"},
    {"hyperbolic", "Hyperbolic"},
    {"lambda", "Lambda"},
    {"nebius", "Nebius AI Cloud"},
    {"oci", "Oracle Cloud Infrastructure"},
    {"paperspace", "Paperspace"},
    {"runpod", "RunPod"},
    {"shadeform", "Shadeform"},
    {"vast", "Vast.ai"},
    {"verda", "Verda"},
}};

// Clouds with a SkyPilot catalog; a file name prefix must be one of them to name a provider.
inline constexpr std::array<std::string_view, 22> k_skypilot_clouds{
    "aws",        "azure",      "cudo",           "do",     "fluidstack", "gcp",
    "hyperbolic", "ibm",        "kubernetes",     "lambda", "mithril",    "nebius",
    "oci",        "paperspace", "primeintellect", "runpod", "scp",        "seeweb",
    "shadeform",  "vast",       "verda",          "vsphere"};

// GCP sells GPUs attached to host VMs and prices them apart: a host machine family implies its
// accelerator, and the count is in the name (`a2-highgpu-4g`) or in SkyPilot's g2 table.
struct HostFamily {
    std::string_view prefix;
    std::string_view accelerator;
};
inline constexpr std::array<HostFamily, 8> k_gcp_host_families{{
    {"a2-highgpu-", "A100"},
    {"a2-megagpu-", "A100"},
    {"a2-ultragpu-", "A100-80GB"},
    {"a3-highgpu-", "H100"},
    {"a3-edgegpu-", "H100"},
    {"a3-megagpu-", "H100-MEGA"},
    {"a3-ultragpu-", "H200"},
    {"a4-highgpu-", "B200"}, // A4 host rows are priced 0.0: the accelerator row holds the price
}};
// g2-standard-N: vCPUs -> L4 count (SkyPilot gcp_catalog.py).
inline constexpr std::array<std::pair<int, int>, 8> k_g2_l4_counts{
    {{4, 1}, {8, 1}, {12, 1}, {16, 1}, {32, 1}, {24, 2}, {48, 4}, {96, 8}}};
// T4 and V100 attach to N1 VMs; one documented host prices every count (tools/
// skypilot_meta.py, GCP_N1_HOST), named `<host>+<GPU>x<count>`.
inline constexpr std::string_view k_gcp_n1_host = "n1-highmem-8";
inline constexpr std::array<std::string_view, 2> k_gcp_n1_accelerators{"T4", "V100"};

// Columns every layout has, by the name SkyPilot gives them.
enum Column : std::size_t {
    col_instance,
    col_accelerator,
    col_count,
    col_vcpus,
    col_memory,
    col_price,
    col_spot,
    col_region,
    col_zone,     // optional
    col_provider, // optional gpuplan extension: one feed, several providers
    k_column_count
};
inline constexpr std::array<std::string_view, k_column_count> k_column_names{
    "InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs",   "MemoryGiB", "Price",
    "SpotPrice",    "Region",          "AvailabilityZone", "Provider"};
inline constexpr std::size_t k_required_columns = col_zone;
inline constexpr std::size_t k_absent = static_cast<std::size_t>(-1);

// What a number cell holds, for its checks and messages.
enum class Quantity { number, whole, price };
inline constexpr std::array<std::string_view, 3> k_quantity_names{"number", "whole number",
                                                                  "price"};

// One CSV row, parsed.
template <class Text> struct BasicRow {
    Text provider;
    Text instance;
    Text accelerator;
    std::optional<double> count;
    std::optional<double> vcpus;
    std::optional<double> memory_gib;
    Text price_text; // kept as text so that split prices add exactly
    Text spot_text;
    std::optional<double> price;
    std::optional<double> spot;
    Text region;
    Text zone;
    std::size_t file = 0;
    std::uint32_t line = 0;
};
// A row as read (views into the file and the provider name), and one kept for pairing.
using RowView = BasicRow<std::string_view>;
using Row = BasicRow<std::string>;

// True when `text` matches `pattern`, where `*` stands for any run of characters.
bool glob_match(std::string_view pattern, std::string_view text);

// The catalog GPU an instance type of a provider really has when its accelerator name says
// otherwise (k_instance_gpus); empty when the name stands.
std::string_view instance_gpu(std::string_view provider, std::string_view instance,
                              std::string_view accelerator);

Row owned(const RowView& view);

// `a` and `b` joined by a NUL into `buffer` (reused, so lookups do not allocate).
std::string_view join_key(std::string& buffer, std::string_view a, std::string_view b);

std::string display_name(std::string_view provider);

// The provider a header layout belongs to, where the layout is unique to one cloud.
std::string provider_from_header(const std::vector<std::string>& header);

const catalog::Gpu* find_in(std::span<const catalog::Gpu> gpus, std::string_view name);

// Lines in `text`, counting a last line without a line end.
std::size_t line_count(std::string_view text);

} // namespace gpuplan::feeds::sky
