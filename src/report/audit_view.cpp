#include "gpuplan/report/audit_view.hpp"

#include "gpuplan/report/escape.hpp"
#include "report/generator_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

using catalog::AuditFinding;
using nlohmann::ordered_json;

namespace {

double share(std::size_t part, std::size_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string summary_line(const catalog::AuditReport& audit) {
    return fmt::format(
        "Catalog audit as of {}: {} price rows of {} providers; {} ({:.1f}%) dated within 12 "
        "months, {} undated; {} error{}, {} warning{}",
        audit.today.to_string(), audit.rows, audit.providers, audit.dated_within_year,
        100.0 * share(audit.dated_within_year, audit.rows), audit.undated, audit.errors(),
        audit.errors() == 1 ? "" : "s", audit.findings.size() - audit.errors(),
        audit.findings.size() - audit.errors() == 1 ? "" : "s");
}

// `error: check: provider[/instance]: text`, errors before warnings, each in catalog order.
std::vector<std::string> finding_lines(const catalog::AuditReport& audit) {
    std::vector<std::string> lines;
    for (const bool errors : {true, false}) {
        for (const AuditFinding& f : audit.findings) {
            if (f.error == errors) {
                lines.push_back(fmt::format("{}: {}: {}: {}", f.error ? "error" : "warning",
                                            catalog::to_string(f.check), f.provider, f.text));
            }
        }
    }
    return lines;
}

ordered_json finding_json(const AuditFinding& f) {
    ordered_json entry;
    entry["check"] = catalog::to_string(f.check);
    entry["severity"] = f.error ? "error" : "warning";
    entry["provider"] = f.provider;
    entry["instance"] = f.instance.empty() ? ordered_json(nullptr) : ordered_json(f.instance);
    entry["region"] = f.region.empty() ? ordered_json(nullptr) : ordered_json(f.region);
    entry["zone"] = f.zone.empty() ? ordered_json(nullptr) : ordered_json(f.zone);
    entry["rows"] = f.rows;
    entry["text"] = f.text;
    return entry;
}

} // namespace

std::string render_catalog_audit(const catalog::AuditReport& audit, Format format,
                                 const GeneratorInfo& generator, std::size_t width) {
    if (format == Format::json) {
        ordered_json out;
        out["schema_version"] = k_json_schema_version;
        put_generator(out, generator);
        out["today"] = audit.today.to_string();
        out["summary"] = {
            {"providers", audit.providers},
            {"rows", audit.rows},
            {"dated_within_12_months", audit.dated_within_year},
            {"dated_within_12_months_share", share(audit.dated_within_year, audit.rows)},
            {"undated", audit.undated},
            {"errors", audit.errors()},
            {"warnings", audit.findings.size() - audit.errors()}};
        ordered_json findings = ordered_json::array();
        for (const AuditFinding& f : audit.findings) {
            findings.push_back(finding_json(f));
        }
        out["findings"] = std::move(findings);
        return out.dump(2) + "\n";
    }
    if (format == Format::markdown) {
        std::string out = "# Catalog audit\n\n" + escape_markdown_cell(summary_line(audit)) + "\n";
        const std::vector<std::string> lines = finding_lines(audit);
        if (!lines.empty()) {
            out += "\n";
        }
        for (const std::string& line : lines) {
            out += "- " + escape_markdown_cell(line) + "\n";
        }
        return out;
    }
    std::string out = summary_line(audit) + "\n";
    for (const std::string& line : finding_lines(audit)) {
        out += "- " + escape_control(line) + "\n";
    }
    return wrap_lines(out, width);
}

} // namespace gpuplan::report
