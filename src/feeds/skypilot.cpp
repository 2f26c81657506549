#include "gpuplan/feeds/skypilot.hpp"

#include "detail/strings.hpp"
#include "feeds/csv.hpp"
#include "feeds/key_table.hpp"
#include "gpuplan/limits.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <numeric>
#include <set>
#include <tuple>

namespace gpuplan::feeds {

using catalog::Gpu;
using catalog::Instance;
using catalog::PriceRow;
using catalog::Provider;

using detail::trim;

namespace {

constexpr std::string_view k_currency = "USD";

// SkyPilot's accelerator names that are not catalog GPU names or aliases.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> k_skypilot_names{{
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
constexpr std::array<InstanceGpu, 14> k_instance_gpus{{
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

// True when `text` matches `pattern`, where `*` stands for any run of characters.
bool glob_match(std::string_view pattern, std::string_view text) {
    std::size_t p = 0;
    std::size_t t = 0;
    std::size_t star = std::string_view::npos;
    std::size_t resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') {
        ++p;
    }
    return p == pattern.size();
}

// The catalog GPU an instance type of a provider really has when its accelerator name says
// otherwise (k_instance_gpus); empty when the name stands.
std::string_view instance_gpu(std::string_view provider, std::string_view instance,
                              std::string_view accelerator) {
    for (const InstanceGpu& rule : k_instance_gpus) {
        if (rule.provider == provider && rule.accelerator == accelerator &&
            glob_match(rule.instance, instance)) {
            return rule.gpu;
        }
    }
    return {};
}

// Known errors in published feeds, corrected on import and reported.
struct Correction {
    std::string_view provider;
    std::string_view instance;
    double source_count;
    double count;
    std::string_view reason;
};
constexpr std::array<Correction, 1> k_corrections{{
    {"azure", "Standard_ND96isr_H100_v5", 12.0, 8.0,
     "Microsoft lists ND96isr_H100_v5 as 96 vCPUs, 1900 GB RAM, 8 GPUs"},
}};

constexpr std::array<std::pair<std::string_view, std::string_view>, 15> k_display_names{{
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
constexpr std::array<std::string_view, 22> k_skypilot_clouds{
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
constexpr std::array<HostFamily, 8> k_gcp_host_families{{
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
constexpr std::array<std::pair<int, int>, 8> k_g2_l4_counts{
    {{4, 1}, {8, 1}, {12, 1}, {16, 1}, {32, 1}, {24, 2}, {48, 4}, {96, 8}}};
// T4 and V100 attach to N1 VMs; one documented host prices every count (tools/
// catalog_from_skypilot.py, GCP_N1_HOST), named `<host>+<GPU>x<count>`.
constexpr std::string_view k_gcp_n1_host = "n1-highmem-8";
constexpr std::array<std::string_view, 2> k_gcp_n1_accelerators{"T4", "V100"};

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
constexpr std::array<std::string_view, k_column_count> k_column_names{
    "InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs",   "MemoryGiB", "Price",
    "SpotPrice",    "Region",          "AvailabilityZone", "Provider"};
constexpr std::size_t k_required_columns = col_zone;
constexpr std::size_t k_absent = static_cast<std::size_t>(-1);

// What a number cell holds, for its checks and messages.
enum class Quantity { number, whole, price };
constexpr std::array<std::string_view, 3> k_quantity_names{"number", "whole number", "price"};

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

Row owned(const RowView& view) {
    return Row{std::string(view.provider),
               std::string(view.instance),
               std::string(view.accelerator),
               view.count,
               view.vcpus,
               view.memory_gib,
               std::string(view.price_text),
               std::string(view.spot_text),
               view.price,
               view.spot,
               std::string(view.region),
               std::string(view.zone),
               view.file,
               view.line};
}

// `a` and `b` joined by a NUL into `buffer` (reused, so lookups do not allocate).
std::string_view join_key(std::string& buffer, std::string_view a, std::string_view b) {
    buffer.assign(a);
    buffer.push_back('\0');
    buffer.append(b);
    return buffer;
}

std::string display_name(std::string_view provider) {
    for (const auto& [name, display] : k_display_names) {
        if (name == provider) {
            return std::string(display);
        }
    }
    return std::string(provider);
}

// The provider a header layout belongs to, where the layout is unique to one cloud.
std::string provider_from_header(const std::vector<std::string>& header) {
    auto has = [&](std::string_view name) {
        return std::find(header.begin(), header.end(), name) != header.end();
    };
    if (has("Generation")) {
        return "azure"; // v6 Azure
    }
    if (has("Arch") || has("LocalDiskType")) {
        return "aws";
    }
    if (header.size() >= 4 && header[0] == "InstanceType" && header[1] == "vCPUs" &&
        header[2] == "MemoryGiB" && header[3] == "AcceleratorName") {
        return "gcp";
    }
    return {};
}

const Gpu* find_in(std::span<const Gpu> gpus, std::string_view name) {
    for (const Gpu& gpu : gpus) {
        if (detail::iequals(gpu.name, name)) {
            return &gpu;
        }
        for (const std::string& alias : gpu.aliases) {
            if (detail::iequals(alias, name)) {
                return &gpu;
            }
        }
    }
    return nullptr;
}

struct DecimalParts {
    bool negative = false;
    std::string digits; // without the point
    std::size_t scale = 0;
};

std::optional<DecimalParts> split_decimal(std::string_view text) {
    DecimalParts parts;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        parts.negative = text[i] == '-';
        ++i;
    }
    bool point = false;
    bool any = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.' && !point) {
            point = true;
        } else if (c >= '0' && c <= '9') {
            parts.digits.push_back(c);
            parts.scale += point ? 1 : 0;
            any = true;
        } else {
            return std::nullopt;
        }
    }
    if (!any || parts.digits.size() > 30) {
        return std::nullopt;
    }
    return parts;
}

// The value of `text` when it is digits with an optional fraction (`12`, `0.47615`) and at most
// 2^53 as an integer without its point: then the integer divided by a power of ten (at most
// 10^18) is one correctly rounded operation on exact values, the same double std::from_chars
// gives. nullopt for anything else, which parse_number reads.
inline std::optional<double> parse_plain_decimal(std::string_view text) {
    static constexpr std::array<double, 19> k_powers{1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,
                                                     1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13,
                                                     1e14, 1e15, 1e16, 1e17, 1e18};
    constexpr std::size_t k_max_digits = 19; // below 2^64
    constexpr std::uint64_t k_max_exact = std::uint64_t{1} << 53U;
    const std::size_t size = text.size();
    if (size == 0 || size > k_max_digits + 1) {
        return std::nullopt;
    }
    std::uint64_t mantissa = 0;
    std::size_t point = size; // none
    for (std::size_t i = 0; i < size; ++i) {
        const unsigned digit = static_cast<unsigned char>(text[i]) - unsigned{'0'};
        if (digit <= 9) {
            mantissa = mantissa * 10 + digit;
        } else if (text[i] == '.' && point == size) {
            point = i;
        } else {
            return std::nullopt;
        }
    }
    // Digits on both sides of a point, at most 19 in all.
    if (point == 0 || point + 1 == size || (point == size && size > k_max_digits) ||
        mantissa > k_max_exact) {
        return std::nullopt;
    }
    const std::size_t fraction = point == size ? 0 : size - 1 - point;
    return static_cast<double>(mantissa) / k_powers.at(fraction);
}

// Lines in `text`, counting a last line without a line end.
std::size_t line_count(std::string_view text) {
    std::size_t lines = 1;
    for (std::size_t at = text.find('\n'); at != std::string_view::npos;
         at = text.find('\n', at + 1)) {
        ++lines;
    }
    return lines;
}

bool is_plain_decimal(std::string_view text) {
    bool point = false;
    bool digit = false;
    for (char c : text) {
        if (c == '.' && !point) {
            point = true;
        } else if (c >= '0' && c <= '9') {
            digit = true;
        } else {
            return false;
        }
    }
    return digit;
}

} // namespace

std::string_view describe(AsOfOrigin origin, std::string_view as_of_name) {
    switch (origin) {
    case AsOfOrigin::option:
        return as_of_name;
    case AsOfOrigin::file_date:
        return "the file's modification date";
    case AsOfOrigin::download:
        return "the download time";
    case AsOfOrigin::last_modified:
        return "the server's Last-Modified date";
    case AsOfOrigin::commit_date:
        return "the file's last commit";
    }
    return as_of_name;
}

bool is_provider_id(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

std::optional<std::string> add_decimal_text(std::string_view a, std::string_view b) {
    auto x = split_decimal(trim(a));
    auto y = split_decimal(trim(b));
    if (!x || !y || x->negative || y->negative) {
        return std::nullopt;
    }
    const std::size_t scale = std::max(x->scale, y->scale);
    // The k-th digit from the right once both numbers have `scale` decimals.
    auto digit_at = [scale](const DecimalParts& part, std::size_t k) {
        const std::size_t pad = scale - part.scale;
        if (k < pad || k - pad >= part.digits.size()) {
            return 0;
        }
        return part.digits[part.digits.size() - 1 - (k - pad)] - '0';
    };
    const std::size_t width =
        std::max(x->digits.size() + scale - x->scale, y->digits.size() + scale - y->scale) + 1;
    std::string reversed; // least significant digit first
    reversed.reserve(width);
    int carry = 0;
    for (std::size_t k = 0; k < width; ++k) {
        const int digit = digit_at(*x, k) + digit_at(*y, k) + carry;
        reversed.push_back(static_cast<char>('0' + digit % 10));
        carry = digit / 10;
    }
    std::string out;
    out.reserve(width + 1);
    for (std::size_t k = width; k-- > scale;) {
        if (out.empty() && reversed[k] == '0' && k > scale) {
            continue; // leading zero
        }
        out.push_back(reversed[k]);
    }
    std::size_t lowest = 0; // trailing zeros of the fraction are dropped
    while (lowest < scale && reversed[lowest] == '0') {
        ++lowest;
    }
    if (lowest < scale) {
        out.push_back('.');
        for (std::size_t k = scale; k-- > lowest;) {
            out.push_back(reversed[k]);
        }
    }
    return out;
}

std::string provider_from_file_name(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    std::string_view candidate;
    if (base == "vms.csv" && slash != std::string_view::npos) {
        std::string_view folder = path.substr(0, slash);
        const std::size_t parent = folder.find_last_of("/\\");
        candidate = parent == std::string_view::npos ? folder : folder.substr(parent + 1);
    } else {
        candidate = base.substr(0, base.find_first_of("_-."));
    }
    std::string lower = detail::to_lower(candidate);
    for (std::string_view cloud : k_skypilot_clouds) {
        if (cloud == lower) {
            return lower;
        }
    }
    return {};
}

namespace {

class FeedReader {
public:
    FeedReader(std::span<const FeedFile> files, const FeedOptions& options,
               std::span<const Gpu> known, std::span<const Gpu> fallback)
        : m_files(files), m_options(options), m_known(known), m_fallback(fallback) {}

    FeedRead read() {
        for (std::size_t i = 0; i < m_files.size(); ++i) {
            read_file(i);
        }
        build_split_offers();
        return finish(); // throws every problem found on the way
    }

private:
    // The GPU an accelerator name maps to (nullptr when none) and the row counts of that name.
    struct Resolved {
        const Gpu* gpu = nullptr;
        AcceleratorRows* counts = nullptr;
    };

    // A price row as read, with its instance (m_builds), (region, zone) place (m_places) and
    // file and date (m_origins) numbered; finish() orders them and writes each instance's
    // PriceRows once, in their final order. Kept small (32 bytes): an absent price is NaN,
    // which no accepted price is.
    struct PendingPrice {
        std::uint32_t instance = 0;
        std::uint32_t place = 0;
        std::uint32_t origin = 0;
        std::uint32_t line = 0;
        double on_demand = k_no_price;
        double spot = k_no_price;
    };
    struct Origin {
        std::size_t file = 0;
        Date as_of;
    };
    static constexpr double k_no_price = std::numeric_limits<double>::quiet_NaN();
    static double pack(std::optional<double> price) { return price.value_or(k_no_price); }
    static std::optional<double> unpack(double price) {
        return std::isnan(price) ? std::nullopt : std::optional<double>(price);
    }

    struct InstanceBuild {
        Instance instance;
        std::string provider;
        std::uint32_t first_line = 0;
        std::size_t first_file = 0;
        // The accelerator name of the complete offer that made it, and what it resolved to: the
        // next rows of the instance naming the same accelerator need no lookup.
        std::string accelerator;
        Resolved resolved;
        std::uint32_t id = 0;           // its number in m_builds and in PendingPrice::instance
        const Gpu* gpu = nullptr;       // the model instance.gpu names
        std::vector<std::size_t> files; // files of its price rows, consecutive repeats dropped
    };

    Diagnostic at(std::size_t file, std::uint32_t line, std::uint32_t column, std::string path,
                  std::string message) const {
        return Diagnostic{m_files[file].name, line, column, std::move(path), std::move(message)};
    }

    // Finds each known column in the header (k_absent where missing); false, reported, on a
    // duplicate or a missing required column.
    bool map_columns(std::size_t index, std::uint32_t line, const std::vector<std::string>& header,
                     std::array<std::size_t, k_column_count>& columns) {
        columns.fill(k_absent);
        for (std::size_t i = 0; i < header.size(); ++i) {
            for (std::size_t c = 0; c < k_column_count; ++c) {
                if (trim(header[i]) != k_column_names.at(c)) {
                    continue;
                }
                if (columns.at(c) != k_absent) {
                    // Which of two Price columns holds the price is anyone's guess.
                    m_sink.add(at(index, line, static_cast<std::uint32_t>(i + 1), "",
                                  fmt::format("duplicate column '{}' (fields {} and {})",
                                              k_column_names.at(c), columns.at(c) + 1, i + 1)));
                    return false;
                }
                columns.at(c) = i;
            }
        }
        std::vector<std::string_view> missing;
        for (std::size_t c = 0; c < k_required_columns; ++c) {
            if (columns.at(c) == k_absent) {
                missing.push_back(k_column_names.at(c));
            }
        }
        if (!missing.empty()) {
            m_sink.add(at(index, line, 1, "",
                          fmt::format("not a SkyPilot vms.csv layout: missing column{} {}",
                                      missing.size() == 1 ? "" : "s", fmt::join(missing, ", "))));
            return false;
        }
        return true;
    }

    // The provider of a file's rows when it has no Provider column: --provider, else its name
    // or layout; nullopt, reported, when they disagree or say nothing.
    std::optional<std::string>
    file_provider_of(std::size_t index, std::uint32_t line, const std::vector<std::string>& header,
                     const std::array<std::size_t, k_column_count>& columns) {
        std::string file_provider = m_options.provider;
        if (file_provider.empty() && columns[col_provider] == k_absent) {
            const std::string by_name = provider_from_file_name(m_files[index].name);
            const std::string by_layout = provider_from_header(header);
            if (!by_name.empty() && !by_layout.empty() && by_name != by_layout) {
                m_sink.add(at(index, line, 1, "",
                              fmt::format("the file name says provider '{}' but the columns are "
                                          "the {} layout; pass {}",
                                          by_name, by_layout, m_options.provider_name)));
                return std::nullopt;
            }
            file_provider = by_name.empty() ? by_layout : by_name;
            if (file_provider.empty()) {
                m_sink.add(at(index, 0, 0, "",
                              fmt::format("cannot tell which provider this feed is for (name the "
                                          "file <provider>_vms.csv or <provider>/vms.csv, or pass "
                                          "{})",
                                          m_options.provider_name)));
                return std::nullopt;
            }
        }
        return file_provider;
    }

    // What the rows of one file share: its columns, its provider, and the run of rows of one
    // provider being read (rows of one provider come in runs: its name is lower-cased and
    // checked once per run).
    struct FileRead {
        std::size_t index = 0;
        std::size_t width = 0;
        std::array<std::size_t, k_column_count> columns{};
        std::string file_provider;
        bool file_provider_ok = false;
        std::string row_provider;
        std::string provider_cell;
        bool row_provider_ok = false;
        bool provider_read = false;
        // Reused from row to row (each row sets every cell before it is used).
        std::array<std::string_view, k_column_count> cells;
    };

    void read_file(std::size_t index) {
        const FeedFile& file = m_files[index];
        CsvReader reader(file.text, file.name, m_sink);
        CsvRecord record;
        FileRead state;
        state.index = index;
        if (!start_file(reader, record, state)) {
            return;
        }
        // Reused from row to row (each row sets every field before it is used), so that no
        // row starts by clearing them.
        RowView row;
        while (reader.next(record)) {
            if (!read_row(reader, record, state, row)) {
                continue;
            }
            if (!row.instance.empty() && !row.accelerator.empty()) {
                add_complete_offer(row);
            } else {
                m_rows.push_back(owned(row));
            }
        }
    }

    // Reads the header of `state.index`'s file and dates it; false, reported, when its rows
    // cannot be read.
    bool start_file(CsvReader& reader, CsvRecord& record, FileRead& state) {
        const std::size_t index = state.index;
        const FeedFile& file = m_files[index];
        const std::size_t problems_before = m_sink.size();
        if (!reader.next(record)) {
            if (m_sink.size() == problems_before) { // not already refused whole (NUL, UTF-8)
                m_sink.add(at(index, 1, 1, "", "empty feed: expected a SkyPilot vms.csv header"));
            }
            return false;
        }
        std::vector<std::string> header(record.fields.begin(), record.fields.end());
        if (!map_columns(index, record.line, header, state.columns)) {
            return false;
        }
        std::optional<std::string> provider =
            file_provider_of(index, record.line, header, state.columns);
        if (!provider) {
            return false;
        }
        state.file_provider = std::move(*provider);
        state.file_provider_ok = is_provider_id(state.file_provider);
        state.width = header.size();
        if (!m_options.as_of && !file.modified) {
            m_sink.add(at(index, 0, 0, "",
                          fmt::format("the feed has no date and the file's modification date is "
                                      "unknown; pass {} DATE",
                                      m_options.as_of_name)));
            return false;
        }
        const Date as_of = m_options.as_of ? *m_options.as_of : *file.modified;
        m_dates.emplace_back(file.name,
                             std::make_pair(as_of, m_options.as_of ? m_options.as_of_origin
                                                                   : AsOfOrigin::file_date));
        m_file_dates.resize(m_files.size());
        m_file_dates[index] = as_of;
        // About one price row per line: reserve once rather than grow and copy.
        m_pending.reserve(m_pending.size() + line_count(file.text));
        return true;
    }

    // Reads `record` into `row`; false, reported, when the row is not an offer to keep.
    bool read_row(const CsvReader& reader, const CsvRecord& record, FileRead& state, RowView& row) {
        if (record.fields.size() != state.width) {
            m_sink.add(at(state.index, record.line, 1, "",
                          fmt::format("expected {} fields as in the header, got {}", state.width,
                                      record.fields.size())));
            return false;
        }
        row.file = state.index;
        row.line = record.line;
        for (std::size_t c = 0; c < k_column_count; ++c) {
            state.cells[c] = state.columns[c] == k_absent ? std::string_view()
                                                          : trim(record.fields[state.columns[c]]);
        }
        return read_provider(reader, record, state, row) &&
               read_quantities(reader, record, state, row) &&
               check_complete(reader, record, state, row);
    }

    // Sets `row.provider`; false, reported, when it is not a provider id.
    bool read_provider(const CsvReader& reader, const CsvRecord& record, FileRead& state,
                       RowView& row) {
        if (state.columns[col_provider] == k_absent || !m_options.provider.empty()) {
            row.provider = state.file_provider;
            if (state.file_provider_ok) {
                return true;
            }
        } else {
            const std::string_view cell = state.cells[col_provider];
            if (!state.provider_read || cell != state.provider_cell) {
                state.provider_cell.assign(cell);
                state.row_provider = detail::to_lower(cell);
                state.row_provider_ok = is_provider_id(state.row_provider);
                state.provider_read = true;
            }
            row.provider = state.row_provider;
            if (state.row_provider_ok) {
                return true;
            }
        }
        m_sink.add(reader.diagnostic(
            record.places[state.columns[col_provider]], "Provider",
            fmt::format("expected a lower-case provider id such as aws, got \"{}\"",
                        state.cells[col_provider])));
        return false;
    }

    // Reads the number in column `c` into `value`: nullopt when the cell is empty, or bad
    // (reported). Prices are plain decimals, so that split prices add exactly.
    void read_number(const CsvReader& reader, const CsvRecord& record, const FileRead& state,
                     Column c, Quantity quantity, std::optional<double>& value) {
        const std::string_view cell = state.cells[c];
        value.reset();
        if (cell.empty()) {
            return;
        }
        value = parse_plain_decimal(cell);
        const bool plain = value.has_value();
        if (!plain) {
            value = parse_number(cell);
        }
        if (!value || *value < 0.0 ||
            (quantity == Quantity::whole && std::floor(*value) != *value) ||
            (quantity == Quantity::price && !plain && !is_plain_decimal(cell))) {
            m_sink.add(reader.diagnostic(
                record.places[state.columns.at(c)], std::string(k_column_names.at(c)),
                fmt::format("expected a non-negative {}, got \"{}\"",
                            k_quantity_names.at(static_cast<std::size_t>(quantity)), cell)));
            value.reset();
        }
    }

    // Reports `message` at column `c` of `record`; false, for the caller to return.
    bool refuse(const CsvReader& reader, const CsvRecord& record, const FileRead& state, Column c,
                std::string message) {
        m_sink.add(reader.diagnostic(record.places[state.columns[c]],
                                     std::string(k_column_names.at(c)), std::move(message)));
        return false;
    }

    // Reads the row's counts, sizes and prices; false, reported, when one is out of range.
    bool read_quantities(const CsvReader& reader, const CsvRecord& record, const FileRead& state,
                         RowView& row) {
        row.instance = state.cells[col_instance];
        row.accelerator = state.cells[col_accelerator];
        // The same ranges as a YAML catalog's instances (gpuplan/limits.hpp).
        read_number(reader, record, state, col_count, Quantity::number, row.count);
        // 0 is the feeds' "no accelerator"; a positive count below a share of one GPU is corrupt.
        if (row.count && !(*row.count == 0.0 || (*row.count >= limits::k_min_instance_gpus &&
                                                 *row.count <= limits::k_max_instance_gpus))) {
            return refuse(reader, record, state, col_count,
                          fmt::format("expected an accelerator count of 0 or from {:g} to {:g}, "
                                      "got {:g}",
                                      limits::k_min_instance_gpus, limits::k_max_instance_gpus,
                                      *row.count));
        }
        read_number(reader, record, state, col_vcpus, Quantity::whole, row.vcpus);
        // Stored as an int: a count outside int range would be undefined to convert.
        if (row.vcpus && !(*row.vcpus > 0.0 && *row.vcpus <= limits::k_max_instance_vcpus)) {
            return refuse(reader, record, state, col_vcpus,
                          fmt::format("expected a number of vCPUs from 1 to {:g}, got {:g}",
                                      limits::k_max_instance_vcpus, *row.vcpus));
        }
        read_number(reader, record, state, col_memory, Quantity::number, row.memory_gib);
        if (row.memory_gib &&
            !(*row.memory_gib > 0.0 && *row.memory_gib <= limits::k_max_instance_memory_gib)) {
            return refuse(reader, record, state, col_memory,
                          fmt::format("expected a memory size above 0 and at most {:g} GiB, got "
                                      "{:g}",
                                      limits::k_max_instance_memory_gib, *row.memory_gib));
        }
        read_number(reader, record, state, col_price, Quantity::price, row.price);
        read_number(reader, record, state, col_spot, Quantity::price, row.spot);
        row.price_text = row.price ? state.cells[col_price] : std::string_view();
        row.spot_text = row.spot ? state.cells[col_spot] : std::string_view();
        row.region = state.cells[col_region];
        row.zone = state.cells[col_zone];
        return true;
    }

    // False, reported where the cells say why, when the row lacks what its kind needs.
    bool check_complete(const CsvReader& reader, const CsvRecord& record, const FileRead& state,
                        const RowView& row) {
        if (row.region.empty()) {
            m_sink.add(reader.diagnostic(record.places[state.columns[col_region]], "Region",
                                         "empty region"));
            return false;
        }
        if (row.instance.empty() && row.accelerator.empty()) {
            m_sink.add(at(state.index, record.line, 1, "",
                          "the row names neither an instance type nor an accelerator"));
            return false;
        }
        // A '/' would join into another option's id (provider/region/instance).
        for (const auto& [column, name, text] :
             {std::tuple{col_instance, "InstanceType", row.instance},
              std::tuple{col_region, "Region", row.region},
              std::tuple{col_zone, "AvailabilityZone", row.zone}}) {
            if (text.find('/') != std::string_view::npos && state.columns[column] != k_absent) {
                m_sink.add(reader.diagnostic(record.places[state.columns[column]], name,
                                             "a name with '/', which joins the parts of an "
                                             "option id: not read"));
                return false;
            }
        }
        if (!row.accelerator.empty() && (!row.count || *row.count <= 0.0)) {
            if (state.cells[col_count].empty() || (row.count && *row.count <= 0.0)) {
                m_sink.add(reader.diagnostic(record.places[state.columns[col_count]],
                                             "AcceleratorCount",
                                             "an accelerator row needs a positive count"));
            }
            return false;
        }
        if (!row.instance.empty() && (!row.vcpus || !row.memory_gib)) {
            if (state.cells[col_vcpus].empty() || state.cells[col_memory].empty()) {
                m_sink.add(at(state.index, record.line, 1, "",
                              "an instance row needs vCPUs and MemoryGiB"));
            }
            return false;
        }
        return true;
    }

    // The catalog GPU for a feed accelerator name; nullptr when none.
    const Gpu* resolve(std::string_view accelerator) {
        std::string_view name = accelerator;
        for (const auto& [skypilot, catalog_name] : k_skypilot_names) {
            if (detail::iequals(skypilot, accelerator)) {
                name = catalog_name;
            }
        }
        if (const Gpu* gpu = find_in(m_known, name)) {
            return gpu;
        }
        if (const Gpu* gpu = find_in(m_fallback, name)) {
            if (std::none_of(m_needed_gpus.begin(), m_needed_gpus.end(),
                             [&](const Gpu& g) { return g.name == gpu->name; })) {
                m_needed_gpus.push_back(*gpu);
            }
            return gpu;
        }
        return nullptr;
    }

    // The GPU `accelerator` of `provider` maps to, looked up as `lookup` (an instance's own
    // card, instance_gpu) when that is given; rows are counted per accelerator and GPU.
    Resolved resolve_cached(std::string_view provider, std::string_view accelerator,
                            std::string_view lookup = {}) {
        std::string_view key = join_key(m_key, provider, accelerator);
        if (!lookup.empty()) {
            m_key.push_back('\0');
            m_key.append(lookup);
            key = m_key;
        }
        auto it = m_resolved.find(key);
        if (it != m_resolved.end()) {
            return it->second;
        }
        Resolved resolved;
        resolved.gpu = resolve(lookup.empty() ? accelerator : lookup);
        if (resolved.gpu != nullptr) {
            AcceleratorRows& entry = m_stats[std::string(key)];
            entry.provider = std::string(provider);
            entry.accelerator = std::string(accelerator);
            entry.gpu = resolved.gpu->name;
            resolved.counts = &entry;
        }
        return m_resolved.emplace(std::string(key), resolved).first->second;
    }

    // The instance being built for `type` of `provider`; nullptr when there is none yet.
    InstanceBuild* find_instance(std::string_view provider, std::string_view type) {
        // Feeds often list the rows of one instance type together.
        if (m_previous_build != nullptr && m_previous_build->instance.type == type &&
            m_previous_build->provider == provider) {
            return m_previous_build;
        }
        const auto id = m_instance_ids.find(provider, type);
        if (!id) {
            return nullptr;
        }
        m_previous_build = m_builds[*id];
        return m_previous_build;
    }

    // `existing` (find_instance) after checking that its specs agree with this row's, or a new
    // instance with them.
    InstanceBuild& instance_for(InstanceBuild* existing, std::string_view provider,
                                std::string_view type, std::size_t file, std::uint32_t line,
                                const Gpu& gpu, double count, double vcpus, double memory_gib) {
        if (existing != nullptr) {
            const Instance& first = existing->instance;
            auto differs = [&](std::string_view what, std::string shown, std::string before) {
                m_sink.add(at(file, line, 1, "",
                              fmt::format("instance type '{}' has {} {} here but {} on {}:{}", type,
                                          what, shown, before, m_files[existing->first_file].name,
                                          existing->first_line)));
            };
            if (existing->gpu != &gpu && first.gpu != gpu.name) {
                differs("GPU", gpu.name, first.gpu);
            } else if (first.gpu_count != count) {
                differs("GPU count", fmt::format("{}", count), fmt::format("{}", first.gpu_count));
            } else if (first.vcpus != static_cast<int>(vcpus)) {
                differs("vCPUs", fmt::format("{}", vcpus), fmt::format("{}", first.vcpus));
            } else if (first.memory_gib != memory_gib) {
                differs("MemoryGiB", fmt::format("{}", memory_gib),
                        fmt::format("{}", first.memory_gib));
            }
            return *existing;
        }
        InstanceBuild& build =
            m_instances.emplace(std::string(join_key(m_key, provider, type)), InstanceBuild{})
                .first->second;
        m_instance_ids.intern(provider, type); // numbered as m_builds
        build.id = static_cast<std::uint32_t>(m_builds.size());
        m_builds.push_back(&build);
        build.provider = std::string(provider);
        build.first_line = line;
        build.first_file = file;
        build.instance.type = std::string(type);
        build.instance.gpu = gpu.name;
        build.gpu = &gpu;
        build.instance.gpu_count = count;
        build.instance.vcpus = static_cast<int>(vcpus);
        build.instance.memory_gib = memory_gib;
        return build;
    }

    double corrected_count(std::string_view provider, std::string_view type, double count) {
        for (const Correction& fix : k_corrections) {
            if (fix.provider == provider && fix.instance == type && fix.source_count == count) {
                std::string note =
                    fmt::format("{} {}: the feed says {} GPUs, {} written ({})", provider, type,
                                fix.source_count, fix.count, fix.reason);
                if (std::find(m_corrections.begin(), m_corrections.end(), note) ==
                    m_corrections.end()) {
                    m_corrections.push_back(std::move(note));
                }
                return fix.count;
            }
        }
        return count;
    }

    // The number of a (region, zone) place in m_places. Rows come in runs of one place, so the
    // previous row's is tried first.
    std::uint32_t place_id(std::string_view region, std::string_view zone) {
        if (!m_previous_place || m_places.first(*m_previous_place) != region ||
            m_places.second(*m_previous_place) != zone) {
            m_previous_place = m_places.intern(region, zone);
        }
        return *m_previous_place;
    }

    void add_price(InstanceBuild& build, std::size_t file, std::uint32_t line,
                   std::string_view region, std::string_view zone, std::optional<double> on_demand,
                   std::optional<double> spot, Date as_of, AcceleratorRows& counts) {
        if (!on_demand && !spot) {
            ++counts.dropped;
            return;
        }
        // Spot at or above on-demand is no spot offer: a market at its cap (AWS), or a feed
        // that copies the on-demand price where the cloud sells no spot (RunPod).
        if (on_demand && spot && *spot >= *on_demand) {
            spot.reset();
            ++m_spot_not_below[build.provider];
        }
        if (m_origins.empty() || m_origins.back().file != file || m_origins.back().as_of != as_of) {
            m_origins.push_back({file, as_of});
        }
        m_pending.push_back(PendingPrice{build.id, place_id(region, zone),
                                         static_cast<std::uint32_t>(m_origins.size() - 1), line,
                                         pack(on_demand), pack(spot)});
        if (build.files.empty() || build.files.back() != file) {
            build.files.push_back(file);
        }
        ++counts.price_rows;
    }

    void add_complete_offer(const RowView& row) {
        InstanceBuild* existing = find_instance(row.provider, row.instance);
        // A known instance naming its accelerator again resolves as its first row did.
        const Resolved resolved =
            existing != nullptr && existing->accelerator == row.accelerator
                ? existing->resolved
                : resolve_cached(row.provider, row.accelerator,
                                 instance_gpu(row.provider, row.instance, row.accelerator));
        if (resolved.gpu == nullptr) {
            m_unknown[std::string(row.provider)][std::string(row.accelerator)] += 1;
            return;
        }
        ++resolved.counts->csv_rows;
        const double count = corrected_count(row.provider, row.instance, *row.count);
        InstanceBuild& build =
            instance_for(existing, row.provider, row.instance, row.file, row.line, *resolved.gpu,
                         count, *row.vcpus, *row.memory_gib);
        if (existing == nullptr) {
            build.accelerator = std::string(row.accelerator);
            build.resolved = resolved;
        }
        // A whole offer at 0.00 is a placeholder (Vast.ai's SpotPrice), not a free machine.
        std::optional<double> price = row.price;
        std::optional<double> spot = row.spot;
        if (price && *price == 0.0) {
            price.reset();
            ++m_zero_prices[{std::string(row.provider), "Price"}];
        }
        if (spot && *spot == 0.0) {
            spot.reset();
            ++m_zero_prices[{std::string(row.provider), "SpotPrice"}];
        }
        add_price(build, row.file, row.line, row.region, row.zone, price, spot,
                  m_file_dates[row.file], *resolved.counts);
    }

    // The accelerator and count a host machine type carries, when it is a known GPU host.
    static std::optional<std::pair<std::string, double>> host_accelerator(const Row& host) {
        for (const HostFamily& family : k_gcp_host_families) {
            std::string_view type = host.instance;
            if (type.substr(0, family.prefix.size()) != family.prefix) {
                continue;
            }
            type.remove_prefix(family.prefix.size());
            int count = 0;
            auto [end, error] = std::from_chars(type.data(), type.data() + type.size(), count);
            if (error != std::errc() || end == type.data() || *end != 'g' || count <= 0) {
                return std::nullopt;
            }
            return std::make_pair(std::string(family.accelerator), static_cast<double>(count));
        }
        constexpr std::string_view k_g2 = "g2-standard-";
        if (host.instance.substr(0, k_g2.size()) == k_g2) {
            int vcpus = 0;
            std::string_view rest = std::string_view(host.instance).substr(k_g2.size());
            auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), vcpus);
            if (error == std::errc() && end == rest.data() + rest.size()) {
                for (const auto& [size, l4] : k_g2_l4_counts) {
                    if (size == vcpus) {
                        return std::make_pair(std::string("L4"), static_cast<double>(l4));
                    }
                }
            }
        }
        return std::nullopt;
    }

    // Accelerator-only rows by (provider, accelerator, count) then zone (region when the
    // layout has no zones), and the zones of each that a host row used.
    using AcceleratorKey = std::tuple<std::string, std::string, double>;
    using RowsByPlace = std::map<std::string, const Row*>;
    struct SplitRows {
        std::map<AcceleratorKey, RowsByPlace> accelerators;
        std::map<AcceleratorKey, std::set<std::string>> used;
    };

    static const std::string& place_of(const Row& row) {
        return row.zone.empty() ? row.region : row.zone;
    }

    void build_split_offers() {
        SplitRows split;
        for (const Row& row : m_rows) {
            if (!row.instance.empty()) {
                continue;
            }
            auto& zones = split.accelerators[{row.provider, row.accelerator, *row.count}];
            if (!zones.emplace(place_of(row), &row).second) {
                m_sink.add(at(row.file, row.line, 1, "",
                              fmt::format("duplicate accelerator row {} x{} in {}", row.accelerator,
                                          *row.count, place_of(row))));
            }
        }
        std::map<std::pair<std::string, std::string>, RowsByPlace> n1;
        for (const Row& host : m_rows) {
            if (host.instance.empty() || !host.accelerator.empty()) {
                continue;
            }
            if (host.instance == k_gcp_n1_host) {
                n1[{host.provider, host.instance}].emplace(place_of(host), &host);
            } else {
                pair_host(split, host);
            }
        }
        for (const auto& [provider_host, hosts] : n1) {
            pair_n1_hosts(split, provider_host.first, provider_host.second, hosts);
        }
        for (const auto& [key, zones] : split.accelerators) {
            const auto& [provider, accelerator, count] = key;
            const Resolved resolved = resolve_cached(provider, accelerator);
            if (resolved.gpu == nullptr) {
                m_unknown[provider][accelerator] += zones.size();
                continue;
            }
            AcceleratorRows& counts = *resolved.counts;
            counts.csv_rows += zones.size();
            counts.unused += zones.size() - split.used[key].size();
        }
    }

    // A host VM row whose type carries a known GPU, priced with the accelerator row of its zone.
    void pair_host(SplitRows& split, const Row& host) {
        auto carried = host_accelerator(host);
        if (!carried) {
            ++m_cpu_only_rows;
            return;
        }
        AcceleratorKey key{host.provider, carried->first, carried->second};
        const Resolved resolved = resolve_cached(host.provider, carried->first);
        if (resolved.gpu == nullptr) {
            m_unknown[host.provider][carried->first] += 1;
            return;
        }
        AcceleratorRows& counts = *resolved.counts;
        const Row* part = nullptr;
        if (auto zones = split.accelerators.find(key); zones != split.accelerators.end()) {
            auto found = zones->second.find(place_of(host));
            part = found == zones->second.end() ? nullptr : found->second;
        }
        if (part == nullptr) {
            ++counts.dropped;
            return;
        }
        split.used[key].insert(place_of(host));
        InstanceBuild& build = instance_for(
            find_instance(host.provider, host.instance), host.provider, host.instance, host.file,
            host.line, *resolved.gpu, carried->second, *host.vcpus, *host.memory_gib);
        add_split_price(build, *part, host, counts);
    }

    // The documented N1 host of `provider`, priced with every T4 and V100 count of its zones.
    void pair_n1_hosts(SplitRows& split, const std::string& provider, const std::string& host_type,
                       const RowsByPlace& hosts) {
        for (const auto& [key, zones] : split.accelerators) {
            const auto& [key_provider, accelerator, count] = key;
            if (key_provider != provider ||
                std::find(k_gcp_n1_accelerators.begin(), k_gcp_n1_accelerators.end(),
                          accelerator) == k_gcp_n1_accelerators.end()) {
                continue;
            }
            const Resolved resolved = resolve_cached(provider, accelerator);
            if (resolved.gpu == nullptr) {
                continue;
            }
            AcceleratorRows& counts = *resolved.counts;
            const std::string type = fmt::format("{}+{}x{}", host_type, accelerator, count);
            for (const auto& [place, part] : zones) {
                auto host = hosts.find(place);
                if (host == hosts.end()) {
                    ++counts.dropped;
                    continue;
                }
                split.used[key].insert(place);
                InstanceBuild& build = instance_for(
                    find_instance(provider, type), provider, type, part->file, part->line,
                    *resolved.gpu, count, *host->second->vcpus, *host->second->memory_gib);
                add_split_price(build, *part, *host->second, counts);
            }
        }
    }

    void add_split_price(InstanceBuild& build, const Row& part, const Row& host,
                         AcceleratorRows& counts) {
        auto sum = [](const std::string& a, const std::string& b) -> std::optional<double> {
            if (a.empty() || b.empty()) {
                return std::nullopt;
            }
            const std::optional<std::string> total = add_decimal_text(a, b);
            return total ? parse_number(*total) : std::nullopt;
        };
        const Date as_of = std::min(m_file_dates[part.file], m_file_dates[host.file]);
        add_price(build, host.file, host.line, host.region.empty() ? part.region : host.region,
                  host.zone.empty() ? part.zone : host.zone, sum(part.price_text, host.price_text),
                  sum(part.spot_text, host.spot_text), as_of, counts);
        m_split_providers.insert(build.provider);
    }

    // The place of a GPU model in the catalog's order (known models first).
    std::size_t gpu_rank(const std::string& name) const {
        for (std::size_t i = 0; i < m_known.size(); ++i) {
            if (m_known[i].name == name) {
                return i;
            }
        }
        for (std::size_t i = 0; i < m_fallback.size(); ++i) {
            if (m_fallback[i].name == name) {
                return m_known.size() + i;
            }
        }
        return m_known.size() + m_fallback.size();
    }

    // The pending price rows in their final order, and where each instance's rows start.
    struct PriceOrder {
        std::vector<std::uint32_t> order;
        std::vector<std::size_t> first_row; // of each instance in `order`, and the end
        [[nodiscard]] std::span<const std::uint32_t> rows_of(std::uint32_t instance) const {
            return {order.data() + first_row[instance],
                    first_row[instance + 1] - first_row[instance]};
        }
    };

    // Rows by instance, then by region and zone, in the order read among equals: two stable
    // counting sorts, by place and then by instance.
    PriceOrder price_order() const {
        std::vector<std::uint32_t> place_rank(m_places.size());
        {
            std::vector<std::uint32_t> places(m_places.size());
            std::iota(places.begin(), places.end(), std::uint32_t{0});
            std::sort(places.begin(), places.end(), [&](std::uint32_t a, std::uint32_t b) {
                return std::tie(m_places.first(a), m_places.second(a)) <
                       std::tie(m_places.first(b), m_places.second(b));
            });
            for (std::size_t rank = 0; rank < places.size(); ++rank) {
                place_rank[places[rank]] = static_cast<std::uint32_t>(rank);
            }
        }
        PriceOrder out;
        std::vector<std::uint32_t>& order = out.order;
        order.resize(m_pending.size());
        std::iota(order.begin(), order.end(), std::uint32_t{0});
        std::vector<std::uint32_t> sorted(order.size());
        auto sort_by = [&](std::size_t keys, auto key) {
            std::vector<std::uint32_t> start(keys + 1, 0);
            for (const std::uint32_t row : order) {
                ++start[key(m_pending[row]) + 1];
            }
            std::partial_sum(start.begin(), start.end(), start.begin());
            for (const std::uint32_t row : order) {
                sorted[start[key(m_pending[row])]++] = row;
            }
            order.swap(sorted);
        };
        sort_by(place_rank.size(), [&](const PendingPrice& row) { return place_rank[row.place]; });
        sort_by(m_builds.size(), [](const PendingPrice& row) { return row.instance; });
        out.first_row.assign(m_builds.size() + 1, 0);
        for (const PendingPrice& row : m_pending) {
            ++out.first_row[row.instance + 1];
        }
        std::partial_sum(out.first_row.begin(), out.first_row.end(), out.first_row.begin());
        return out;
    }

    // Writes the price rows of `build` into its instance, unique by (region, zone); a row of
    // the provider's date leaves its own date out.
    void write_prices(InstanceBuild& build, std::span<const std::uint32_t> rows,
                      Date provider_as_of) {
        Instance& instance = build.instance;
        instance.prices.reserve(rows.size());
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const PendingPrice& row = m_pending[rows[k]];
            const std::string& region = m_places.first(row.place);
            const std::string& zone = m_places.second(row.place);
            const Origin& origin = m_origins[row.origin];
            // Unique (region, zone) per instance: compare neighbours.
            if (k > 0 && m_pending[rows[k - 1]].place == row.place) {
                const PendingPrice& before = m_pending[rows[k - 1]];
                m_sink.add(at(
                    origin.file, row.line, 1, "",
                    fmt::format("duplicate price row for instance type '{}' in "
                                "region '{}'{} (first on {}:{})",
                                instance.type, region, zone.empty() ? "" : " zone '" + zone + "'",
                                m_files[m_origins[before.origin].file].name, before.line)));
                continue;
            }
            // Braces, not emplace_back: clang 14 (the fuzz build) cannot initialise an
            // aggregate from parentheses.
            instance.prices.push_back(PriceRow{
                region,
                zone,
                unpack(row.on_demand),
                unpack(row.spot),
                std::nullopt,
                std::nullopt,
                {},
                origin.as_of == provider_as_of ? std::nullopt : std::optional<Date>(origin.as_of)});
        }
    }

    // The source entry of provider `name`'s rows.
    Source provider_source(const std::string& name) const {
        Source source;
        source.id = fmt::format("skypilot-{}-feed", name);
        source.title = fmt::format("SkyPilot catalog feed for {} ({})", name, file_list(name));
        const bool derived = m_split_providers.contains(name);
        source.grade = derived ? "D" : "R";
        source.note = fmt::format(
            "read by gpuplan from the SkyPilot vms.csv layout; as_of {}{}{}", date_note(),
            m_options.undated ? "; the snapshot's own date is unknown, so as_of is the date "
                                "it was read, not the date the prices were set"
                              : "",
            derived ? "; instance prices are exact sums of an accelerator row and a host-VM "
                      "row in the same zone"
                    : "");
        source.undated = m_options.undated;
        if (m_options.as_of && (m_options.as_of_origin == AsOfOrigin::last_modified ||
                                m_options.as_of_origin == AsOfOrigin::commit_date)) {
            source.as_of = m_options.as_of; // the source's own date
        }
        return source;
    }

    FeedRead finish() {
        FeedRead out;
        const PriceOrder order = price_order();
        // A provider's as_of is its oldest price row's; rows of that date leave theirs out.
        std::map<std::string, Date, std::less<>> oldest;
        for (const auto& [key, build] : m_instances) {
            Date& date = oldest.try_emplace(build.provider, Date{9999, 12, 31}).first->second;
            for (const std::uint32_t row : order.rows_of(build.id)) {
                date = std::min(date, m_origins[m_pending[row].origin].as_of);
            }
        }
        std::map<std::string, Provider> providers;
        for (auto& [key, build] : m_instances) {
            write_prices(build, order.rows_of(build.id), oldest.at(build.provider));
            providers[build.provider].instances.push_back(std::move(build.instance));
        }
        m_pending = {};
        m_sink.throw_if_any();
        for (auto& [name, provider] : providers) {
            provider.name = name;
            provider.display_name = display_name(name);
            provider.currency = std::string(k_currency);
            // Its price rows of this date were written without one (see write_prices).
            provider.as_of = provider.instances.empty() ? Date{} : oldest.at(name);
            std::sort(provider.instances.begin(), provider.instances.end(),
                      [&](const Instance& a, const Instance& b) {
                          return std::make_tuple(gpu_rank(a.gpu), a.gpu_count, a.vcpus,
                                                 std::cref(a.type)) <
                                 std::make_tuple(gpu_rank(b.gpu), b.gpu_count, b.vcpus,
                                                 std::cref(b.type));
                      });
            Source source = provider_source(name);
            provider.sources = {source.id};
            out.overlay.sources.push_back(std::move(source));
            out.overlay.providers.push_back(std::move(provider));
        }
        for (const FeedFile& file : m_files) {
            out.overlay.names.push_back(file.name);
            out.overlay.texts.emplace_back(file.text);
        }
        out.overlay.gpus = m_needed_gpus;
        write_summary(out.summary);
        return out;
    }

    void write_summary(FeedSummary& summary) const {
        for (const auto& [key, entry] : m_stats) {
            summary.accelerators.push_back(entry);
        }
        summary.unknown_accelerators = m_unknown;
        summary.cpu_only_rows = m_cpu_only_rows;
        summary.corrections = m_corrections;
        for (const auto& [key, rows] : m_zero_prices) {
            summary.corrections.push_back(
                fmt::format("{}: {} {} {} of 0 read as no price (a zero price is not an offer)",
                            key.first, rows, rows == 1 ? "row's" : "rows'", key.second));
        }
        for (const auto& [provider, rows] : m_spot_not_below) {
            summary.corrections.push_back(
                fmt::format("{}: {} {} SpotPrice at or above Price left out (no spot discount to "
                            "plan with)",
                            provider, rows, rows == 1 ? "row's" : "rows'"));
        }
        summary.dates = m_dates;
    }

    std::set<std::size_t> files_of(const std::string& provider) const {
        std::set<std::size_t> files;
        for (const auto& [key, build] : m_instances) {
            if (build.provider == provider) {
                files.insert(build.files.begin(), build.files.end());
            }
        }
        return files;
    }

    std::string file_list(const std::string& provider) const {
        std::string out;
        for (std::size_t file : files_of(provider)) {
            const std::string& name = m_files[file].name;
            const std::size_t slash = name.find_last_of("/\\");
            out += (out.empty() ? "" : ", ") +
                   (slash == std::string::npos ? name : name.substr(slash + 1));
        }
        return out;
    }

    std::string date_note() const {
        return fmt::format(
            "from {}", describe(m_options.as_of ? m_options.as_of_origin : AsOfOrigin::file_date,
                                m_options.as_of_name));
    }

    std::span<const FeedFile> m_files;
    const FeedOptions& m_options;
    std::span<const Gpu> m_known;
    std::span<const Gpu> m_fallback;
    DiagnosticSink m_sink;
    std::vector<Row> m_rows;
    std::vector<Date> m_file_dates;
    // Keyed by provider NUL instance type / accelerator name (join_key), looked up without
    // allocating.
    std::map<std::string, InstanceBuild, std::less<>> m_instances;
    KeyTable m_instance_ids;              // (provider, type) of m_instances, numbered as m_builds
    std::vector<InstanceBuild*> m_builds; // into m_instances, whose nodes stay put
    InstanceBuild* m_previous_build = nullptr;
    KeyTable m_places; // (region, zone) of price rows
    std::optional<std::uint32_t> m_previous_place;
    std::vector<PendingPrice> m_pending; // every price row read, in file order
    std::vector<Origin> m_origins;       // file and as_of of pending rows, by number
    std::map<std::string, Resolved, std::less<>> m_resolved;
    std::map<std::string, AcceleratorRows, std::less<>> m_stats;
    std::string m_key;
    std::map<std::string, std::map<std::string, std::size_t>> m_unknown;
    std::vector<Gpu> m_needed_gpus;
    std::vector<std::string> m_corrections;
    // Complete offers priced exactly 0, per provider and column (left out as prices).
    std::map<std::pair<std::string, std::string>, std::size_t> m_zero_prices;
    // Rows whose spot price is not below their on-demand price, per provider (spot left out).
    std::map<std::string, std::size_t> m_spot_not_below;
    std::vector<std::pair<std::string, std::pair<Date, AsOfOrigin>>> m_dates;
    std::set<std::string> m_split_providers;
    std::size_t m_cpu_only_rows = 0;
};

} // namespace

FeedRead read_skypilot(std::span<const FeedFile> files, const FeedOptions& options,
                       std::span<const catalog::Gpu> known,
                       std::span<const catalog::Gpu> fallback) {
    return FeedReader(files, options, known, fallback).read();
}

} // namespace gpuplan::feeds
