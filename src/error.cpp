#include "gpuplan/error.hpp"

#include "gpuplan/limits.hpp"

#include <fmt/format.h>

namespace gpuplan {

std::string format_diagnostic(const Diagnostic& diagnostic) {
    std::string out;
    if (!diagnostic.file.empty()) {
        out += diagnostic.file;
        if (diagnostic.line > 0) {
            out += fmt::format(":{}:{}", diagnostic.line, diagnostic.column);
        }
        out += ": ";
    }
    out += "error: ";
    if (!diagnostic.path.empty()) {
        out += diagnostic.path;
        out += ": ";
    }
    out += diagnostic.message;
    return out;
}

std::string shorten_line(std::string_view line, std::size_t max_bytes) {
    if (line.size() <= max_bytes) {
        return std::string(line);
    }
    const auto continuation = [&](std::size_t i) {
        return i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0U) == 0x80U;
    };
    std::size_t head = max_bytes * 3 / 4;
    while (head > 0 && continuation(head)) {
        --head;
    }
    std::size_t tail = line.size() - max_bytes / 4;
    while (tail < line.size() && continuation(tail)) {
        ++tail;
    }
    return fmt::format("{}… [{} bytes left out] …{}", line.substr(0, head), tail - head,
                       line.substr(tail));
}

namespace {
std::string summary(const std::vector<Diagnostic>& diagnostics) {
    if (diagnostics.empty()) {
        return "invalid input";
    }
    return format_diagnostic(diagnostics.front());
}
} // namespace

InputError::InputError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(summary(diagnostics)), m_diagnostics(std::move(diagnostics)) {}

void DiagnosticSink::add(Diagnostic diagnostic) {
    if (!full()) {
        m_diagnostics.push_back(std::move(diagnostic));
        return;
    }
    ++m_more;
    std::string message =
        fmt::format("{} more problem{} not shown", m_more, m_more == 1 ? "" : "s");
    if (m_more == 1) {
        m_diagnostics.push_back(Diagnostic{"gpuplan", 0, 0, "", std::move(message)});
    } else {
        m_diagnostics.back().message = std::move(message);
    }
}

bool DiagnosticSink::full() const {
    return m_diagnostics.size() >= limits::k_max_diagnostics;
}

void DiagnosticSink::throw_if_any() const {
    if (!m_diagnostics.empty()) {
        throw InputError(m_diagnostics);
    }
}

} // namespace gpuplan
