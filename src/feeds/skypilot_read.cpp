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

FeedRead FeedReader::read() {
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        read_file(i);
    }
    build_split_offers();
    return finish(); // throws every problem found on the way
}

bool FeedReader::map_columns(std::size_t index, std::uint32_t line,
                             const std::vector<std::string>& header,
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

std::optional<std::string>
FeedReader::file_provider_of(std::size_t index, std::uint32_t line,
                             const std::vector<std::string>& header,
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

void FeedReader::read_file(std::size_t index) {
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

bool FeedReader::start_file(CsvReader& reader, CsvRecord& record, FileRead& state) {
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
    m_dates.emplace_back(file.name, std::make_pair(as_of, m_options.as_of ? m_options.as_of_origin
                                                                          : AsOfOrigin::file_date));
    m_file_dates.resize(m_files.size());
    m_file_dates[index] = as_of;
    // About one price row per line: reserve once rather than grow and copy.
    m_pending.reserve(m_pending.size() + line_count(file.text));
    return true;
}

bool FeedReader::read_row(const CsvReader& reader, const CsvRecord& record, FileRead& state,
                          RowView& row) {
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

bool FeedReader::read_provider(const CsvReader& reader, const CsvRecord& record, FileRead& state,
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
    m_sink.add(
        reader.diagnostic(record.places[state.columns[col_provider]], "Provider",
                          fmt::format("expected a lower-case provider id such as aws, got \"{}\"",
                                      state.cells[col_provider])));
    return false;
}

void FeedReader::read_number(const CsvReader& reader, const CsvRecord& record,
                             const FileRead& state, Column c, Quantity quantity,
                             std::optional<double>& value) {
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
    if (!value || *value < 0.0 || (quantity == Quantity::whole && std::floor(*value) != *value) ||
        (quantity == Quantity::price && !plain && !is_plain_decimal(cell))) {
        m_sink.add(reader.diagnostic(
            record.places[state.columns.at(c)], std::string(k_column_names.at(c)),
            fmt::format("expected a non-negative {}, got \"{}\"",
                        k_quantity_names.at(static_cast<std::size_t>(quantity)), cell)));
        value.reset();
    }
}

bool FeedReader::refuse(const CsvReader& reader, const CsvRecord& record, const FileRead& state,
                        Column c, std::string message) {
    m_sink.add(reader.diagnostic(record.places[state.columns[c]], std::string(k_column_names.at(c)),
                                 std::move(message)));
    return false;
}

bool FeedReader::read_quantities(const CsvReader& reader, const CsvRecord& record,
                                 const FileRead& state, RowView& row) {
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

bool FeedReader::check_complete(const CsvReader& reader, const CsvRecord& record,
                                const FileRead& state, const RowView& row) {
    if (row.region.empty()) {
        m_sink.add(
            reader.diagnostic(record.places[state.columns[col_region]], "Region", "empty region"));
        return false;
    }
    if (row.instance.empty() && row.accelerator.empty()) {
        m_sink.add(at(state.index, record.line, 1, "",
                      "the row names neither an instance type nor an accelerator"));
        return false;
    }
    // A '/' would join into another option's id (provider/region/instance).
    for (const auto& [column, name, text] : {std::tuple{col_instance, "InstanceType", row.instance},
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
            m_sink.add(
                at(state.index, record.line, 1, "", "an instance row needs vCPUs and MemoryGiB"));
        }
        return false;
    }
    return true;
}

const Gpu* FeedReader::resolve(std::string_view accelerator) {
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

FeedReader::Resolved FeedReader::resolve_cached(std::string_view provider,
                                                std::string_view accelerator,
                                                std::string_view lookup) {
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

FeedReader::InstanceBuild* FeedReader::find_instance(std::string_view provider,
                                                     std::string_view type) {
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

FeedReader::InstanceBuild& FeedReader::instance_for(InstanceBuild* existing,
                                                    std::string_view provider,
                                                    std::string_view type, std::size_t file,
                                                    std::uint32_t line, const Gpu& gpu,
                                                    double count, double vcpus, double memory_gib) {
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

double FeedReader::corrected_count(std::string_view provider, std::string_view type, double count) {
    for (const Correction& fix : k_corrections) {
        if (fix.provider == provider && fix.instance == type && fix.source_count == count) {
            std::string note = fmt::format("{} {}: the feed says {} GPUs, {} written ({})",
                                           provider, type, fix.source_count, fix.count, fix.reason);
            if (std::find(m_corrections.begin(), m_corrections.end(), note) ==
                m_corrections.end()) {
                m_corrections.push_back(std::move(note));
            }
            return fix.count;
        }
    }
    return count;
}

std::uint32_t FeedReader::place_id(std::string_view region, std::string_view zone) {
    if (!m_previous_place || m_places.first(*m_previous_place) != region ||
        m_places.second(*m_previous_place) != zone) {
        m_previous_place = m_places.intern(region, zone);
    }
    return *m_previous_place;
}

void FeedReader::add_price(InstanceBuild& build, std::size_t file, std::uint32_t line,
                           std::string_view region, std::string_view zone,
                           std::optional<double> on_demand, std::optional<double> spot, Date as_of,
                           AcceleratorRows& counts) {
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

void FeedReader::add_complete_offer(const RowView& row) {
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
    InstanceBuild& build = instance_for(existing, row.provider, row.instance, row.file, row.line,
                                        *resolved.gpu, count, *row.vcpus, *row.memory_gib);
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
    add_price(build, row.file, row.line, row.region, row.zone, price, spot, m_file_dates[row.file],
              *resolved.counts);
}

} // namespace gpuplan::feeds::sky
