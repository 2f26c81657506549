#include "detail/strings.hpp"

#include <catch2/catch.hpp>
#include <string_view>

using gpuplan::detail::find_invalid_utf8;
using gpuplan::detail::utf8_sequence_length;

TEST_CASE("UTF-8 sequence lengths follow RFC 3629's table of well-formed bytes", "[utf8]") {
    using namespace std::string_view_literals;
    CHECK(utf8_sequence_length("a"sv, 0) == 1);
    CHECK(utf8_sequence_length("\xC3\xA9"sv, 0) == 2);         // é
    CHECK(utf8_sequence_length("\xE4\xB8\xAD"sv, 0) == 3);     // 中
    CHECK(utf8_sequence_length("\xF0\x9F\x98\x80"sv, 0) == 4); // U+1F600
    CHECK(utf8_sequence_length("\xF4\x8F\xBF\xBF"sv, 0) == 4); // U+10FFFF, the last code point
    CHECK(utf8_sequence_length("\xED\x9F\xBF"sv, 0) == 3);     // U+D7FF, just below surrogates
}

TEST_CASE("ill-formed UTF-8 sequences have length 0", "[utf8]") {
    using namespace std::string_view_literals;
    CHECK(utf8_sequence_length("\x80"sv, 0) == 0);             // a lone continuation byte
    CHECK(utf8_sequence_length("\xC0\xAF"sv, 0) == 0);         // overlong '/'
    CHECK(utf8_sequence_length("\xC1\xBF"sv, 0) == 0);         // overlong
    CHECK(utf8_sequence_length("\xE0\x9F\xBF"sv, 0) == 0);     // overlong 3-byte form
    CHECK(utf8_sequence_length("\xED\xA0\x80"sv, 0) == 0);     // U+D800, a surrogate
    CHECK(utf8_sequence_length("\xF0\x8F\xBF\xBF"sv, 0) == 0); // overlong 4-byte form
    CHECK(utf8_sequence_length("\xF4\x90\x80\x80"sv, 0) == 0); // above U+10FFFF
    CHECK(utf8_sequence_length("\xF5\x80\x80\x80"sv, 0) == 0); // no sequence starts with F5
    CHECK(utf8_sequence_length("\xE4\xB8"sv, 0) == 0);         // cut short by the text's end
    CHECK(utf8_sequence_length("\xE4\xB8x"sv, 0) == 0);        // a third byte that is ASCII
    CHECK(utf8_sequence_length("\xF0\x9F\x98x"sv, 0) == 0);    // a fourth byte that is ASCII
}

TEST_CASE("find_invalid_utf8 names the line and column of the first bad byte", "[utf8]") {
    using namespace std::string_view_literals;
    CHECK_FALSE(find_invalid_utf8("a\n\xE4\xB8\xAD\n"sv).has_value());
    const auto bad = find_invalid_utf8("ab\nc\xED\xA0\x80"sv);
    REQUIRE(bad.has_value());
    CHECK(bad->line == 2);
    CHECK(bad->column == 2);
    CHECK(bad->byte == 0xED);
}
