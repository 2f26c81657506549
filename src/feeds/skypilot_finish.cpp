#include "detail/strings.hpp"
#include "feeds/decimal.hpp"
#include "feeds/skypilot_reader.hpp"
#include "gpuplan/limits.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <numeric>

namespace gpuplan::feeds::sky {

using detail::trim;

std::size_t FeedReader::gpu_rank(const std::string& name) const {
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

FeedReader::PriceOrder FeedReader::price_order() const {
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

void FeedReader::write_prices(InstanceBuild& build, std::span<const std::uint32_t> rows,
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
            m_sink.add(
                at(origin.file, row.line, 1, "",
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

Source FeedReader::provider_source(const std::string& name) const {
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

FeedRead FeedReader::finish() {
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
        std::sort(
            provider.instances.begin(), provider.instances.end(),
            [&](const Instance& a, const Instance& b) {
                return std::make_tuple(gpu_rank(a.gpu), a.gpu_count, a.vcpus, std::cref(a.type)) <
                       std::make_tuple(gpu_rank(b.gpu), b.gpu_count, b.vcpus, std::cref(b.type));
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

void FeedReader::write_summary(FeedSummary& summary) const {
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

std::set<std::size_t> FeedReader::files_of(const std::string& provider) const {
    std::set<std::size_t> files;
    for (const auto& [key, build] : m_instances) {
        if (build.provider == provider) {
            files.insert(build.files.begin(), build.files.end());
        }
    }
    return files;
}

std::string FeedReader::file_list(const std::string& provider) const {
    std::string out;
    for (std::size_t file : files_of(provider)) {
        const std::string& name = m_files[file].name;
        const std::size_t slash = name.find_last_of("/\\");
        out += (out.empty() ? "" : ", ") +
               (slash == std::string::npos ? name : name.substr(slash + 1));
    }
    return out;
}

std::string FeedReader::date_note() const {
    return fmt::format("from {}",
                       describe(m_options.as_of ? m_options.as_of_origin : AsOfOrigin::file_date,
                                m_options.as_of_name));
}

} // namespace gpuplan::feeds::sky
