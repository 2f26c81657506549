#include "gpuplan/report/diff_view.hpp"

#include "gpuplan/report/text_table.hpp"
#include "report/generator_json.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

using catalog::ChangeKind;
using catalog::PriceChange;
using nlohmann::ordered_json;

namespace {

struct Counts {
    std::size_t added = 0;
    std::size_t removed = 0;
    std::size_t changed = 0;
};

Counts count(const catalog::CatalogDiff& diff) {
    Counts counts;
    for (const PriceChange& change : diff.changes) {
        switch (change.kind) {
        case ChangeKind::added:
            ++counts.added;
            break;
        case ChangeKind::removed:
            ++counts.removed;
            break;
        case ChangeKind::changed:
            ++counts.changed;
            break;
        }
    }
    return counts;
}

std::string relative_change(const PriceChange& change) {
    if (change.kind != ChangeKind::changed || !change.before || !change.after) {
        return std::string(catalog::to_string(change.kind));
    }
    if (*change.before == 0.0) {
        return "from 0";
    }
    const double percent = (*change.after - *change.before) / *change.before * 100.0;
    return fmt::format("{}{}%", percent >= 0 ? "+" : "", format_fixed(percent, 1));
}

ordered_json side_json(const DiffSide& side) {
    ordered_json out;
    out["files"] = side.files;
    out["digest"] = "fnv1a64:" + side.digest;
    out["offers"] = side.offers;
    return out;
}

ordered_json optional_price(const std::optional<double>& value) {
    return value ? ordered_json(*value) : ordered_json(nullptr);
}

// The price changes as a table. Ids (instance types, regions, zones, price names) are never cut
// or broken: `grouped`, each provider and instance type heads its rows instead of taking two
// columns, which is how a terminal narrower than the flat table gets it.
TextTable change_table(const catalog::CatalogDiff& diff, bool grouped) {
    TextTable table;
    if (!grouped) {
        table.add_column("PROVIDER");
        table.add_column("INSTANCE");
    }
    constexpr std::array<std::pair<std::string_view, Align>, 7> k_columns{{{"REGION", Align::left},
                                                                           {"ZONE", Align::left},
                                                                           {"PRICE", Align::left},
                                                                           {"A", Align::right},
                                                                           {"B", Align::right},
                                                                           {"CHANGE", Align::right},
                                                                           {"CUR", Align::left}}};
    for (const auto& [header, align] : k_columns) {
        table.add_column(std::string(header), align);
    }
    auto price = [](const std::optional<double>& value) {
        return value ? format_price(*value) : std::string("-");
    };
    const PriceChange* group = nullptr;
    for (const PriceChange& change : diff.changes) {
        std::vector<std::string> row{change.region,       change.zone.empty() ? "-" : change.zone,
                                     change.field,        price(change.before),
                                     price(change.after), relative_change(change),
                                     change.currency};
        if (!grouped) {
            row.insert(row.begin(), {change.provider, change.instance});
        } else if (group == nullptr || group->provider != change.provider ||
                   group->instance != change.instance) {
            group = &change;
            table.add_heading(change.provider + " " + change.instance);
        }
        table.add_row(std::move(row));
    }
    return table;
}

// The table of changes in a terminal `width` columns wide (0: as wide as it is).
std::string change_text(const catalog::CatalogDiff& diff, std::size_t width) {
    std::string flat = change_table(diff, false).render_text();
    if (width == 0 || widest_line(flat) <= width) {
        return flat;
    }
    return change_table(diff, true).render_text();
}

} // namespace

std::string render_catalog_diff(const catalog::CatalogDiff& diff, const DiffSide& a,
                                const DiffSide& b, Format format, const GeneratorInfo& generator,
                                std::size_t width) {
    const Counts counts = count(diff);
    if (format == Format::json) {
        ordered_json out;
        out["schema_version"] = k_json_schema_version;
        put_generator(out, generator);
        out["a"] = side_json(a);
        out["b"] = side_json(b);
        out["summary"] = {{"added", counts.added},
                          {"removed", counts.removed},
                          {"changed", counts.changed},
                          {"unchanged", diff.unchanged}};
        ordered_json changes = ordered_json::array();
        for (const PriceChange& change : diff.changes) {
            ordered_json entry;
            entry["provider"] = change.provider;
            entry["instance"] = change.instance;
            entry["region"] = change.region;
            entry["zone"] = change.zone.empty() ? ordered_json(nullptr) : ordered_json(change.zone);
            entry["price"] = change.field;
            entry["change"] = catalog::to_string(change.kind);
            entry["before"] = optional_price(change.before);
            entry["after"] = optional_price(change.after);
            entry["currency"] = change.currency;
            changes.push_back(std::move(entry));
        }
        out["changes"] = changes;
        return out.dump(2) + "\n";
    }
    const std::string summary = fmt::format(
        "{} added, {} removed, {} changed, {} unchanged prices (A: {} offers, B: {} "
        "offers)",
        counts.added, counts.removed, counts.changed, diff.unchanged, a.offers, b.offers);
    if (format == Format::markdown) {
        std::string out = "# Catalog price changes\n\n";
        out +=
            fmt::format("A: {}  \nB: {}\n\n", fmt::join(a.files, ", "), fmt::join(b.files, ", "));
        if (!diff.changes.empty()) {
            out += change_table(diff, false).render_markdown() + "\n";
        }
        return out + summary + "\n";
    }
    return (diff.changes.empty() ? std::string() : change_text(diff, width)) +
           wrap_lines(summary + "\n", width);
}

} // namespace gpuplan::report
