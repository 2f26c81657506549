#pragma once
// Reading SkyPilot catalog price feeds (the `vms.csv` layouts of catalog schema v6 to v9, one
// per cloud) into catalog providers, without a YAML round trip. See docs/feeds.md.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/loader.hpp"

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::feeds {

// A feed's bytes: a string, or memory kept readable by an owner (the CLI maps feed files into
// memory rather than copying them). Copies share the bytes.
class FeedText {
public:
    FeedText() = default;
    // Owns `text`; implicit, so that FeedFile{name, text, date} takes a string.
    FeedText(std::string text) : FeedText(std::make_shared<const std::string>(std::move(text))) {}
    FeedText(const char* text) : FeedText(std::string(text)) {}
    // Views `bytes`, which stay readable as long as `owner` (shared by copies) lives.
    FeedText(std::shared_ptr<const void> owner, std::string_view bytes)
        : m_owner(std::move(owner)), m_bytes(bytes) {}

    // The bytes, valid as long as this FeedText or a copy of it lives.
    [[nodiscard]] std::string_view view() const { return m_bytes; }
    operator std::string_view() const { return m_bytes; }

private:
    explicit FeedText(const std::shared_ptr<const std::string>& text)
        : m_owner(text), m_bytes(*text) {}

    std::shared_ptr<const void> m_owner;
    std::string_view m_bytes;
};

// One feed file as the CLI read it.
struct FeedFile {
    std::string name; // the path as given, for diagnostics and provider inference
    FeedText text;
    std::optional<Date> modified; // the file's modification date (UTC); nullopt if unknown
};

// Where a feed's as_of came from; feeds carry no date of their own. `last_modified` (the
// server's Last-Modified header) and `commit_date` (the file's last commit) are the source's own
// date: its source states it (`Source::as_of`).
enum class AsOfOrigin { option, file_date, download, last_modified, commit_date };

// How the summary and source notes name an origin: `as_of_name` (the setting that gave it, as
// FeedOptions names it), `the file's modification date`, `the download time`, `the server's
// Last-Modified date`, `the file's last commit`.
[[nodiscard]] std::string_view describe(AsOfOrigin origin, std::string_view as_of_name);

struct FeedOptions {
    std::string provider;      // --provider; empty = infer from each file's name and columns
    std::optional<Date> as_of; // --as-of; nullopt = each file's modification date
    // --undated: the snapshot's own date is unknown, so as_of is the date it was read and the
    // feed's sources are marked undated.
    bool undated = false;
    // What `as_of` is when given: --as-of, or the day a feed was downloaded (catalog update).
    AsOfOrigin as_of_origin = AsOfOrigin::option;
    // How messages and notes name the settings `provider` and `as_of` (the command line passes
    // its flags).
    std::string provider_name = "provider";
    std::string as_of_name = "as_of";
};

// What happened to one provider's CSV rows of one accelerator name.
struct AcceleratorRows {
    std::string provider;
    std::string accelerator;    // as named in the feed (`H100-MEGA`)
    std::string gpu;            // catalog GPU model it maps to (`H100`)
    std::size_t csv_rows = 0;   // complete offers, or accelerator-only rows (split feeds)
    std::size_t price_rows = 0; // price rows written
    std::size_t dropped = 0;    // rows with neither an on-demand nor a spot price
    std::size_t unused = 0;     // accelerator-only rows with no host row in their zone

    bool operator==(const AcceleratorRows&) const = default;
};

// A summary of the import for people: row counts, names left out, corrections made.
struct FeedSummary {
    std::vector<AcceleratorRows> accelerators; // sorted by provider, then accelerator
    // Accelerator names with no catalog GPU model, per provider: name -> rows skipped.
    std::map<std::string, std::map<std::string, std::size_t>> unknown_accelerators;
    std::size_t cpu_only_rows = 0;        // host rows with no GPU (not offers gpuplan can use)
    std::vector<std::string> corrections; // known source errors corrected, one sentence each
    // The as_of given to each file and where it came from.
    std::vector<std::pair<std::string, std::pair<Date, AsOfOrigin>>> dates;

    bool operator==(const FeedSummary&) const = default;
};

struct FeedRead {
    catalog::FeedOverlay overlay;
    FeedSummary summary;
};

// Reads SkyPilot feeds into providers. Accelerator names map to the GPU models of `known` (names
// and aliases, case-insensitive, plus SkyPilot's own names such as H100-MEGA), else of
// `fallback` (the embedded catalog's models, which are then carried in the overlay); names in
// neither are skipped and listed in the summary, never guessed. Files of one provider are read
// together, so GCP host-VM rows and accelerator rows may come from different files. Throws
// InputError with every bad cell, inconsistent instance or duplicate price row.
[[nodiscard]] FeedRead read_skypilot(std::span<const FeedFile> files, const FeedOptions& options,
                                     std::span<const catalog::Gpu> known,
                                     std::span<const catalog::Gpu> fallback);

// The provider a file name names: `aws_gpu_vms.csv` -> aws, `.../gcp/vms.csv` -> gcp; empty
// when the name says nothing.
[[nodiscard]] std::string provider_from_file_name(std::string_view path);

// True for a provider id as catalogs spell them: lower-case letters, digits, `-` and `_`.
[[nodiscard]] bool is_provider_id(std::string_view name);

// Sum of two decimal numbers given as text, exact (no binary rounding on the way); nullopt
// when either is not a plain decimal.
[[nodiscard]] std::optional<std::string> add_decimal_text(std::string_view a, std::string_view b);

} // namespace gpuplan::feeds
