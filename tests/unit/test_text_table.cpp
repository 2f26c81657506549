// Text tables: fitting a terminal width with ellipses, UTF-8 widths, markdown escaping.

#include "gpuplan/report/text_table.hpp"

#include <catch2/catch.hpp>
#include <sstream>

using namespace gpuplan::report;

namespace {

TextTable id_table() {
    TextTable table;
    table.add_column("#", Align::right);
    table.add_column("option", Align::left, 12, Cut::middle);
    table.add_column("NPV", Align::right);
    table.add_row({"1", "lambda/asia-northeast-1/gpu_1x_h100_pcie/reserved_3y", "215,713.49"});
    table.add_row({"2", "aws/us-east-1/p5.48xlarge/spot", "9.00"});
    return table;
}

} // namespace

TEST_CASE("truncate_display keeps both ends around an ellipsis when cutting in the middle",
          "[text_table]") {
    CHECK(truncate_display("abcdefghij", 10) == "abcdefghij");
    CHECK(truncate_display("abcdefghij", 6) == "abcde…");
    CHECK(truncate_display("abcdefghij", 6, Cut::middle) == "abc…ij");
    CHECK(truncate_display("aws/us-east-1/p5.48xlarge/spot", 15, Cut::middle) == "aws/us-…ge/spot");
    CHECK(display_width(truncate_display("日本語のテキスト", 7)) <= 7);
    CHECK(truncate_display("abc", 0).empty());
}

TEST_CASE("a table fits the requested width by cutting its shrinkable column", "[text_table]") {
    const TextTable table = id_table();
    const std::string wide = table.render_text();
    CHECK(widest_line(wide) == 1 + 2 + 52 + 2 + 10);
    const std::string narrow = table.render_text(40);
    CHECK(widest_line(narrow) == 40);
    // 40 = 1 + 2 + 25 + 2 + 10: the id column keeps 25 columns, 12 from each end.
    CHECK(narrow == "#  option                            NPV\n"
                    "-  -------------------------  ----------\n"
                    "1  lambda/asia-…/reserved_3y  215,713.49\n"
                    "2  aws/us-east-…8xlarge/spot        9.00\n");
}

TEST_CASE("a table stops shrinking at the minimum widths rather than dropping data",
          "[text_table]") {
    // Past the minimum widths the columns close up to one space, still aligned.
    const std::string text = id_table().render_text(10);
    CHECK(widest_line(text) == 1 + 1 + 12 + 1 + 10);
    CHECK(id_table().render_text(0).find("  ") != std::string::npos);
    CHECK(text.find("215,713.49") != std::string::npos);
}

TEST_CASE("markdown tables escape pipes and HTML and right-align numeric columns", "[text_table]") {
    TextTable table;
    table.add_column("name");
    table.add_column("cost", Align::right);
    table.add_row({"a|b <i>x</i> & y", "1.00"});
    CHECK(table.render_markdown() == "| name | cost |\n| --- | ---: |\n"
                                     "| a\\|b &lt;i&gt;x&lt;/i&gt; &amp; y | 1.00 |\n");
}

TEST_CASE("display widths count code points, and East Asian wide characters twice",
          "[text_table]") {
    CHECK(display_width("") == 0);
    CHECK(display_width("H100") == 4);
    CHECK(display_width("caf\xC3\xA9") == 4);              // é is two bytes, one column
    CHECK(display_width("\xE6\x97\xA5\xE6\x9C\xAC") == 4); // 日本
    CHECK(display_width("\xED\x95\x9C") == 2);             // 한 (Hangul syllable)
    CHECK(display_width("\xE2\x80\xA6") == 1);             // the ellipsis
}

TEST_CASE("text tables pad by display width, right-align numbers and trim line ends",
          "[text_table]") {
    TextTable table;
    table.add_column("name");
    table.add_column("cost", Align::right);
    table.add_column("note");
    table.add_row({"\xE6\x97\xA5\xE6\x9C\xAC", "1.00", ""}); // 日本: four columns
    table.add_row({"tokyo", "12,345.00", "spot"});
    CHECK(table.render_text() == "name        cost  note\n"
                                 "-----  ---------  ----\n"
                                 "\xE6\x97\xA5\xE6\x9C\xAC        1.00\n"
                                 "tokyo  12,345.00  spot\n");
    CHECK_THROWS(table.add_row({"too", "few"}));
}

TEST_CASE("markdown cells escape backslashes and fold line breaks", "[text_table]") {
    CHECK(escape_markdown_cell("a\\b") == "a\\\\b");
    CHECK(escape_markdown_cell("two\r\nlines\n") == "two lines ");
    CHECK(escape_markdown_cell("plain") == "plain");
}

TEST_CASE("a spilled last column keeps its cells whole: too wide, on a line of their own",
          "[text_table]") {
    TextTable table;
    table.add_column("#", Align::right);
    table.add_column("note", Align::left, 3);
    table.add_column("id", Align::left, 0, Cut::spill);
    table.add_row({"1", "spot", "aws/us-east-1/p5.48xlarge/spot"});
    table.add_row({"2", "list", "nebius/eu-north1/gpu-h100-sxm_8gpu-128vcpu-1600gb/on_demand"});
    CHECK(table.render_text(40) ==
          "#  note  id\n"
          "-  ----  -------------------------------\n"
          "1  spot  aws/us-east-1/p5.48xlarge/spot\n"
          "2  list\n"
          "    nebius/eu-north1/gpu-h100-sxm_8gpu-128vcpu-1600gb/on_demand\n");
    // The other columns are not narrowed for it, and without a width nothing spills.
    CHECK(table.render_text(0).find("2  list  nebius/") != std::string::npos);
}

TEST_CASE("widest_line measures the widest line in terminal columns", "[text_table]") {
    CHECK(widest_line("") == 0);
    CHECK(widest_line("ab\nabcd\nabc") == 4);
    CHECK(widest_line("ab\n\xe4\xb8\xad\xe6\x96\x87\n") == 4); // two CJK characters, 2 each
}
