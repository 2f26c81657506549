#pragma once
// A fast RFC 4180 CSV reader over text already in memory: quoted fields with doubled quotes,
// CRLF or LF line ends, a UTF-8 byte-order mark, empty cells, size limits, and 1-based
// line:column places for every field so that readers can report `FILE:LINE:COL: error: ...`.

#include "gpuplan/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::feeds {

// Limits that keep a hostile or broken file from exhausting memory.
struct CsvLimits {
    std::size_t max_bytes = 1024UL * 1024UL * 1024UL; // whole file
    std::size_t max_fields = 1024;                    // per record
    std::size_t max_field_bytes = 1024UL * 1024UL;    // per field, after unquoting
};

// Where a field starts in the file (1-based; the column counts bytes).
struct CsvPlace {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

// One record: its fields (views valid until the next call to CsvReader::next) and their places.
struct CsvRecord {
    std::vector<std::string_view> fields;
    std::vector<CsvPlace> places;
    std::uint32_t line = 0; // line of the record's first byte
};

// Reads records one by one. Empty lines are skipped. Problems (an unterminated quote, text
// after a closing quote, a limit exceeded) go to the sink with their place; the reader then
// skips to the next line and carries on, so every problem in a file is reported at once.
class CsvReader {
public:
    CsvReader(std::string_view text, std::string file, DiagnosticSink& sink, CsvLimits limits = {});

    // Reads the next record into `record`; false at the end of the text.
    bool next(CsvRecord& record);

    // A diagnostic at `place` with `path` (usually the column name) and `message`.
    [[nodiscard]] Diagnostic diagnostic(CsvPlace place, std::string path,
                                        std::string message) const;
    [[nodiscard]] const std::string& file() const { return m_file; }

private:
    // A field unquoted into the scratch buffer (it had doubled quotes). The buffer may grow and
    // move while a record is read, so the field's view is made once the record is complete.
    struct Escaped {
        std::size_t field = 0;
        std::size_t offset = 0;
        std::size_t length = 0;
    };

    // The first byte at or after `pos` that ends an unquoted field (a separator, a line end or a
    // quote), or the text's size.
    std::size_t find_stop(std::size_t pos);
    // Marks the stops of the k_block_bytes bytes from `block` in m_block_stops.
    void load_block(std::size_t block);
    // Reads the quoted field starting at m_pos, field number `index` of the record. A view with
    // no data (not even an empty one) when the quote never ends, which is reported.
    std::string_view read_quoted(CsvPlace place, std::size_t index);
    // What follows a field: another field of the record, the record's end, a bad record (reported,
    // its line to be skipped) or the end of what can be read (an unterminated quote).
    enum class FieldEnd { more, record, bad, lost };
    // Reads the field at m_pos into `record`.
    FieldEnd read_field(CsvRecord& record);
    // Steps over the separator or line end after a field.
    FieldEnd end_field(CsvRecord& record);
    void fail(std::uint32_t line, std::uint32_t column, std::string message);
    void skip_line();
    void advance_line(std::size_t line_start_after);

    std::string_view m_text;
    std::string m_file;
    DiagnosticSink* m_sink;
    CsvLimits m_limits;
    std::size_t m_pos = 0;
    std::uint32_t m_line = 1;
    std::size_t m_line_start = 0; // offset of the current line's first byte
    // The 64-byte block of the text last looked at by find_stop, and a bit for each of its bytes
    // that ends an unquoted field: fields are found without a branch per byte.
    static constexpr std::size_t k_block_bytes = 64;
    std::size_t m_block = static_cast<std::size_t>(-1);
    std::uint64_t m_block_stops = 0;
    std::string m_scratch; // unquoted fields that contained doubled quotes
    std::vector<Escaped> m_escaped;
};

} // namespace gpuplan::feeds
