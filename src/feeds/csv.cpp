#include "feeds/csv.hpp"

#include "detail/strings.hpp"

#include <cstring>
#include <fmt/format.h>

namespace gpuplan::feeds {

namespace {

constexpr std::string_view k_utf8_bom = "\xEF\xBB\xBF";

bool is_line_end(char c) {
    return c == '\n' || c == '\r';
}

// Bytes of the line end at `pos`: 2 for CRLF, else 1.
std::size_t line_end_length(std::string_view text, std::size_t pos) {
    return text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n' ? 2U : 1U;
}

} // namespace

CsvReader::CsvReader(std::string_view text, std::string file, DiagnosticSink& sink,
                     CsvLimits limits)
    : m_text(text), m_file(std::move(file)), m_sink(&sink), m_limits(limits) {
    if (m_text.size() > m_limits.max_bytes) {
        fail(0, 0,
             fmt::format("file is {} bytes, more than the limit of {} bytes", m_text.size(),
                         m_limits.max_bytes));
        m_pos = m_text.size();
        return;
    }
    // Text that is not UTF-8 would reach names in the outputs, where JSON cannot carry it.
    if (auto bad = detail::find_invalid_utf8(m_text)) {
        fail(bad->line, bad->column,
             fmt::format("invalid UTF-8 (byte 0x{:02X}); gpuplan reads UTF-8 text", bad->byte));
        m_pos = m_text.size();
        return;
    }
    if (m_text.substr(0, k_utf8_bom.size()) == k_utf8_bom) {
        m_pos = k_utf8_bom.size();
        m_line_start = m_pos;
    }
}

Diagnostic CsvReader::diagnostic(CsvPlace place, std::string path, std::string message) const {
    return Diagnostic{m_file, place.line, place.column, std::move(path), std::move(message)};
}

void CsvReader::fail(std::uint32_t line, std::uint32_t column, std::string message) {
    m_sink->add(Diagnostic{m_file, line, column, "", std::move(message)});
}

void CsvReader::advance_line(std::size_t line_start_after) {
    ++m_line;
    m_line_start = line_start_after;
}

void CsvReader::skip_line() {
    while (m_pos < m_text.size() && !is_line_end(m_text[m_pos])) {
        ++m_pos;
    }
    if (m_pos < m_text.size()) {
        m_pos += line_end_length(m_text, m_pos);
        advance_line(m_pos);
    }
}

bool CsvReader::next(CsvRecord& record) {
    const std::size_t size = m_text.size();
    const char* data = m_text.data();
    std::vector<Span>& spans = m_spans;
    for (;;) {
        record.fields.clear();
        record.places.clear();
        m_scratch.clear();
        spans.clear();
        // Empty lines separate nothing in a feed; skip them.
        while (m_pos < size && is_line_end(data[m_pos])) {
            m_pos += line_end_length(m_text, m_pos);
            advance_line(m_pos);
        }
        if (m_pos >= size) {
            return false;
        }
        record.line = m_line;
        bool bad = false;
        bool end_of_record = false;
        while (!end_of_record) {
            const CsvPlace place{m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1)};
            if (spans.size() >= m_limits.max_fields) {
                fail(place.line, place.column,
                     fmt::format("more than {} fields in one record", m_limits.max_fields));
                bad = true;
                break;
            }
            Span span;
            if (m_pos < size && data[m_pos] == '"') {
                ++m_pos;
                std::size_t segment = m_pos;
                const std::size_t scratch_start = m_scratch.size();
                bool escaped = false;
                bool closed = false;
                while (m_pos < size) {
                    const void* found = std::memchr(data + m_pos, '"', size - m_pos);
                    const std::size_t quote =
                        found == nullptr
                            ? size
                            : static_cast<std::size_t>(static_cast<const char*>(found) - data);
                    // Keep line numbers right across line breaks inside the quotes.
                    for (std::size_t i = m_pos; i < quote; ++i) {
                        if (data[i] == '\n') {
                            advance_line(i + 1);
                        }
                    }
                    if (quote == size) {
                        m_pos = size;
                        break;
                    }
                    if (quote + 1 < size && data[quote + 1] == '"') {
                        m_scratch.append(data + segment, quote + 1 - segment);
                        escaped = true;
                        m_pos = quote + 2;
                        segment = m_pos;
                        continue;
                    }
                    if (escaped) {
                        m_scratch.append(data + segment, quote - segment);
                    }
                    span = escaped ? Span{scratch_start, m_scratch.size() - scratch_start, true}
                                   : Span{segment, quote - segment, false};
                    m_pos = quote + 1;
                    closed = true;
                    break;
                }
                if (!closed) {
                    fail(place.line, place.column, "unterminated quoted field");
                    return false; // the rest of the file is inside the quotes
                }
                if (m_pos < size && data[m_pos] != ',' && !is_line_end(data[m_pos])) {
                    fail(m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1),
                         "unexpected character after a closing quote (a quote inside a field "
                         "must be doubled)");
                    bad = true;
                    break;
                }
            } else {
                const std::size_t start = m_pos;
                while (m_pos < size && data[m_pos] != ',' && !is_line_end(data[m_pos])) {
                    if (data[m_pos] == '"') {
                        fail(m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1),
                             "quote in an unquoted field (quote the whole field and double "
                             "the quote)");
                        bad = true;
                        break;
                    }
                    ++m_pos;
                }
                if (bad) {
                    break;
                }
                span = Span{start, m_pos - start, false};
            }
            if (span.length > m_limits.max_field_bytes) {
                fail(place.line, place.column,
                     fmt::format("field of {} bytes, more than the limit of {} bytes", span.length,
                                 m_limits.max_field_bytes));
                bad = true;
                break;
            }
            spans.push_back(span);
            record.places.push_back(place);
            if (m_pos >= size) {
                end_of_record = true;
            } else if (data[m_pos] == ',') {
                ++m_pos;
                if (m_pos >= size) { // a trailing comma ends the file with one more empty field
                    spans.push_back(Span{m_pos, 0, false});
                    record.places.push_back(
                        {m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1)});
                    end_of_record = true;
                }
            } else {
                m_pos += line_end_length(m_text, m_pos);
                advance_line(m_pos);
                end_of_record = true;
            }
        }
        if (bad) {
            skip_line();
            continue;
        }
        record.fields.reserve(spans.size());
        for (const Span& span : spans) {
            record.fields.push_back(
                span.in_scratch ? std::string_view(m_scratch).substr(span.offset, span.length)
                                : m_text.substr(span.offset, span.length));
        }
        return true;
    }
}

} // namespace gpuplan::feeds
