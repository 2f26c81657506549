#pragma once

// The reader of SkyPilot vms.csv feeds: rows are read and checked (skypilot_read.cpp), GCP
// accelerator rows are paired with their host VMs (skypilot_pairing.cpp), and the offers are
// ordered and written with their summary (skypilot_finish.cpp).

#include "feeds/csv.hpp"
#include "feeds/key_table.hpp"
#include "feeds/skypilot_tables.hpp"
#include "gpuplan/feeds/skypilot.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace gpuplan::feeds::sky {

using catalog::Gpu;
using catalog::Instance;
using catalog::PriceRow;
using catalog::Provider;

class FeedReader {
public:
    FeedReader(std::span<const FeedFile> files, const FeedOptions& options,
               std::span<const Gpu> known, std::span<const Gpu> fallback)
        : m_files(files), m_options(options), m_known(known), m_fallback(fallback) {}

    FeedRead read();

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
                     std::array<std::size_t, k_column_count>& columns);

    // The provider of a file's rows when it has no Provider column: --provider, else its name
    // or layout; nullopt, reported, when they disagree or say nothing.
    std::optional<std::string>
    file_provider_of(std::size_t index, std::uint32_t line, const std::vector<std::string>& header,
                     const std::array<std::size_t, k_column_count>& columns);

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

    void read_file(std::size_t index);

    // Reads the header of `state.index`'s file and dates it; false, reported, when its rows
    // cannot be read.
    bool start_file(CsvReader& reader, CsvRecord& record, FileRead& state);

    // Reads `record` into `row`; false, reported, when the row is not an offer to keep.
    bool read_row(const CsvReader& reader, const CsvRecord& record, FileRead& state, RowView& row);

    // Sets `row.provider`; false, reported, when it is not a provider id.
    bool read_provider(const CsvReader& reader, const CsvRecord& record, FileRead& state,
                       RowView& row);

    // Reads the number in column `c` into `value`: nullopt when the cell is empty, or bad
    // (reported). Prices are plain decimals, so that split prices add exactly.
    void read_number(const CsvReader& reader, const CsvRecord& record, const FileRead& state,
                     Column c, Quantity quantity, std::optional<double>& value);

    // Reports `message` at column `c` of `record`; false, for the caller to return.
    bool refuse(const CsvReader& reader, const CsvRecord& record, const FileRead& state, Column c,
                std::string message);

    // Reads the row's counts, sizes and prices; false, reported, when one is out of range.
    bool read_quantities(const CsvReader& reader, const CsvRecord& record, const FileRead& state,
                         RowView& row);

    // False, reported where the cells say why, when the row lacks what its kind needs.
    bool check_complete(const CsvReader& reader, const CsvRecord& record, const FileRead& state,
                        const RowView& row);

    // The catalog GPU for a feed accelerator name; nullptr when none.
    const Gpu* resolve(std::string_view accelerator);

    // The GPU `accelerator` of `provider` maps to, looked up as `lookup` (an instance's own
    // card, instance_gpu) when that is given; rows are counted per accelerator and GPU.
    Resolved resolve_cached(std::string_view provider, std::string_view accelerator,
                            std::string_view lookup = {});

    // The instance being built for `type` of `provider`; nullptr when there is none yet.
    InstanceBuild* find_instance(std::string_view provider, std::string_view type);

    // `existing` (find_instance) after checking that its specs agree with this row's, or a new
    // instance with them.
    InstanceBuild& instance_for(InstanceBuild* existing, std::string_view provider,
                                std::string_view type, std::size_t file, std::uint32_t line,
                                const Gpu& gpu, double count, double vcpus, double memory_gib);

    double corrected_count(std::string_view provider, std::string_view type, double count);

    // The number of a (region, zone) place in m_places. Rows come in runs of one place, so the
    // previous row's is tried first.
    std::uint32_t place_id(std::string_view region, std::string_view zone);

    void add_price(InstanceBuild& build, std::size_t file, std::uint32_t line,
                   std::string_view region, std::string_view zone, std::optional<double> on_demand,
                   std::optional<double> spot, Date as_of, AcceleratorRows& counts);

    void add_complete_offer(const RowView& row);

    // The accelerator and count a host machine type carries, when it is a known GPU host.
    static std::optional<std::pair<std::string, double>> host_accelerator(const Row& host);

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

    void build_split_offers();

    // A host VM row whose type carries a known GPU, priced with the accelerator row of its zone.
    void pair_host(SplitRows& split, const Row& host);

    // The documented N1 host of `provider`, priced with every T4 and V100 count of its zones.
    void pair_n1_hosts(SplitRows& split, const std::string& provider, const std::string& host_type,
                       const RowsByPlace& hosts);

    void add_split_price(InstanceBuild& build, const Row& part, const Row& host,
                         AcceleratorRows& counts);

    // The place of a GPU model in the catalog's order (known models first).
    std::size_t gpu_rank(const std::string& name) const;

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
    PriceOrder price_order() const;

    // Writes the price rows of `build` into its instance, unique by (region, zone); a row of
    // the provider's date leaves its own date out.
    void write_prices(InstanceBuild& build, std::span<const std::uint32_t> rows,
                      Date provider_as_of);

    // The source entry of provider `name`'s rows.
    Source provider_source(const std::string& name) const;

    FeedRead finish();

    void write_summary(FeedSummary& summary) const;

    std::set<std::size_t> files_of(const std::string& provider) const;

    std::string file_list(const std::string& provider) const;

    std::string date_note() const;

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

} // namespace gpuplan::feeds::sky
