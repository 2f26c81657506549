#include "feeds/csv.hpp"

#include "detail/strings.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace gpuplan::feeds {

namespace {

constexpr std::string_view k_utf8_bom = "\xEF\xBB\xBF";

bool is_line_end(char c) {
    return c == '\n' || c == '\r';
}

// The bytes that end an unquoted field's text: a separator, a line end, or a stray quote.
constexpr std::array<bool, 256> k_stops = [] {
    std::array<bool, 256> stops{};
    for (const char c : {',', '\n', '\r', '"'}) {
        stops.at(static_cast<unsigned char>(c)) = true;
    }
    return stops;
}();

// Bytes of the line end at `pos`: 2 for CRLF, else 1.
std::size_t line_end_length(std::string_view text, std::size_t pos) {
    return text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n' ? 2U : 1U;
}

// One bit per byte of `block` (64 bytes, or fewer at the end of the text): set where the byte
// ends an unquoted field.
std::uint64_t stop_bits(std::string_view block) {
    std::uint64_t bits = 0;
    std::size_t i = 0;
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i carriage_return = _mm_set1_epi8('\r');
    const __m128i quote = _mm_set1_epi8('"');
    constexpr std::size_t k_lane = sizeof(__m128i);
    for (; i + k_lane <= block.size(); i += k_lane) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block.data() + i));
        const __m128i stops = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(bytes, comma), _mm_cmpeq_epi8(bytes, newline)),
            _mm_or_si128(_mm_cmpeq_epi8(bytes, carriage_return), _mm_cmpeq_epi8(bytes, quote)));
        bits |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(stops)))
                << i;
    }
#endif
    for (; i < block.size(); ++i) {
        bits |= static_cast<std::uint64_t>(k_stops[static_cast<unsigned char>(block[i])]) << i;
    }
    return bits;
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
    // A NUL would cut names short in C strings and terminals; as in YAML, it is refused.
    if (const std::size_t nul = m_text.find('\0'); nul != std::string_view::npos) {
        const std::string_view before = m_text.substr(0, nul);
        const std::size_t line_start = before.rfind('\n');
        const auto line = static_cast<std::uint32_t>(
            1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')));
        const auto column = static_cast<std::uint32_t>(
            line_start == std::string_view::npos ? nul + 1 : nul - line_start);
        fail(line, column, "NUL byte; gpuplan reads UTF-8 text");
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

void CsvReader::load_block(std::size_t block) {
    m_block = block;
    m_block_stops = stop_bits(m_text.substr(block, k_block_bytes));
}

inline std::size_t CsvReader::find_stop(std::size_t pos) {
    const std::size_t size = m_text.size();
    while (pos < size) {
        const std::size_t block = pos & ~(k_block_bytes - 1);
        if (block != m_block) {
            load_block(block);
        }
        const std::uint64_t ahead = m_block_stops >> (pos - block);
        if (ahead != 0) {
            return pos + static_cast<std::size_t>(std::countr_zero(ahead));
        }
        pos = block + k_block_bytes;
    }
    return size;
}

bool CsvReader::next(CsvRecord& record) {
    const std::size_t size = m_text.size();
    for (;;) {
        record.fields.clear();
        record.places.clear();
        m_scratch.clear();
        m_escaped.clear();
        // Empty lines separate nothing in a feed; skip them.
        while (m_pos < size && is_line_end(m_text[m_pos])) {
            m_pos += line_end_length(m_text, m_pos);
            advance_line(m_pos);
        }
        if (m_pos >= size) {
            return false;
        }
        record.line = m_line;
        FieldEnd end = FieldEnd::more;
        while (end == FieldEnd::more) {
            end = read_field(record);
        }
        if (end == FieldEnd::lost) {
            return false; // the rest of the file is inside the quotes
        }
        if (end == FieldEnd::bad) {
            skip_line();
            continue;
        }
        // The scratch buffer may have moved while it grew: view the unquoted fields only now.
        for (const Escaped& escaped : m_escaped) {
            record.fields[escaped.field] =
                std::string_view(m_scratch).substr(escaped.offset, escaped.length);
        }
        return true;
    }
}

inline CsvReader::FieldEnd CsvReader::read_field(CsvRecord& record) {
    const std::size_t size = m_text.size();
    const char* data = m_text.data();
    const CsvPlace place{m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1)};
    if (record.fields.size() >= m_limits.max_fields) {
        fail(place.line, place.column,
             fmt::format("more than {} fields in one record", m_limits.max_fields));
        return FieldEnd::bad;
    }
    std::string_view field;
    if (m_pos < size && data[m_pos] == '"') {
        field = read_quoted(place, record.fields.size());
        if (field.data() == nullptr) {
            return FieldEnd::lost;
        }
        if (m_pos < size && data[m_pos] != ',' && !is_line_end(data[m_pos])) {
            fail(m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1),
                 "unexpected character after a closing quote (a quote inside a field must be "
                 "doubled)");
            return FieldEnd::bad;
        }
    } else {
        const std::size_t start = m_pos;
        m_pos = find_stop(start);
        if (m_pos < size && data[m_pos] == '"') {
            fail(m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1),
                 "quote in an unquoted field (quote the whole field and double the quote)");
            return FieldEnd::bad;
        }
        field = std::string_view(data + start, m_pos - start);
    }
    if (field.size() > m_limits.max_field_bytes) {
        fail(place.line, place.column,
             fmt::format("field of {} bytes, more than the limit of {} bytes", field.size(),
                         m_limits.max_field_bytes));
        return FieldEnd::bad;
    }
    record.fields.push_back(field);
    record.places.push_back(place);
    return end_field(record);
}

inline CsvReader::FieldEnd CsvReader::end_field(CsvRecord& record) {
    const std::size_t size = m_text.size();
    if (m_pos >= size) {
        return FieldEnd::record;
    }
    if (m_text[m_pos] == ',') {
        ++m_pos;
        if (m_pos >= size) { // a trailing comma ends the file with one more empty field
            record.fields.push_back(m_text.substr(m_pos, 0));
            record.places.push_back({m_line, static_cast<std::uint32_t>(m_pos - m_line_start + 1)});
            return FieldEnd::record;
        }
        return FieldEnd::more;
    }
    m_pos += line_end_length(m_text, m_pos);
    advance_line(m_pos);
    return FieldEnd::record;
}

std::string_view CsvReader::read_quoted(CsvPlace place, std::size_t index) {
    const std::size_t size = m_text.size();
    const char* data = m_text.data();
    ++m_pos;
    std::size_t segment = m_pos;
    const std::size_t scratch_start = m_scratch.size();
    bool escaped = false;
    while (m_pos < size) {
        const void* found = std::memchr(data + m_pos, '"', size - m_pos);
        const std::size_t quote =
            found == nullptr ? size
                             : static_cast<std::size_t>(static_cast<const char*>(found) - data);
        // Keep line numbers right across line breaks inside the quotes.
        for (const void* newline = std::memchr(data + m_pos, '\n', quote - m_pos);
             newline != nullptr;) {
            const std::size_t next =
                static_cast<std::size_t>(static_cast<const char*>(newline) - data) + 1;
            advance_line(next);
            newline = std::memchr(data + next, '\n', quote - next);
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
            m_escaped.push_back({index, scratch_start, m_scratch.size() - scratch_start});
        }
        m_pos = quote + 1;
        return escaped ? std::string_view(m_scratch).substr(scratch_start)
                       : std::string_view(data + segment, quote - segment);
    }
    fail(place.line, place.column, "unterminated quoted field");
    return {};
}

} // namespace gpuplan::feeds
