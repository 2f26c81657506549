#include "gpuplan/report/escape.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan::report;

TEST_CASE("control characters become visible escapes for terminals", "[escape]") {
    CHECK(escape_control("gpu\x1b]0;pwned\x07\x1b[2J") == "gpu\\x1b]0;pwned\\x07\\x1b[2J");
    CHECK(escape_control(std::string_view("a\0b", 3)) == "a\\x00b");
    CHECK(escape_control("del\x7f") == "del\\x7f");
    CHECK(escape_control("c1 \xc2\x9b"
                         "31m") == "c1 \\u009b31m"); // U+009B, the 8-bit CSI
    CHECK(escape_control("tab\tnew\nline") == "tab\\x09new\\x0aline");
    CHECK(escape_control("two\nlines", true) == "two\nlines");
}

TEST_CASE("text that is not a control character passes unchanged", "[escape]") {
    CHECK(escape_control("H100 ×8 — 東京 \xc2\xa0nbsp") == "H100 ×8 — 東京 \xc2\xa0nbsp");
    CHECK(escape_control("back\\slash") == "back\\slash");
    CHECK(escape_control("") == "");
}

TEST_CASE("whole outputs keep newlines and, for terminals, only colour sequences", "[escape]") {
    const std::string text = "\x1b[32mpassed\x1b[0m\n\x1b]0;title\x07\x1b[2J\n";
    CHECK(escape_output(text, true) == "\x1b[32mpassed\x1b[0m\n\\x1b]0;title\\x07\\x1b[2J\n");
    CHECK(escape_output(text, false) == "\\x1b[32mpassed\\x1b[0m\n\\x1b]0;title\\x07\\x1b[2J\n");
    CHECK(escape_output("\x1b[", true) == "\\x1b[");
    // A name's own SGR sequence (conceal, bold, 256 colours) is not one gpuplan writes.
    CHECK(escape_output("ok \x1b[8mhidden\x1b[1;38;5;1m", true) ==
          "ok \\x1b[8mhidden\\x1b[1;38;5;1m");
}

TEST_CASE("markdown, Mermaid and XML escaping also escape control characters", "[escape]") {
    CHECK(escape_markdown_cell("a|b<c>&\\d\ne\r\x1b") == "a\\|b&lt;c&gt;&amp;\\\\d e\\x1b");
    CHECK(escape_mermaid("say \"hi\" <b>\n\x1b[2J") == "say 'hi' ‹b› \\x1b[2J");
    CHECK(escape_xml("<a href=\"x\">'&'</a>\x07") ==
          "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;\\x07");
}
