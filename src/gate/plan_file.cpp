#include "gpuplan/error.hpp"
#include "gpuplan/gate/gate.hpp"
#include "gpuplan/generator.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <nlohmann/json.hpp>

namespace gpuplan::gate {

namespace {

using nlohmann::json;

// Walks a parsed plan, collecting a diagnostic for every missing or mistyped field.
class PlanWalker {
public:
    PlanWalker(std::string_view file, DiagnosticSink& sink) : m_file(file), m_sink(sink) {}

    const json* member(const json& object, const std::string& path, const char* key,
                       bool required = true) {
        const auto it = object.find(key);
        if (it == object.end() || (it->is_null() && !required)) {
            if (required) {
                fail(path + "/" + key, "missing; a plan file is the output of "
                                       "`gpuplan recommend --format json`");
            }
            return nullptr;
        }
        return &*it;
    }

    std::optional<std::string> string(const json& object, const std::string& path, const char* key,
                                      bool required = true) {
        const json* value = member(object, path, key, required);
        if (value == nullptr) {
            return std::nullopt;
        }
        if (!value->is_string()) {
            fail(path + "/" + key, "expected a string, got " + describe(*value));
            return std::nullopt;
        }
        return value->get<std::string>();
    }

    // A number within [min, max] (by default the money limit either way, so that no later sum
    // or output can overflow to infinity).
    std::optional<double> number(const json& object, const std::string& path, const char* key,
                                 bool required = true, double min = -limits::k_max_money,
                                 double max = limits::k_max_money) {
        const json* value = member(object, path, key, required);
        if (value == nullptr) {
            return std::nullopt;
        }
        if (!value->is_number()) {
            fail(path + "/" + key, "expected a number, got " + describe(*value));
            return std::nullopt;
        }
        const auto number = value->get<double>();
        if (!(number >= min && number <= max)) {
            fail(path + "/" + key,
                 fmt::format("expected a number from {:g} to {:g}, got {:g}", min, max, number));
            return std::nullopt;
        }
        return number == 0.0 ? 0.0 : number; // `-0.0` is zero
    }

    std::optional<bool> boolean(const json& object, const std::string& path, const char* key) {
        const json* value = member(object, path, key);
        if (value == nullptr) {
            return std::nullopt;
        }
        if (!value->is_boolean()) {
            fail(path + "/" + key, "expected true or false, got " + describe(*value));
            return std::nullopt;
        }
        return value->get<bool>();
    }

    const json* object(const json& parent, const std::string& path, const char* key,
                       bool required = true) {
        const json* value = member(parent, path, key, required);
        if (value != nullptr && !value->is_object()) {
            fail(path + "/" + key, "expected an object, got " + describe(*value));
            return nullptr;
        }
        return value;
    }

    const json* array(const json& parent, const std::string& path, const char* key,
                      bool required = true) {
        const json* value = member(parent, path, key, required);
        if (value != nullptr && !value->is_array()) {
            fail(path + "/" + key, "expected an array, got " + describe(*value));
            return nullptr;
        }
        return value;
    }

    std::optional<Date> date(const json& object, const std::string& path, const char* key) {
        auto text = string(object, path, key);
        if (!text) {
            return std::nullopt;
        }
        auto parsed = parse_date(*text);
        if (!parsed) {
            fail(path + "/" + key, "expected a date YYYY-MM-DD, got \"" + *text + "\"");
        }
        return parsed;
    }

    void fail(std::string path, std::string message) {
        m_sink.add({std::string(m_file), 0, 0, std::move(path), std::move(message)});
    }

private:
    static std::string describe(const json& value) {
        std::string text = value.dump();
        if (text.size() > 40) {
            text = text.substr(0, 37) + "...";
        }
        return std::string(value.type_name()) + " " + text;
    }

    std::string_view m_file;
    DiagnosticSink& m_sink;
};

// 1-based line and column of the byte at 0-based `offset`.
std::pair<std::uint32_t, std::uint32_t> place_of(std::string_view text, std::size_t offset) {
    std::uint32_t line = 1;
    std::uint32_t column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix, which repeats the place we print ourselves.
std::string parse_message(const json::parse_error& error) {
    std::string text = error.what();
    const auto colon = text.find(": ", text.find("parse error"));
    if (colon != std::string::npos) {
        text = text.substr(colon + 2);
    }
    return "not valid JSON: " + text;
}

std::optional<int> schema_major(std::string_view version) {
    const auto dot = version.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == version.size()) {
        return std::nullopt;
    }
    int major = 0;
    for (std::size_t i = 0; i < version.size(); ++i) {
        const char c = version[i];
        if (i == dot) {
            continue;
        }
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        if (i < dot) {
            major = major * 10 + (c - '0');
            if (major > 1000) {
                return std::nullopt;
            }
        }
    }
    return major;
}

// An option's rank: a whole number from 1 (0, reported, when it is not one).
int read_rank(PlanWalker& walk, const json& entry, const std::string& path) {
    // Stored as an int: a rank outside int range would be undefined to convert.
    constexpr double k_max_rank = 1e9;
    const auto rank = walk.number(entry, path, "rank");
    if (!rank) {
        return 0;
    }
    if (*rank >= 1.0 && *rank <= k_max_rank && *rank == std::floor(*rank)) {
        return static_cast<int>(*rank);
    }
    walk.fail(path + "/rank", fmt::format("expected a whole rank from 1 to 1e9, got {}", *rank));
    return 0;
}

// An option's P90 figures from its confidence block (recommend --uncertainty), when it has one.
void read_confidence(PlanWalker& walk, const json& entry, const std::string& path,
                     PlanOption& option) {
    if (!entry.contains("confidence") || entry["confidence"].is_null()) {
        return;
    }
    if (const json* confidence = walk.object(entry, path, "confidence")) {
        const std::string at = path + "/confidence";
        option.cost_p90 = walk.number(*confidence, at, "cost_p90");
        option.wall_p90_hours =
            walk.number(*confidence, at, "wall_p90_hours", true, 0.0, limits::k_max_hours);
    }
}

void read_options(PlanWalker& walk, const json& options, Plan& plan) {
    for (std::size_t i = 0; i < options.size(); ++i) {
        const std::string path = fmt::format("/options/{}", i);
        const json& entry = options[i];
        if (!entry.is_object()) {
            walk.fail(path, "expected an object");
            continue;
        }
        PlanOption option;
        option.rank = read_rank(walk, entry, path);
        option.id = walk.string(entry, path, "id").value_or("");
        option.purchase = walk.string(entry, path, "purchase").value_or("");
        option.wall_hours =
            walk.number(entry, path, "wall_hours", true, 0.0, limits::k_max_hours).value_or(0.0);
        option.meets_deadline = walk.boolean(entry, path, "meets_deadline").value_or(true);
        option.within_budget = walk.boolean(entry, path, "within_budget").value_or(true);
        if (const json* cost = walk.object(entry, path, "cost")) {
            const std::string cost_path = path + "/cost";
            option.total = walk.number(*cost, cost_path, "total").value_or(0.0);
            option.npv = walk.number(*cost, cost_path, "npv").value_or(0.0);
            option.max_monthly = walk.number(*cost, cost_path, "max_monthly", false);
        }
        if (entry.contains("prices_as_of") && !entry["prices_as_of"].is_null()) {
            option.prices_as_of = walk.date(entry, path, "prices_as_of");
        }
        read_confidence(walk, entry, path, option);
        // Schema 1.2 groups identical offers: each of the others is the same option by its id.
        std::vector<std::string> identical;
        if (const json* others = walk.array(entry, path, "identical", false)) {
            for (std::size_t k = 0; k < others->size(); ++k) {
                if ((*others)[k].is_string()) {
                    identical.push_back((*others)[k].get<std::string>());
                } else {
                    walk.fail(fmt::format("{}/identical/{}", path, k), "expected an option id");
                }
            }
        }
        for (std::string& id : identical) {
            PlanOption same = option;
            same.id = std::move(id);
            plan.options.push_back(std::move(same));
        }
        plan.options.insert(plan.options.end() - static_cast<std::ptrdiff_t>(identical.size()),
                            std::move(option));
    }
}

// The generator, catalog and currency every plan carries.
void read_header(PlanWalker& walk, const json& document, Plan& plan) {
    if (const json* generator = walk.object(document, "", "generator")) {
        plan.generator_version = walk.string(*generator, "/generator", "version").value_or("");
    }
    if (const json* catalog = walk.object(document, "", "catalog")) {
        plan.catalog_digest = walk.string(*catalog, "/catalog", "digest").value_or("");
        const auto as_of = catalog->find("as_of");
        if (as_of != catalog->end() && as_of->is_string()) {
            // Plans written before the as_of range: only the newest date is known.
            plan.prices_newest = walk.date(*catalog, "/catalog", "as_of");
        } else if (const json* range = walk.object(*catalog, "/catalog", "as_of", false)) {
            plan.prices_oldest = walk.date(*range, "/catalog/as_of", "oldest");
            plan.prices_newest = walk.date(*range, "/catalog/as_of", "newest");
        }
    }
    plan.currency = walk.string(document, "", "currency").value_or("");
}

// Money one commitment of a fleet plan commits to: a term's whole obligation (its effective
// price per GPU-hour over every hour of the term, whatever the horizon), or a build's capex.
double committed_amount(PlanWalker& walk, const json& entry, const std::string& path) {
    const double gpus =
        walk.number(entry, path, "gpu_count", true, 0.0, limits::k_max_money).value_or(0.0);
    const double months =
        walk.number(entry, path, "months", true, 0.0, limits::k_max_hours).value_or(0.0);
    const auto per_hour = walk.number(entry, path, "per_gpu_hour", false, 0.0);
    const auto capex = walk.number(entry, path, "capex_per_gpu", false, 0.0);
    if (capex) {
        return *capex * gpus;
    }
    if (per_hour) {
        return *per_hour * gpus * months * k_hours_per_month;
    }
    walk.fail(path, "expected per_gpu_hour or capex_per_gpu");
    return 0.0;
}

// A fleet plan as one option, `portfolio`, checked on its NPV and its commitments.
void read_fleet(PlanWalker& walk, const json& document, Plan& plan) {
    PlanOption option;
    option.rank = 1;
    option.id = "portfolio";
    option.purchase = "fleet";
    option.npv = walk.number(document, "", "npv").value_or(0.0);
    option.total = option.npv;
    double committed = 0.0;
    if (const json* commitments = walk.array(document, "", "commitments")) {
        for (std::size_t i = 0; i < commitments->size(); ++i) {
            const std::string path = fmt::format("/commitments/{}", i);
            const json& entry = (*commitments)[i];
            if (!entry.is_object()) {
                walk.fail(path, "expected an object");
                continue;
            }
            committed += committed_amount(walk, entry, path);
        }
    }
    option.commitment = std::min(committed, limits::k_max_money);
    plan.options.push_back(std::move(option));
}

// The options a plan rejected, with their reasons.
void read_rejected(PlanWalker& walk, const json& document, Plan& plan) {
    if (const json* rejected = walk.array(document, "", "rejected")) {
        for (std::size_t i = 0; i < rejected->size(); ++i) {
            const std::string path = fmt::format("/rejected/{}", i);
            const json& entry = (*rejected)[i];
            if (!entry.is_object()) {
                walk.fail(path, "expected an object");
                continue;
            }
            PlanRejection rejection;
            rejection.id = walk.string(entry, path, "id").value_or("");
            rejection.reason = walk.string(entry, path, "reason").value_or("");
            plan.rejected.push_back(std::move(rejection));
        }
    }
}

// The JSON pointers of keys an object of `text` states twice (JSON leaves their meaning open;
// the parser would keep the last silently), in document order. Keys are compared by a 64-bit
// hash (a plan's objects have a few dozen keys), and the frames of one depth are reused, so a
// large plan parses at close to the plain parser's speed.
class DuplicateKeys {
public:
    bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            push(event == json::parse_event_t::object_start);
            break;
        case json::parse_event_t::key: {
            Frame& frame = m_frames[m_depth - 1];
            const auto& key = parsed.get_ref<const std::string&>();
            const std::size_t hash = std::hash<std::string>{}(key);
            const bool seen =
                std::find(frame.keys.begin(), frame.keys.end(), hash) != frame.keys.end();
            frame.keys.push_back(hash);
            frame.key = key;
            if (seen) {
                m_found.push_back(pointer());
            }
            break;
        }
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            --m_depth;
            next_element();
            break;
        case json::parse_event_t::value:
            next_element();
            break;
        }
        return true;
    }
    [[nodiscard]] const std::vector<std::string>& found() const { return m_found; }

private:
    struct Frame {
        bool object = false;
        std::vector<std::size_t> keys; // hashes of the keys so far
        std::string key;               // the current key
        std::size_t index = 0;
    };
    void push(bool object) {
        if (m_depth == m_frames.size()) {
            m_frames.emplace_back();
        }
        Frame& frame = m_frames[m_depth++];
        frame.object = object;
        frame.keys.clear();
        frame.index = 0;
    }
    void next_element() {
        if (m_depth > 0 && !m_frames[m_depth - 1].object) {
            ++m_frames[m_depth - 1].index;
        }
    }
    std::string pointer() const {
        std::string out;
        for (std::size_t i = 0; i < m_depth; ++i) {
            const Frame& frame = m_frames[i];
            out += "/" + (frame.object ? frame.key : std::to_string(frame.index));
        }
        return out;
    }
    std::vector<Frame> m_frames; // m_frames[0 .. m_depth) are open
    std::size_t m_depth = 0;
    std::vector<std::string> m_found;
};

// `text` parsed as JSON; a parse error is an InputError at its line and column, a key stated
// twice in one object an InputError at its path.
json parse_plan_json(std::string_view file, std::string_view text) {
    try {
        DuplicateKeys duplicates;
        json document = json::parse(text.begin(), text.end(), std::ref(duplicates));
        if (!duplicates.found().empty()) {
            std::vector<Diagnostic> problems;
            for (const std::string& path : duplicates.found()) {
                problems.push_back({std::string(file), 0, 0, path,
                                    "the key is stated twice in its object; state it once"});
            }
            throw InputError(std::move(problems));
        }
        return document;
    } catch (const json::parse_error& error) {
        const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
        const auto [line, column] = place_of(text, offset);
        throw InputError({{std::string(file), line, column, "", parse_message(error)}});
    } catch (const json::out_of_range& error) {
        // A number too large for a double (1e999) is out_of_range, not a parse_error.
        throw InputError({{std::string(file), 0, 0, "",
                           "not valid JSON: a number is too large (larger than 1.8e308)"}});
    }
}

// The plan's schema_version, when this gpuplan reads its major version (else reported).
void read_schema_version(PlanWalker& walk, DiagnosticSink& sink, const json& document, Plan& plan) {
    const auto version = walk.string(document, "", "schema_version");
    sink.throw_if_any();
    const auto major = schema_major(*version);
    if (!major || *major != k_plan_schema_major) {
        walk.fail("/schema_version",
                  fmt::format("unsupported plan schema_version \"{}\"; this gpuplan ({}) reads "
                              "plan files of schema_version {}.0 to {}.x (it writes {})",
                              *version, GPUPLAN_VERSION, k_plan_schema_major, k_plan_schema_major,
                              k_json_schema_version));
        sink.throw_if_any();
    }
    plan.schema_version = *version;
}

// The workload's deadline and budget (a budget in another currency than the plan's is left
// out: the plan's own verdict, within_budget, already converted it).
void read_constraints(PlanWalker& walk, const json& document, Plan& plan) {
    const json* workload = walk.object(document, "", "workload");
    const json* constraints =
        workload != nullptr ? walk.object(*workload, "/workload", "constraints", false) : nullptr;
    if (constraints == nullptr) {
        return;
    }
    const std::string path = "/workload/constraints";
    plan.deadline_hours =
        walk.number(*constraints, path, "deadline_hours", false, 0.0, limits::k_max_hours);
    if (const json* budget = walk.object(*constraints, path, "budget", false)) {
        plan.budget = walk.number(*budget, path + "/budget", "amount");
        const auto currency = walk.string(*budget, path + "/budget", "currency");
        if (currency && plan.budget && *currency != plan.currency) {
            plan.budget.reset();
        }
    }
}

} // namespace

Plan read_plan(std::string_view file, std::string_view text) {
    const json document = parse_plan_json(file, text);
    DiagnosticSink sink;
    PlanWalker walk(file, sink);
    if (!document.is_object()) {
        walk.fail("", "expected a JSON object (the output of `gpuplan recommend --format json`)");
        sink.throw_if_any();
    }
    Plan plan;
    plan.source = std::string(file);
    read_schema_version(walk, sink, document, plan);
    plan.fleet = document.contains("commitments");
    read_header(walk, document, plan);
    if (plan.fleet) {
        read_fleet(walk, document, plan);
        sink.throw_if_any();
        return plan;
    }
    read_constraints(walk, document, plan);
    if (const json* options = walk.array(document, "", "options")) {
        read_options(walk, *options, plan);
    }
    read_rejected(walk, document, plan);
    sink.throw_if_any();
    return plan;
}

} // namespace gpuplan::gate
