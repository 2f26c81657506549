#include "feeds/csv.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;
using namespace gpuplan::feeds;

namespace {

struct Parsed {
    std::vector<std::vector<std::string>> records;
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> places;
    std::vector<std::string> problems;
};

Parsed parse(std::string_view text, CsvLimits limits = {}) {
    DiagnosticSink sink;
    CsvReader reader(text, "f.csv", sink, limits);
    Parsed out;
    CsvRecord record;
    while (reader.next(record)) {
        out.records.emplace_back(record.fields.begin(), record.fields.end());
        std::vector<std::pair<std::uint32_t, std::uint32_t>> places;
        for (const CsvPlace& place : record.places) {
            places.emplace_back(place.line, place.column);
        }
        out.places.push_back(std::move(places));
    }
    for (const Diagnostic& d : sink.diagnostics()) {
        out.problems.push_back(format_diagnostic(d));
    }
    return out;
}

using Records = std::vector<std::vector<std::string>>;

} // namespace

TEST_CASE("quoted fields keep commas, doubled quotes and line breaks", "[feeds][csv]") {
    const Parsed parsed = parse("a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\"\nx,y,z,w\n");
    CHECK(parsed.problems.empty());
    CHECK(parsed.records ==
          Records{{"a", "b,c", "say \"hi\"", "two\nlines"}, {"x", "y", "z", "w"}});
    // The second record starts on line 3: the quoted line break counts.
    CHECK(parsed.places[1][0] == std::make_pair(3U, 1U));
    CHECK(parsed.places[0][2] == std::make_pair(1U, 9U));
}

TEST_CASE("two escaped fields in one record stay apart", "[feeds][csv]") {
    const Parsed parsed = parse("\"a\"\"1\",\"b\"\"2\"\n");
    CHECK(parsed.records == Records{{"a\"1", "b\"2"}});
}

TEST_CASE("CRLF, LF and a missing final line end read the same", "[feeds][csv]") {
    const Records expected{{"h1", "h2"}, {"1", "2"}};
    CHECK(parse("h1,h2\r\n1,2\r\n").records == expected);
    CHECK(parse("h1,h2\n1,2\n").records == expected);
    CHECK(parse("h1,h2\n1,2").records == expected);
    CHECK(parse("h1,h2\r\n\r\n1,2\r\n").places[1][0] == std::make_pair(3U, 1U));
}

TEST_CASE("empty cells are empty fields, including trailing ones", "[feeds][csv]") {
    CHECK(parse("a,,c,\n").records == Records{{"a", "", "c", ""}});
    CHECK(parse(",,\n").records == Records{{"", "", ""}});
    CHECK(parse("a,\"\",b").records == Records{{"a", "", "b"}});
    CHECK(parse("a,b,").records == Records{{"a", "b", ""}});
}

TEST_CASE("a UTF-8 byte-order mark is skipped and columns count from after it", "[feeds][csv]") {
    const Parsed parsed = parse("\xEF\xBB\xBFInstanceType,Price\nx,1\n");
    CHECK(parsed.records.front().front() == "InstanceType");
    CHECK(parsed.places[0][1] == std::make_pair(1U, 14U));
}

TEST_CASE("malformed quoting is reported with line and column and the reader carries on",
          "[feeds][csv]") {
    const Parsed parsed = parse("a,b\n\"x\"y,2\nc,d\ne,f\"g\nh,i\n");
    CHECK(parsed.records == Records{{"a", "b"}, {"c", "d"}, {"h", "i"}});
    CHECK(parsed.problems ==
          std::vector<std::string>{
              "f.csv:2:4: error: unexpected character after a closing quote (a quote inside a "
              "field must be doubled)",
              "f.csv:4:4: error: quote in an unquoted field (quote the whole field and double "
              "the quote)"});
}

TEST_CASE("an unterminated quote is reported where the field starts", "[feeds][csv]") {
    const Parsed parsed = parse("a,b\nc,\"never closed\nmore\n");
    CHECK(parsed.records == Records{{"a", "b"}});
    CHECK(parsed.problems ==
          std::vector<std::string>{"f.csv:2:3: error: unterminated quoted field"});
}

TEST_CASE("size limits stop a hostile file without reading it", "[feeds][csv]") {
    CsvLimits limits;
    limits.max_bytes = 8;
    CHECK(
        parse("a,b,c,d,e,f\n", limits).problems ==
        std::vector<std::string>{"f.csv: error: file is 12 bytes, more than the limit of 8 bytes"});
    limits = CsvLimits{};
    limits.max_fields = 2;
    CHECK(parse("a,b,c\nd,e\n", limits).records == Records{{"d", "e"}});
    limits = CsvLimits{};
    limits.max_field_bytes = 3;
    const Parsed parsed = parse("abcd,e\nf,g\n", limits);
    CHECK(parsed.records == Records{{"f", "g"}});
    CHECK(parsed.problems ==
          std::vector<std::string>{
              "f.csv:1:1: error: field of 4 bytes, more than the limit of 3 bytes"});
}

TEST_CASE("fields of every length read the same across 64-byte blocks", "[feeds][csv]") {
    // Fields of 0 to 150 bytes, unquoted and quoted (with separators, a line break and a
    // doubled quote inside), so that field ends fall on every offset of the reader's blocks.
    std::string text;
    Records expected;
    for (std::size_t length = 0; length <= 150; ++length) {
        const std::string plain(length, 'x');
        std::string quoted(length, 'q');
        if (length >= 4) {
            quoted[1] = ',';
            quoted[2] = '\n';
            quoted[3] = '"';
        }
        std::string escaped;
        for (const char c : quoted) {
            escaped += c == '"' ? "\"\"" : std::string(1, c);
        }
        text += plain + ",\"" + escaped + "\"," + plain + (length % 2 == 0 ? "\n" : "\r\n");
        expected.push_back({plain, quoted, plain});
    }
    const Parsed parsed = parse(text);
    CHECK(parsed.problems.empty());
    CHECK(parsed.records == expected);
    // Record k starts on line 1 + k, plus one line for each earlier quoted field of 4 bytes or
    // more (they hold a line break), and its third field is one line further when its own does.
    CHECK(parsed.places[10][0] == std::make_pair(1U + 10U + 6U, 1U));
    CHECK(parsed.places[150][2].first == 1U + 150U + 146U + 1U);
}

TEST_CASE("invalid UTF-8 is reported at its line and byte column, after long ASCII runs",
          "[feeds][csv]") {
    const std::string ascii(100, 'a');
    const Parsed parsed = parse(ascii + "\n" + ascii + "\nab\xC3(\n");
    CHECK(parsed.records.empty());
    CHECK(parsed.problems ==
          std::vector<std::string>{
              "f.csv:3:3: error: invalid UTF-8 (byte 0xC3); gpuplan reads UTF-8 text"});
    CHECK(parse(ascii + "\xE2\x82\xAC," + ascii + "\n").problems.empty());
}
