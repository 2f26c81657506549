#include "detail/yaml_reader.hpp"

#include "detail/strings.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <set>
#include <sstream>
#include <yaml-cpp/eventhandler.h>

namespace gpuplan::detail {

namespace {

std::pair<std::uint32_t, std::uint32_t> to_one_based(const YAML::Mark& mark) {
    if (mark.line < 0 || mark.column < 0) {
        return {0, 0};
    }
    return {static_cast<std::uint32_t>(mark.line) + 1, static_cast<std::uint32_t>(mark.column) + 1};
}

std::string quote_scalar(const std::string& text) {
    constexpr std::size_t k_max_shown = 40;
    std::string shown = text.size() > k_max_shown ? text.substr(0, k_max_shown) + "..." : text;
    return fmt::format("\"{}\"", shown);
}

// A problem found before parsing, with its 1-based place.
struct TextProblem {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string message;
};

// True when a quote after `before` opens a quoted scalar (`it's` is plain text).
bool can_start_scalar(char before) {
    return before == '\n' || before == ' ' || before == '\t' || before == '[' || before == '{' ||
           before == ',' || before == ':' || before == '-' || before == '?';
}

// Checks, without recursion, what yaml-cpp would otherwise choke on: invalid UTF-8, NUL bytes,
// and nesting depth, estimated from flow brackets outside quotes and comments plus the column
// where each line's content starts (block nesting cannot be deeper than that).
class StructureScan {
public:
    std::optional<TextProblem> run(std::string_view text) {
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            ++m_column;
            const std::size_t length = utf8_sequence_length(text, i);
            if (length == 0) {
                return TextProblem{
                    m_line, m_column,
                    fmt::format("invalid UTF-8 (byte 0x{:02X}); gpuplan reads UTF-8 text",
                                static_cast<unsigned char>(c))};
            }
            if (c == '\0') {
                return TextProblem{m_line, m_column, "NUL byte; gpuplan reads UTF-8 text"};
            }
            if (length > 1) {
                i += length - 1;
                m_at_line_start = false;
                continue;
            }
            if (auto problem = ascii(c, i == 0 ? '\n' : text[i - 1])) {
                return problem;
            }
        }
        return std::nullopt;
    }

private:
    [[nodiscard]] TextProblem too_deep() const {
        return TextProblem{m_line, m_column,
                           fmt::format("nesting deeper than {} levels", k_max_nesting_depth)};
    }

    // One ASCII byte `c`, after `before`.
    std::optional<TextProblem> ascii(char c, char before) {
        if (c == '\n') {
            m_at_line_start = true;
            m_line_start_column = 0;
            m_comment = false;
            ++m_line;
            m_column = 0;
            if (m_flow_depth == 0) {
                m_quote = 0;
            }
            return std::nullopt;
        }
        if (m_comment) {
            return std::nullopt;
        }
        if (m_at_line_start) {
            if (c == ' ' || c == '-' || c == '\t') {
                ++m_line_start_column;
                return m_line_start_column > 4 * k_max_nesting_depth
                           ? std::optional<TextProblem>(too_deep())
                           : std::nullopt;
            }
            m_at_line_start = false;
        }
        if (m_quote != 0) {
            if (c == m_quote) {
                m_quote = 0;
            }
            return std::nullopt;
        }
        return content(c, before);
    }

    // A byte of content outside quotes and comments.
    std::optional<TextProblem> content(char c, char before) {
        if ((c == '"' || c == '\'') && can_start_scalar(before)) {
            m_quote = c;
        } else if (c == '#') {
            m_comment = true;
        } else if (c == '[' || c == '{') {
            if (++m_flow_depth > k_max_nesting_depth) {
                return too_deep();
            }
        } else if ((c == ']' || c == '}') && m_flow_depth > 0) {
            --m_flow_depth;
        }
        return std::nullopt;
    }

    std::size_t m_flow_depth = 0;
    std::size_t m_line_start_column = 0;
    bool m_at_line_start = true;
    char m_quote = 0;
    bool m_comment = false;
    std::uint32_t m_line = 1;
    std::uint32_t m_column = 0;
};

std::optional<TextProblem> check_structure(std::string_view text) {
    return StructureScan().run(text);
}

// Records where each document of a stream starts; ignores everything else.
class DocumentStarts : public YAML::EventHandler {
public:
    std::vector<YAML::Mark> marks;

    void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& /*mark*/, YAML::anchor_t /*anchor*/) override {}
    void OnAlias(const YAML::Mark& /*mark*/, YAML::anchor_t /*anchor*/) override {}
    void OnScalar(const YAML::Mark& /*mark*/, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                  const std::string& /*value*/) override {}
    void OnSequenceStart(const YAML::Mark& /*mark*/, const std::string& /*tag*/,
                         YAML::anchor_t /*anchor*/, YAML::EmitterStyle::value /*style*/) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& /*mark*/, const std::string& /*tag*/,
                    YAML::anchor_t /*anchor*/, YAML::EmitterStyle::value /*style*/) override {}
    void OnMapEnd() override {}
};

bool is_null_scalar(const std::string& text) {
    return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

} // namespace

YamlNode::YamlNode(const YAML::Node& node, std::string path, YamlContext& context)
    : m_node(node), m_path(std::move(path)), m_context(&context) {
    if (++m_context->visited > m_context->max_visited && !m_context->budget_exhausted) {
        error(fmt::format("document too large: more than {} nodes visited after expanding "
                          "aliases (the limit for this file's size)",
                          m_context->max_visited));
        m_context->budget_exhausted = true;
    }
}

std::pair<std::uint32_t, std::uint32_t> YamlNode::mark() const {
    if (m_node.IsDefined()) {
        auto mark = to_one_based(m_node.Mark());
        if (mark.first > 0) {
            return mark;
        }
    }
    return m_fallback_mark;
}

Diagnostic YamlNode::diagnostic(std::string message) const {
    auto [line, column] = mark();
    return Diagnostic{m_context->file, line, column, m_path.empty() ? "/" : m_path,
                      std::move(message)};
}

void YamlNode::error(std::string message) const {
    // After the visit budget ran out, the walk sees truncated lists: what it would say is noise.
    if (m_context->sink != nullptr && !m_context->budget_exhausted) {
        m_context->sink->add(diagnostic(std::move(message)));
    }
}

std::string YamlNode::describe() const {
    if (!m_node.IsDefined() || m_node.IsNull()) {
        return "nothing";
    }
    if (m_node.IsMap()) {
        return "a mapping";
    }
    if (m_node.IsSequence()) {
        return "a list";
    }
    return quote_scalar(m_node.Scalar());
}

bool YamlNode::is_plain_scalar() const {
    return m_node.IsScalar() && m_node.Tag() != "!";
}

std::string YamlNode::child_path(std::string_view key) const {
    std::string escaped;
    for (char c : key) {
        if (c == '~') {
            escaped += "~0";
        } else if (c == '/') {
            escaped += "~1";
        } else {
            escaped += c;
        }
    }
    return m_path + "/" + escaped;
}

bool YamlNode::expect_map(std::initializer_list<std::string_view> allowed) const {
    return expect_map(std::vector<std::string_view>(allowed));
}

bool YamlNode::expect_map(const std::vector<std::string_view>& allowed) const {
    if (!m_node.IsMap()) {
        error(fmt::format("expected a mapping, got {}", describe()));
        return false;
    }
    std::set<std::string, std::less<>> seen;
    for (const auto& entry : m_node) {
        YamlNode key(entry.first, m_path, *m_context);
        key.m_fallback_mark = mark();
        if (!entry.first.IsScalar()) {
            key.error("expected a plain key, got a mapping or list as a key");
            continue;
        }
        const std::string& name = entry.first.Scalar();
        YamlNode located(entry.first, child_path(name), *m_context);
        if (!seen.insert(name).second) {
            located.error(fmt::format("duplicate key '{}'", name));
            continue;
        }
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
            if (m_context->sink == nullptr || m_context->sink->full()) {
                located.error("unknown key"); // only counted: no hint to look for
                continue;
            }
            std::string hint = closest_match(name, allowed);
            located.error(hint.empty()
                              ? fmt::format("unknown key '{}'", name)
                              : fmt::format("unknown key '{}'; did you mean '{}'?", name, hint));
        }
    }
    return true;
}

bool YamlNode::expect_sequence() const {
    if (!m_node.IsSequence()) {
        error(fmt::format("expected a list, got {}", describe()));
        return false;
    }
    return true;
}

std::optional<YamlNode> YamlNode::get(std::string_view key) const {
    if (!m_node.IsMap()) {
        return std::nullopt;
    }
    // Find the first matching key ourselves: operator[] on a const node is fine, but an explicit
    // scan keeps duplicate keys (reported by expect_map) from being looked up ambiguously.
    for (const auto& entry : m_node) {
        if (entry.first.IsScalar() && entry.first.Scalar() == key) {
            if (!entry.second.IsDefined() || entry.second.IsNull()) {
                return std::nullopt;
            }
            YamlNode child(entry.second, child_path(key), *m_context);
            child.m_fallback_mark = to_one_based(entry.first.Mark());
            return child;
        }
    }
    return std::nullopt;
}

std::optional<YamlNode> YamlNode::require(std::string_view key) const {
    auto child = get(key);
    if (!child && m_node.IsMap()) {
        error(fmt::format("missing required key '{}'", key));
    }
    return child;
}

std::vector<YamlNode> YamlNode::items() const {
    std::vector<YamlNode> out;
    if (!expect_sequence()) {
        return out;
    }
    out.reserve(m_node.size());
    std::size_t index = 0;
    for (const auto& element : m_node) {
        if (m_context->budget_exhausted) {
            break;
        }
        YamlNode child(element, fmt::format("{}/{}", m_path, index++), *m_context);
        child.m_fallback_mark = mark();
        out.push_back(std::move(child));
    }
    return out;
}

std::vector<std::pair<std::string, YamlNode>> YamlNode::entries() const {
    std::vector<std::pair<std::string, YamlNode>> out;
    if (!m_node.IsMap()) {
        error(fmt::format("expected a mapping, got {}", describe()));
        return out;
    }
    for (const auto& entry : m_node) {
        if (m_context->budget_exhausted || !entry.first.IsScalar()) {
            continue;
        }
        const std::string& name = entry.first.Scalar();
        YamlNode child(entry.second, child_path(name), *m_context);
        child.m_fallback_mark = to_one_based(entry.first.Mark());
        out.emplace_back(name, std::move(child));
    }
    return out;
}

std::optional<std::string> YamlNode::as_string() const {
    if (!m_node.IsScalar() || (is_plain_scalar() && is_null_scalar(m_node.Scalar()))) {
        error(fmt::format("expected a string, got {}", describe()));
        return std::nullopt;
    }
    return m_node.Scalar();
}

std::optional<double> YamlNode::as_number(const NumberRange& range) const {
    std::optional<double> value;
    if (is_plain_scalar()) {
        value = parse_number(m_node.Scalar());
    }
    if (!value) {
        error(fmt::format("expected {}, got {}", range.description, describe()));
        return std::nullopt;
    }
    if (!within(range, *value)) {
        return std::nullopt;
    }
    return value;
}

bool YamlNode::within(const NumberRange& range, double value) const {
    constexpr std::size_t k_max_shown = 40;
    const std::string shown = m_node.Scalar().size() <= k_max_shown ? m_node.Scalar() : describe();
    const bool below = range.min_exclusive ? value <= range.min : value < range.min;
    if (below) {
        error(fmt::format("expected {}, got {}", range.description, shown));
        return false;
    }
    if (value > range.max) {
        error(fmt::format("expected {}, got {} (the largest allowed is {:g})", range.description,
                          shown, range.max));
        return false;
    }
    return true;
}

std::optional<double> YamlNode::as_si_number(const NumberRange& range) const {
    std::optional<double> value;
    if (m_node.IsScalar()) {
        value = parse_si_number(m_node.Scalar());
    }
    if (!value) {
        error(fmt::format("expected {} (an SI suffix such as 7B or 2T is allowed), got {}",
                          range.description, describe()));
        return std::nullopt;
    }
    if (!within(range, *value)) {
        return std::nullopt;
    }
    return value;
}

std::optional<std::int64_t> YamlNode::as_integer(std::int64_t min, std::int64_t max) const {
    std::int64_t value = 0;
    bool ok = false;
    if (is_plain_scalar()) {
        const std::string& text = m_node.Scalar();
        const auto* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, value);
        ok = ec == std::errc{} && ptr == end && !text.empty();
    }
    if (!ok || value < min || value > max) {
        error(fmt::format("expected a whole number from {} to {}, got {}", min, max, describe()));
        return std::nullopt;
    }
    return value;
}

std::optional<bool> YamlNode::as_bool() const {
    if (is_plain_scalar()) {
        const std::string& text = m_node.Scalar();
        if (text == "true" || text == "True" || text == "TRUE") {
            return true;
        }
        if (text == "false" || text == "False" || text == "FALSE") {
            return false;
        }
    }
    error(fmt::format("expected true or false, got {}", describe()));
    return std::nullopt;
}

std::optional<Date> YamlNode::as_date() const {
    std::optional<Date> value;
    if (m_node.IsScalar()) {
        value = parse_date(m_node.Scalar());
    }
    if (!value) {
        error(fmt::format("expected a date YYYY-MM-DD, got {}", describe()));
    }
    return value;
}

std::optional<double> YamlNode::as_duration_hours() const {
    std::optional<double> value;
    if (m_node.IsScalar()) {
        value = parse_duration_hours(m_node.Scalar());
    }
    if (!value || *value < 0.0) {
        error(
            fmt::format("expected a duration such as 12h, 30d, 6w, 3mo or 1y, got {}", describe()));
        return std::nullopt;
    }
    return value;
}

std::optional<Money> YamlNode::as_money(std::string_view default_currency) const {
    std::optional<Money> value;
    if (m_node.IsScalar()) {
        value = parse_money(m_node.Scalar(), default_currency);
    }
    if (!value || value->amount < 0.0) {
        error(fmt::format("expected an amount with a currency code such as 250000 USD, got {}",
                          describe()));
        return std::nullopt;
    }
    return value;
}

std::optional<std::size_t>
YamlNode::as_choice(std::initializer_list<std::string_view> choices) const {
    return as_choice(std::vector<std::string_view>(choices));
}

std::optional<std::size_t> YamlNode::as_choice(const std::vector<std::string_view>& choices) const {
    if (m_node.IsScalar()) {
        const std::string& text = m_node.Scalar();
        auto it = std::find(choices.begin(), choices.end(), text);
        if (it != choices.end()) {
            return static_cast<std::size_t>(it - choices.begin());
        }
        std::string hint = closest_match(text, choices);
        if (!hint.empty()) {
            error(fmt::format("expected one of {}, got {}; did you mean '{}'?",
                              join_choices(choices), describe(), hint));
            return std::nullopt;
        }
    }
    error(fmt::format("expected one of {}, got {}", join_choices(choices), describe()));
    return std::nullopt;
}

std::optional<std::vector<std::string>> YamlNode::as_string_list() const {
    if (m_node.IsScalar()) {
        auto single = as_string();
        if (!single) {
            return std::nullopt;
        }
        return std::vector<std::string>{*single};
    }
    if (!m_node.IsSequence()) {
        error(fmt::format("expected a string or a list of strings, got {}", describe()));
        return std::nullopt;
    }
    std::vector<std::string> out;
    bool ok = true;
    for (const YamlNode& item : items()) {
        auto text = item.as_string();
        if (text) {
            out.push_back(*text);
        } else {
            ok = false;
        }
    }
    if (!ok) {
        return std::nullopt;
    }
    return out;
}

std::optional<std::string> YamlNode::string_at(std::string_view key, bool required) const {
    auto child = required ? require(key) : get(key);
    if (!child) {
        return std::nullopt;
    }
    return child->as_string();
}

std::optional<double> YamlNode::number_at(std::string_view key, bool required,
                                          const NumberRange& range) const {
    auto child = required ? require(key) : get(key);
    if (!child) {
        return std::nullopt;
    }
    return child->as_number(range);
}

namespace {

// read_schema_version's walk; `supported` words the versions read ("1", "1 to 2").
SchemaVersion check_schema_version(const YamlNode& root, std::string_view kind, std::int64_t min,
                                   std::int64_t max, std::string_view supported) {
    constexpr std::int64_t k_max_version = 1'000'000;
    auto version = root.require("schema_version");
    if (!version) {
        return SchemaVersion::absent;
    }
    auto value = version->as_integer(0, k_max_version);
    if (!value) {
        return SchemaVersion::malformed;
    }
    if (*value < min || *value > max) {
        version->error(fmt::format("unsupported schema_version {}; this gpuplan reads {} "
                                   "schema_version {}",
                                   *value, kind, supported));
        return SchemaVersion::unsupported;
    }
    return SchemaVersion::supported;
}

} // namespace

SchemaVersion read_schema_version(const YamlNode& root, std::string_view kind, std::int64_t min,
                                  std::int64_t max) {
    return check_schema_version(root, kind, min, max, fmt::format("{} to {}", min, max));
}

SchemaVersion read_schema_version(const YamlNode& root, std::string_view kind,
                                  std::int64_t version) {
    return check_schema_version(root, kind, version, version, fmt::format("{}", version));
}

std::optional<YamlNode> parse_yaml_document(std::string_view text, YamlContext& context) {
    auto fail = [&](std::uint32_t line, std::uint32_t column, std::string message) {
        if (context.sink != nullptr) {
            context.sink->add(Diagnostic{context.file, line, column, "", std::move(message)});
        }
        return std::nullopt;
    };
    if (text.size() > context.max_bytes) {
        return fail(0, 0,
                    fmt::format("file too large: {} bytes (the limit is {} bytes)", text.size(),
                                context.max_bytes));
    }
    if (auto problem = check_structure(text)) {
        return fail(problem->line, problem->column, problem->message);
    }
    try {
        const std::string owned(text);
        // Count the documents first with an event pass that builds nothing. yaml-cpp 0.7 does not
        // consume a stray flow token at document level (`, a`, or `- 1` then `,`) and would
        // return empty documents forever, so a document that starts where the previous one did
        // is a syntax error here rather than a hang.
        std::istringstream stream(owned);
        YAML::Parser parser(stream);
        DocumentStarts starts;
        while (parser.HandleNextDocument(starts)) {
            const std::vector<YAML::Mark>& marks = starts.marks;
            if (marks.size() >= 2 && marks.back().pos == marks[marks.size() - 2].pos) {
                auto [line, column] = to_one_based(marks.back());
                const auto pos = static_cast<std::size_t>(std::max(marks.back().pos, 0));
                return fail(line, column,
                            pos < text.size()
                                ? fmt::format("invalid YAML: unexpected '{}'", text[pos])
                                : std::string("invalid YAML: unexpected end of document"));
            }
        }
        if (starts.marks.size() > 1) {
            auto [line, column] = to_one_based(starts.marks[1]);
            return fail(line, column,
                        fmt::format("expected one YAML document, found {}", starts.marks.size()));
        }
        context.max_visited = std::min<std::uint64_t>(
            k_max_visited_nodes, k_visits_base + k_visits_per_byte * text.size());
        return YamlNode(YAML::Load(owned), "", context);
    } catch (const YAML::Exception& e) {
        auto [line, column] = to_one_based(e.mark);
        return fail(line, column, fmt::format("invalid YAML: {}", e.msg));
    }
}

} // namespace gpuplan::detail
