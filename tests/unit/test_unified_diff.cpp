// The unified diff the golden runner prints on a mismatch: the same hunks as GNU `diff -u`.

#include "../support/unified_diff.hpp"

#include <catch2/catch.hpp>

using gpuplan::test::unified_diff;

namespace {

std::string body(const std::string& expected, const std::string& received) {
    return unified_diff(expected, received, "e", "r");
}

} // namespace

TEST_CASE("equal texts have an empty diff", "[diff]") {
    CHECK(body("", "").empty());
    CHECK(body("a\nb\n", "a\nb\n").empty());
}

TEST_CASE("a diff names both files and shows three lines of context", "[diff]") {
    CHECK(body("a\nb\nc\nd\ne\nf\n", "a\nb\nc\nD\ne\nf\n") ==
          "--- e\n+++ r\n@@ -1,6 +1,6 @@\n a\n b\n c\n-d\n+D\n e\n f\n");
}

TEST_CASE("changes more than six lines apart get their own hunks", "[diff]") {
    CHECK(body("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n",
               "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nN\n") ==
          "--- e\n+++ r\n"
          "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n"
          "@@ -11,4 +11,4 @@\n k\n l\n m\n-n\n+N\n");
}

TEST_CASE("changes six lines apart share one hunk", "[diff]") {
    CHECK(body("a\nb\nc\nd\ne\nf\ng\nh\ni\n", "a\nX\nc\nd\ne\nf\ng\nh\nY\n") ==
          "--- e\n+++ r\n@@ -1,9 +1,9 @@\n a\n-b\n+X\n c\n d\n e\n f\n g\n h\n-i\n+Y\n");
}

TEST_CASE("a missing final newline is marked", "[diff]") {
    CHECK(body("one\ntwo", "one\ntwo\n") ==
          "--- e\n+++ r\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+two\n");
}

TEST_CASE("an empty side is numbered from the line before it", "[diff]") {
    CHECK(body("", "x\n") == "--- e\n+++ r\n@@ -0,0 +1 @@\n+x\n");
    CHECK(body("0\n", "2\n") == "--- e\n+++ r\n@@ -1 +1 @@\n-0\n+2\n");
}

TEST_CASE("inserted and deleted lines keep the common lines between them", "[diff]") {
    CHECK(body("a\nb\nc\n", "a\nc\nd\n") == "--- e\n+++ r\n@@ -1,3 +1,3 @@\n a\n-b\n c\n+d\n");
}
