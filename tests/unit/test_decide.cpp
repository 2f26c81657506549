// The decide stage: facts, the rules reader and its diagnostics, the evaluator, decide(), the
// configuration check, and every rule of the shipped decision tree.

#include "codecs/tree_bundle.hpp"
#include "decide/parsed_tree.hpp"
#include "gpuplan/decide/decide.hpp"
#include "gpuplan/decide/facts.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/shipped.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::decide;
using gpuplan::codecs::read_tree_bundle;
using gpuplan::codecs::write_tree_bundle;

namespace {

using Strings = std::vector<std::string>;

const Strings k_all_gpus{"T4",        "V100", "V100-32GB", "A10", "A10G", "A100",
                         "A100-80GB", "H100", "H200",      "L4",  "L40S"};

Tree tree_from(const std::string& text) {
    return read_tree({"tree.yaml", text});
}

std::vector<std::string> diagnostics_of(const std::string& text,
                                        const catalog::Catalog* catalog = nullptr) {
    std::vector<std::string> out;
    for (const Diagnostic& d : validate_tree({"tree.yaml", text}, catalog)) {
        out.push_back(format_diagnostic(d));
    }
    return out;
}

Condition fact_test(std::string fact, Op op, FactValue value) {
    return Condition{.kind = Condition::Kind::compare,
                     .fact = std::move(fact),
                     .op = op,
                     .values = {std::move(value)},
                     .children = {}};
}

Condition combine(Condition::Kind kind, std::vector<Condition> children) {
    return Condition{.kind = kind, .fact = {}, .op = Op::eq, .values = {}, .children = children};
}

Outcome eval(const Condition& condition, const Facts& facts) {
    std::vector<FactUse> uses;
    return evaluate(condition, facts, uses);
}

TextFile shipped_tree_file() {
    auto text = embedded::file("decision_tree.yaml");
    REQUIRE(text.has_value());
    return {"catalog/decision_tree.yaml", std::string(*text)};
}

const Tree& shipped_tree() {
    static const Tree tree = read_tree(shipped_tree_file());
    return tree;
}

// Facts of a plain single-node training job that no rule singles out; tests change what they test.
Facts training_facts() {
    return Facts{{"task", std::string("train")},
                 {"family", std::string("custom")},
                 {"params", 50e6},
                 {"precision", std::string("bf16")},
                 {"interruptible", false},
                 {"horizon_months", 3.0},
                 {"nodes", 1.0},
                 {"min_gpus", 1.0},
                 {"busy_fraction", 0.1},
                 {"gpu_models", k_all_gpus}};
}

Decision run_tree(const Tree& tree, const Facts& facts) {
    return decide::decide(tree, facts);
}

Strings candidate_names(const Decision& decision) {
    Strings out;
    for (const CandidateGpu& candidate : decision.candidate_gpus) {
        out.push_back(candidate.gpu);
    }
    return out;
}

Strings preferred_names(const Decision& decision) {
    Strings out;
    for (const CandidateGpu& candidate : decision.candidate_gpus) {
        if (candidate.preferred) {
            out.push_back(candidate.gpu);
        }
    }
    return out;
}

Strings path_of(const Decision& decision) {
    Strings out;
    for (const TraceStep& step : decision.trace) {
        out.push_back(step.node + ":" + step.branch);
    }
    return out;
}

const TraceStep& step_at(const Decision& decision, std::string_view node) {
    for (const TraceStep& step : decision.trace) {
        if (step.node == node) {
            return step;
        }
    }
    FAIL("node " << node << " is not on the path");
    return decision.trace.front();
}

PurchaseStatus status_of(const Decision& decision, PurchaseOption option) {
    return verdict_for(decision, option).status;
}

estimate::GpuEstimate an_estimate(std::string gpu, int gpu_count, int nodes, int min_gpus,
                                  double memory_per_gpu_gib, double wall_hours) {
    estimate::GpuEstimate e;
    e.gpu = std::move(gpu);
    e.gpu_count = gpu_count;
    e.nodes = nodes;
    e.min_gpus = min_gpus;
    e.memory_per_gpu_gib = memory_per_gpu_gib;
    e.wall_hours = wall_hours;
    return e;
}

} // namespace

// ---- evaluator ----------------------------------------------------------------------------------

TEST_CASE("comparisons test numbers, strings, bools and lists", "[decide][evaluate]") {
    const Facts facts{{"params", 7e9},
                      {"task", std::string("train")},
                      {"interruptible", true},
                      {"gpu_models", Strings{"T4", "H100"}}};
    CHECK(eval(fact_test("params", Op::ge, 7e9), facts) == Outcome::yes);
    CHECK(eval(fact_test("params", Op::gt, 7e9), facts) == Outcome::no);
    CHECK(eval(fact_test("params", Op::lt, 1e10), facts) == Outcome::yes);
    CHECK(eval(fact_test("params", Op::le, 1e9), facts) == Outcome::no);
    CHECK(eval(fact_test("params", Op::ne, 1e9), facts) == Outcome::yes);
    CHECK(eval(fact_test("task", Op::eq, std::string("train")), facts) == Outcome::yes);
    CHECK(eval(fact_test("interruptible", Op::eq, false), facts) == Outcome::no);
    CHECK(eval(fact_test("gpu_models", Op::contains, std::string("H100")), facts) == Outcome::yes);
    CHECK(eval(fact_test("gpu_models", Op::contains, std::string("A100")), facts) == Outcome::no);
    Condition in{.kind = Condition::Kind::compare,
                 .fact = "task",
                 .op = Op::in,
                 .values = {std::string("train"), std::string("finetune")},
                 .children = {}};
    CHECK(eval(in, facts) == Outcome::yes);
    in.op = Op::not_in;
    CHECK(eval(in, facts) == Outcome::no);
}

TEST_CASE("a missing fact makes a comparison missing, and exists tests presence",
          "[decide][evaluate]") {
    const Facts facts{{"params", 7e9}};
    CHECK(eval(fact_test("latency_ms", Op::le, 50.0), facts) == Outcome::missing);
    CHECK(eval(fact_test("latency_ms", Op::exists, true), facts) == Outcome::no);
    CHECK(eval(fact_test("latency_ms", Op::exists, false), facts) == Outcome::yes);
    CHECK(eval(fact_test("params", Op::exists, true), facts) == Outcome::yes);
}

TEST_CASE("a fact of the wrong type is a type error, not a crash", "[decide][evaluate]") {
    const Facts facts{{"params", std::string("seven billion")}, {"task", 3.0}};
    CHECK(eval(fact_test("params", Op::ge, 1e9), facts) == Outcome::type_error);
    CHECK(eval(fact_test("task", Op::eq, std::string("train")), facts) == Outcome::type_error);
    std::vector<FactUse> uses;
    (void)evaluate(fact_test("params", Op::ge, 1e9), facts, uses);
    REQUIRE(uses.size() == 1);
    CHECK(uses[0].value == FactValue{std::string("seven billion")});
}

TEST_CASE("all, any and not use three-valued logic", "[decide][evaluate]") {
    const Facts facts{{"params", 7e9}};
    const Condition yes = fact_test("params", Op::ge, 1e9);
    const Condition no = fact_test("params", Op::lt, 1e9);
    const Condition missing = fact_test("latency_ms", Op::le, 50.0);
    const Condition wrong = fact_test("params", Op::eq, std::string("x"));
    using K = Condition::Kind;
    CHECK(eval(combine(K::all, {yes, yes}), facts) == Outcome::yes);
    CHECK(eval(combine(K::all, {yes, no}), facts) == Outcome::no);
    CHECK(eval(combine(K::all, {missing, no}), facts) == Outcome::no);
    CHECK(eval(combine(K::all, {yes, missing}), facts) == Outcome::missing);
    CHECK(eval(combine(K::all, {missing, wrong}), facts) == Outcome::type_error);
    CHECK(eval(combine(K::any, {no, yes}), facts) == Outcome::yes);
    CHECK(eval(combine(K::any, {missing, yes}), facts) == Outcome::yes);
    CHECK(eval(combine(K::any, {missing, no}), facts) == Outcome::missing);
    CHECK(eval(combine(K::any, {no, no}), facts) == Outcome::no);
    CHECK(eval(combine(K::negate, {yes}), facts) == Outcome::no);
    CHECK(eval(combine(K::negate, {no}), facts) == Outcome::yes);
    CHECK(eval(combine(K::negate, {missing}), facts) == Outcome::missing);
}

TEST_CASE("a compound test records every fact it reads once, in order", "[decide][evaluate]") {
    const Facts facts{{"params", 7e9}};
    std::vector<FactUse> uses;
    (void)evaluate(combine(Condition::Kind::any,
                           {fact_test("params", Op::lt, 1.0), fact_test("latency_ms", Op::le, 1.0),
                            fact_test("params", Op::gt, 1.0)}),
                   facts, uses);
    REQUIRE(uses.size() == 2);
    CHECK(uses[0] == FactUse{"params", FactValue{7e9}});
    CHECK(uses[1] == FactUse{"latency_ms", std::nullopt});
}

// ---- decide -------------------------------------------------------------------------------------

TEST_CASE("decide takes the missing branch when a fact is absent, else the else branch",
          "[decide]") {
    const std::string text = R"(schema_version: 1
root: latency
nodes:
  - id: latency
    test: {fact: latency_ms, le: 50}
    why: Tight latency.
    then: {gpus: {prefer: [H100]}, why: Fast.}
    else: {gpus: {prefer: [T4]}, why: Cheap.}
    missing: {gpus: {prefer: [L4]}, why: Unknown.}
)";
    const Tree tree = tree_from(text);
    const Decision with_missing = run_tree(tree, Facts{{"gpu_models", k_all_gpus}});
    REQUIRE(with_missing.trace.size() == 1);
    CHECK(with_missing.trace[0].outcome == Outcome::missing);
    CHECK(with_missing.trace[0].branch == "missing");
    CHECK(with_missing.trace[0].why == "Unknown.");
    CHECK(with_missing.trace[0].facts == std::vector<FactUse>{{"latency_ms", std::nullopt}});
    CHECK(preferred_names(with_missing) == Strings{"L4"});

    Tree without = tree;
    without.nodes[0].on_missing.reset();
    const Decision fallback = run_tree(without, Facts{{"latency_ms", std::string("fast")}});
    CHECK(fallback.trace[0].outcome == Outcome::type_error);
    CHECK(fallback.trace[0].branch == "else");
    CHECK(preferred_names(fallback) == Strings{"T4"});
}

TEST_CASE("effects accumulate along the path and exclusions beat preferences", "[decide]") {
    const std::string text = R"(schema_version: 1
root: first
nodes:
  - id: first
    test: {fact: task, eq: train}
    why: First.
    then:
      gpus: {prefer: [H100, A100]}
      purchase: {prefer: [spot, reserved_1y]}
      interconnect: {min_network_gbps: 400}
      why: Big.
      next: second
  - id: second
    test: {fact: interruptible, eq: false}
    why: Second.
    then:
      gpus: {prefer: [T4, H100], exclude: [A100]}
      purchase: {exclude: [spot]}
      interconnect: {nvlink: true, min_network_gbps: 100}
      why: Small.
      next: third
  - id: third
    test: {fact: params, gt: 1}
    why: Third.
    then:
      gpus: {only: [H100, T4, L4]}
      why: Only some.
)";
    const Decision decision = run_tree(tree_from(text), Facts{{"task", std::string("train")},
                                                              {"interruptible", false},
                                                              {"params", 5.0},
                                                              {"gpu_models", k_all_gpus}});
    CHECK(path_of(decision) == Strings{"first:then", "second:then", "third:then"});
    CHECK(candidate_names(decision) == Strings{"H100", "T4", "L4"});
    CHECK(preferred_names(decision) == Strings{"H100", "T4"});
    REQUIRE(decision.candidate_gpus[0].reason.has_value());
    CHECK(decision.candidate_gpus[0].reason->rule == "first");
    REQUIRE(!decision.excluded_gpus.empty());
    CHECK(decision.excluded_gpus[0].gpu == "A100");
    CHECK(decision.excluded_gpus[0].reason == Reason{"second", "Small."});
    CHECK(decision.excluded_gpus.size() == k_all_gpus.size() - 3);
    CHECK(status_of(decision, PurchaseOption::spot) == PurchaseStatus::excluded);
    CHECK(status_of(decision, PurchaseOption::reserved_1y) == PurchaseStatus::preferred);
    CHECK(status_of(decision, PurchaseOption::on_demand) == PurchaseStatus::allowed);
    CHECK(decision.interconnect.nvlink);
    CHECK(decision.interconnect.min_network_gbps == 400.0);
    CHECK(decision.interconnect.network_reason->rule == "first");
    CHECK(decision.trace[1].effects ==
          Strings{"prefer T4, H100", "exclude A100", "exclude purchase spot",
                  "require NVLink inside a node", "require 100 Gbps between nodes"});
}

TEST_CASE("rule_out names the rule that excludes a configuration", "[decide]") {
    Decision decision;
    decision.excluded_gpus.push_back({"T4", {"too-small", "T4 is too small."}});
    decision.purchase_options.push_back(
        {PurchaseOption::spot, PurchaseStatus::excluded, Reason{"spot", "No checkpoints."}});
    decision.interconnect = {true, Reason{"big", "NVLink."}, 400.0, Reason{"big", "RDMA."}};
    const Configuration fine{.gpu = "H100",
                             .purchase = PurchaseOption::on_demand,
                             .gpu_count = 16,
                             .nodes = 2,
                             .nvlink = true,
                             .network_gbps = 3200.0};
    CHECK_FALSE(rule_out(decision, fine).has_value());

    Configuration c = fine;
    c.gpu = "T4";
    CHECK(rule_out(decision, c)->reason.rule == "too-small");
    CHECK(rule_out(decision, c)->what == "GPU model T4 is excluded");
    c = fine;
    c.purchase = PurchaseOption::spot;
    CHECK(rule_out(decision, c)->what == "purchase option spot is excluded");
    c = fine;
    c.nvlink = false;
    CHECK(rule_out(decision, c)->reason.why == "NVLink.");
    c.gpu_count = 2; // one GPU per node: nothing to link
    CHECK_FALSE(rule_out(decision, c).has_value());
    c = fine;
    c.network_gbps = 100.0;
    CHECK(rule_out(decision, c)->what ==
          "its network has 100 Gbps between nodes; 400 Gbps is required");
    CHECK_FALSE(rule_caveat(decision, c).has_value());
    // An unknown network is not a reason to exclude: the option stays, with a caveat.
    c.network_gbps.reset();
    CHECK_FALSE(rule_out(decision, c).has_value());
    REQUIRE(rule_caveat(decision, c).has_value());
    CHECK(rule_caveat(decision, c)->what ==
          "its network speed is unknown in the catalog; the rule needs 400 Gbps between nodes, "
          "so check the provider's fabric before relying on this option");
    c.nodes = 1;
    c.gpu_count = 8;
    CHECK_FALSE(rule_out(decision, c).has_value());
    CHECK_FALSE(rule_caveat(decision, c).has_value());
}

TEST_CASE("preference_rank orders the preferred models only", "[decide]") {
    Decision decision;
    decision.candidate_gpus = {{"T4", true, Reason{"a", "x"}},
                               {"L4", true, Reason{"a", "x"}},
                               {"H100", false, std::nullopt}};
    CHECK(preference_rank(decision, "T4") == 0U);
    CHECK(preference_rank(decision, "L4") == 1U);
    CHECK_FALSE(preference_rank(decision, "H100").has_value());
}

// ---- reader -------------------------------------------------------------------------------------

TEST_CASE("the reader builds nodes, conditions and branches", "[decide][reader]") {
    const Tree tree = tree_from(R"(schema_version: 1
sources:
  s1: {title: A source, url: https://example.com}
root: n
nodes:
  - id: n
    test:
      any:
        - {fact: params, ge: 100B}
        - not: {fact: task, in: [train, finetune]}
    why: Why.
    source: s1
    then:
      gpus: {only: [A100], prefer: [A100]}
      purchase: {prefer: [reserved_3y]}
      why: Because.
      source: [s1]
)");
    REQUIRE(tree.nodes.size() == 1);
    const Node& node = tree.nodes[0];
    CHECK(node.place == Place{6, 5});
    CHECK(describe(node.test) == "params >= 100B or not (task in [train, finetune])");
    CHECK(node.on_true.gpus.only == Strings{"A100"});
    CHECK(node.on_true.purchase.prefer == std::vector<PurchaseOption>{PurchaseOption::reserved_3y});
    CHECK(node.on_true.sources == Strings{"s1"});
    CHECK(node.on_false == Branch{});
    CHECK(tree.sources.at("s1").title == "A source");
}

TEST_CASE("the reader reports every problem with its place", "[decide][reader]") {
    const std::string text = R"(schema_version: 1
root: a
nodes:
  - id: a
    test: {fact: parms, ge: 1}
    why: W.
    then: {gpus: {prefer: [T4]}, next: c}
  - id: b
    test: {fact: interruptible, gt: 1}
    why: W.
  - id: a
    test: {fact: task, eq: serve}
)";
    CHECK(diagnostics_of(text) ==
          Strings{
              "tree.yaml:5:18: error: /nodes/0/test/fact: unknown fact 'parms'; did you mean "
              "'params'?",
              "tree.yaml:7:11: error: /nodes/0/then: missing required key 'why': a branch with "
              "effects must say why",
              "tree.yaml:9:37: error: /nodes/1/test/gt: operator 'gt' does not apply to bool "
              "fact 'interruptible' (use eq, ne, exists)",
              "tree.yaml:11:9: error: /nodes/2/id: duplicate node id 'a'",
              "tree.yaml:12:28: error: /nodes/2/test/eq: expected one of train, finetune or "
              "inference, got \"serve\"",
              "tree.yaml:11:5: error: /nodes/2: missing required key 'why'",
              "tree.yaml:7:40: error: /nodes/0/then/next: unknown node 'c'; did you mean 'a'?",
          });
}

TEST_CASE("the reader rejects loops, unreachable nodes and other schema versions",
          "[decide][reader]") {
    CHECK(diagnostics_of(R"(schema_version: 1
root: a
nodes:
  - {id: a, test: {fact: task, eq: train}, why: W., then: {next: b}}
  - {id: b, test: {fact: task, eq: train}, why: W., else: {next: a}}
  - {id: c, test: {fact: task, eq: train}, why: W.}
)") == Strings{"tree.yaml:5:59: error: /nodes/1/else/next: node 'b' leads back to 'a': the "
               "tree must not loop",
               "tree.yaml:6:5: error: /nodes/2: node 'c' is never reached from the root 'a'"});
    CHECK(diagnostics_of("schema_version: 2\nroot: a\nnodes: []\n") ==
          Strings{"tree.yaml:1:17: error: /schema_version: unsupported schema_version 2; this "
                  "gpuplan reads decision tree schema_version 1"});
    CHECK_THROWS_AS(tree_from("nodes: [\n"), InputError);
}

TEST_CASE("with a catalog, GPU names resolve to canonical names or fail with a hint",
          "[decide][reader]") {
    catalog::Catalog catalog;
    catalog::Gpu gpu;
    gpu.name = "A100-80GB";
    gpu.aliases = {"A100-80G"};
    catalog.gpus.push_back(gpu);
    const std::string text = R"(schema_version: 1
root: a
nodes:
  - id: a
    test: {fact: gpu_models, contains: a100-80g}
    why: W.
    then: {gpus: {prefer: [a100-80g, A100-80GX]}, why: W.}
)";
    CHECK(diagnostics_of(text, &catalog) ==
          Strings{"tree.yaml:7:38: error: /nodes/0/then/gpus/prefer/1: unknown GPU model "
                  "'A100-80GX'; did you mean 'A100-80GB'?"});
    std::string fixed = text;
    fixed.replace(fixed.find(", A100-80GX"), std::string(", A100-80GX").size(), "");
    const Tree tree = read_tree({"tree.yaml", fixed}, &catalog);
    CHECK(tree.nodes[0].on_true.gpus.prefer == Strings{"A100-80GB"});
    CHECK(tree.nodes[0].test.values == std::vector<FactValue>{std::string("A100-80GB")});
}

// ---- the parsed tree and its bundle form -------------------------------------------------------

namespace {

// What loading a tree gives: the tree, or every problem.
struct Loaded {
    std::optional<Tree> tree;
    std::vector<Diagnostic> problems;

    bool operator==(const Loaded&) const = default;
};

template <class Load> Loaded loaded(Load load) {
    try {
        return {load(), {}};
    } catch (const InputError& e) {
        return {std::nullopt, e.diagnostics()};
    }
}

// Catalog and parse problems, GPU lists with repeats and conflicts, operands in a test that fails.
const std::string k_tree_with_problems = R"(schema_version: 1
root: a
nodes:
  - id: a
    test: {fact: gpu_models, contains: Z100}
    why: W.
    then: {gpus: {prefer: [T4, t4, Q1]}, why: W., next: b}
    else: {gpus: {prefer: [T4], exclude: [t4]}, why: W.}
  - id: b
    test: {fact: parms, ge: 1}
    why: W.
    missing: {gpus: {only: [L4], prefer: [T4, l4]}, why: W.}
  - id: c
    test: {all: [{fact: gpu_models, contains: X9}, {fact: task, eq: bogus}]}
    why: W.
    then: {gpus: {prefer: 7, exclude: [H100, [x]]}, purchase: {prefer: [spot, spot]}, why: W.}
)";

} // namespace

TEST_CASE("the embedded parsed tree resolves to what read_tree reads from the shipped YAML",
          "[decide][bundle]") {
    const auto bytes = embedded::compiled("decision_tree.yaml");
    REQUIRE(bytes.has_value());
    const TextFile file = shipped_tree_file();
    const ParsedTree parsed = read_tree_bundle(*bytes);
    CHECK(parsed == parse_tree(file));
    CHECK(parsed.diagnostics.empty());
    CHECK(resolve_tree(parsed, &embedded::catalog()) == shipped_tree());

    // A smaller active catalog (`--no-default-catalog --catalog feed.csv`), and none at all.
    catalog::Catalog smaller = embedded::catalog();
    smaller.gpus.resize(3);
    const std::vector<const catalog::Catalog*> catalogs{&embedded::catalog(), &smaller, nullptr};
    for (const catalog::Catalog* catalog : catalogs) {
        for (UnknownGpus unknown : {UnknownGpus::allow, UnknownGpus::error}) {
            CHECK(loaded([&] { return resolve_tree(parsed, catalog, unknown); }) ==
                  loaded([&] { return read_tree(file, catalog, unknown); }));
        }
    }
    CHECK_FALSE(validate_tree(file, &smaller).empty());
}

TEST_CASE("read_tree reports parse and catalog problems in the order of the file",
          "[decide][reader]") {
    catalog::Catalog catalog;
    for (const char* name : {"T4", "L4", "V100"}) {
        catalog::Gpu gpu;
        gpu.name = name;
        catalog.gpus.push_back(gpu);
    }
    CHECK(diagnostics_of(k_tree_with_problems, &catalog) ==
          Strings{
              "tree.yaml:5:40: error: /nodes/0/test/contains: unknown GPU model 'Z100'; did you "
              "mean 'V100'?",
              "tree.yaml:7:32: error: /nodes/0/then/gpus/prefer/1: 'T4' is listed twice",
              "tree.yaml:7:36: error: /nodes/0/then/gpus/prefer/2: unknown GPU model 'Q1'; did "
              "you mean 'T4'?",
              "tree.yaml:8:18: error: /nodes/0/else/gpus: 'T4' is both preferred and ruled out",
              "tree.yaml:10:18: error: /nodes/1/test/fact: unknown fact 'parms'; did you mean "
              "'params'?",
              "tree.yaml:12:21: error: /nodes/1/missing/gpus: 'T4' is both preferred and ruled "
              "out",
              "tree.yaml:14:47: error: /nodes/2/test/all/0/contains: unknown GPU model 'X9'; did "
              "you mean 'T4'?",
              "tree.yaml:14:69: error: /nodes/2/test/all/1/eq: expected one of train, finetune "
              "or inference, got \"bogus\"",
              "tree.yaml:16:27: error: /nodes/2/then/gpus/prefer: unknown GPU model '7'; did you "
              "mean 'T4'?",
              "tree.yaml:16:46: error: /nodes/2/then/gpus/exclude/1: expected a string, got a "
              "list",
              "tree.yaml:16:79: error: /nodes/2/then/purchase/prefer/1: 'spot' is listed twice",
              "tree.yaml:13:5: error: /nodes/2: node 'c' is never reached from the root 'a'",
          });
}

TEST_CASE("a parsed tree keeps GPU names as written until it is resolved", "[decide][reader]") {
    catalog::Catalog catalog;
    catalog::Gpu gpu;
    gpu.name = "T4";
    catalog.gpus.push_back(gpu);
    const ParsedTree parsed = parse_tree({"tree.yaml", R"(schema_version: 1
root: a
nodes:
  - id: a
    test: {not: {fact: gpu_models, contains: t4}}
    why: W.
    then: {gpus: {prefer: [t4, L4]}, why: W.}
)"});
    CHECK(parsed.diagnostics.empty());
    CHECK(parsed.tree.nodes[0].on_true.gpus.prefer == Strings{"t4", "L4"});
    REQUIRE(parsed.gpu_checks.size() == 3);
    CHECK(parsed.gpu_checks[0].check ==
          decltype(GpuCheck::check){GpuOperand{"t4", {{5, 46}, "/nodes/0/test/not/contains"}}});
    const auto& names = std::get<GpuNames>(parsed.gpu_checks[1].check);
    CHECK(names.items.size() == 2);
    CHECK(names.items[1] == Location{{7, 32}, "/nodes/0/then/gpus/prefer/1"});

    const Tree tree = resolve_tree(parsed, &catalog);
    CHECK(tree.nodes[0].test.children[0].values == std::vector<FactValue>{std::string("T4")});
    CHECK(tree.nodes[0].on_true.gpus.prefer == Strings{"T4", "L4"});
    CHECK_THROWS_WITH(resolve_tree(parsed, &catalog, UnknownGpus::error),
                      "tree.yaml:7:32: error: /nodes/0/then/gpus/prefer/1: unknown GPU model "
                      "'L4'; did you mean 'T4'?");

    ParsedTree broken = parsed;
    broken.gpu_checks[1].check = GpuNames{0, BranchSlot::on_missing, GpuList::prefer, {}};
    CHECK_THROWS_AS(resolve_tree(broken, &catalog), RuntimeError);
}

TEST_CASE("a parsed tree survives the bundle round trip, problems and all", "[decide][bundle]") {
    const ParsedTree parsed = parse_tree({"tree.yaml", k_tree_with_problems});
    CHECK(parsed.gpu_checks.size() >= 10);
    CHECK(parsed.diagnostics.size() >= 4);
    CHECK(read_tree_bundle(write_tree_bundle(parsed)) == parsed);
    const ParsedTree shipped = parse_tree(shipped_tree_file());
    CHECK(read_tree_bundle(write_tree_bundle(shipped)) == shipped);
}

TEST_CASE("a truncated or corrupt parsed tree is refused with RuntimeError", "[decide][bundle]") {
    const std::string bytes = write_tree_bundle(parse_tree({"tree.yaml", k_tree_with_problems}));
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        CHECK_THROWS_AS(read_tree_bundle(bytes.substr(0, size)), RuntimeError);
    }
    CHECK_THROWS_AS(read_tree_bundle(bytes + '\0'), RuntimeError);
    // Any byte changed: decoded (a string's character) or refused, never undefined behaviour
    // (the sanitize preset runs this too).
    for (std::size_t at = 0; at < bytes.size(); ++at) {
        for (const char value : {'\x02', '\x7f', '\xff'}) {
            std::string corrupt = bytes;
            corrupt[at] = value;
            try {
                (void)read_tree_bundle(corrupt);
            } catch (const RuntimeError&) {
            }
        }
    }
    ParsedTree bad_op;
    bad_op.tree.nodes.push_back(Node{});
    bad_op.tree.nodes[0].test.op = static_cast<Op>(42);
    CHECK_THROWS_WITH(read_tree_bundle(write_tree_bundle(bad_op)),
                      "embedded decision tree is corrupt");
    ParsedTree bad_slot;
    bad_slot.gpu_checks.push_back({GpuConflicts{0, static_cast<BranchSlot>(3), {}}, 0});
    CHECK_THROWS_AS(read_tree_bundle(write_tree_bundle(bad_slot)), RuntimeError);
}

// ---- facts --------------------------------------------------------------------------------------

TEST_CASE("every fact make_facts produces is documented with its type", "[decide][facts]") {
    catalog::Catalog catalog;
    catalog.fx.rates.push_back({.currency = "CNY", .per_base = 7.0, .as_of = {}, .sources = {}});
    workload::Workload w;
    w.task = workload::Task::inference;
    w.inference.latency_ms = 500.0;
    w.constraints.budget = Money{100, "USD"};
    const estimate::GpuEstimate e = an_estimate("T4", 1, 1, 1, 10.0, 5.0);
    for (const auto& [name, value] : make_facts(w, std::span(&e, 1), catalog, "")) {
        const FactDefinition* definition = find_fact(name);
        REQUIRE(definition != nullptr);
        CHECK(definition->type == type_of(value));
    }
}

TEST_CASE("make_facts converts the budget per month through the catalog's fx rates",
          "[decide][facts]") {
    catalog::Catalog catalog;
    catalog.fx.rates.push_back({.currency = "CNY", .per_base = 7.0, .as_of = {}, .sources = {}});
    workload::Workload w;
    w.task = workload::Task::inference;
    w.horizon_months = 12.0;
    w.inference.hours_per_day = 12.0;
    w.inference.latency_ms = 2560.0;
    w.inference.output_tokens = 256.0;
    w.constraints.budget = Money{60000.0, "CNY"};
    w.finance.currency = "CNY";
    const Facts facts = make_facts(w, {}, catalog, "");
    CHECK(std::get<std::string>(facts.at("currency")) == "CNY");
    CHECK(std::get<double>(facts.at("plan_months")) == 12.0);
    CHECK(std::get<double>(facts.at("budget")) == Approx(60000.0));
    CHECK(std::get<double>(facts.at("budget_per_month")) == Approx(5000.0));
    CHECK(std::get<double>(facts.at("budget_per_month_cny")) == Approx(5000.0));
    CHECK(std::get<double>(facts.at("budget_per_month_usd")) == Approx(5000.0 / 7.0));
    CHECK(std::get<double>(facts.at("busy_fraction")) == Approx(0.5));
    CHECK(std::get<double>(facts.at("ms_per_output_token")) == Approx(10.0));
    CHECK(facts.count("method") == 0);

    const Facts in_usd = make_facts(w, {}, catalog, "USD");
    CHECK(std::get<double>(in_usd.at("budget_per_month")) == Approx(5000.0 / 7.0));
    w.constraints.budget = Money{100.0, "EUR"}; // no rate: the money facts stay unknown
    const Facts no_rate = make_facts(w, {}, catalog, "");
    CHECK(no_rate.count("budget") == 0);
    CHECK(no_rate.count("budget_per_month_usd") == 0);
}

TEST_CASE("make_facts takes the fewest GPUs and nodes and the fastest run over the estimates",
          "[decide][facts]") {
    catalog::Catalog catalog;
    workload::Workload w;
    w.task = workload::Task::train;
    w.horizon_months = 12.0;
    w.schedule.runs = 2;
    w.schedule.every_months = 3.0;
    w.constraints.budget = Money{12000.0, "USD"};
    const std::vector<estimate::GpuEstimate> estimates{an_estimate("T4", 32, 4, 8, 10.0, 2000.0),
                                                       an_estimate("H100", 16, 2, 2, 40.0, 876.0)};
    const Facts facts = make_facts(w, estimates, catalog, "");
    CHECK(std::get<Strings>(facts.at("gpu_models")) == Strings{"T4", "H100"});
    CHECK(std::get<double>(facts.at("min_gpus")) == 2.0);
    CHECK(std::get<double>(facts.at("gpu_count")) == 16.0);
    CHECK(std::get<double>(facts.at("nodes")) == 2.0);
    CHECK(std::get<bool>(facts.at("fits_one_gpu")) == false);
    CHECK(std::get<double>(facts.at("memory_needed_gib")) == Approx(320.0));
    CHECK(std::get<double>(facts.at("wall_hours")) == Approx(876.0));
    // 2 runs x 876 h over 12 months of 730 h.
    CHECK(std::get<double>(facts.at("busy_fraction")) == Approx(2.0 * 876.0 / (12.0 * 730.0)));
    // 2 runs every 3 months spread the budget over 6 months.
    CHECK(std::get<double>(facts.at("plan_months")) == 6.0);
    CHECK(std::get<double>(facts.at("budget_per_month_usd")) == Approx(2000.0));
    CHECK(std::get<std::string>(facts.at("method")) == "full");
    CHECK(facts.count("latency_ms") == 0);
}

// ---- the shipped rules, one by one --------------------------------------------------------------

TEST_CASE("the shipped tree is valid and every node is reachable", "[decide][rules]") {
    const Tree& tree = shipped_tree();
    CHECK(tree.root == "small-budget");
    CHECK(tree.nodes.size() >= 14);
    for (const Node& node : tree.nodes) {
        INFO(node.id);
        CHECK(!node.why.empty());
        for (const Branch* branch : {&node.on_true, &node.on_false}) {
            CHECK((!branch->has_effects() || !branch->why.empty()));
            CHECK((!branch->has_effects() || !branch->sources.empty()));
        }
    }
}

TEST_CASE("rule small-budget: at most 5000 CNY or 725 USD a month prefers T4 and V100 first",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["budget_per_month_cny"] = 5000.0;
    facts["budget_per_month_usd"] = 723.7;
    Decision decision = run_tree(shipped_tree(), facts);
    CHECK(step_at(decision, "small-budget").outcome == Outcome::yes);
    CHECK(preferred_names(decision) == Strings{"T4", "V100"});

    facts.erase("budget_per_month_cny"); // no CNY rate: the USD test still decides
    facts["budget_per_month_usd"] = 700.0;
    CHECK(step_at(run_tree(shipped_tree(), facts), "small-budget").outcome == Outcome::yes);
    facts["budget_per_month_usd"] = 900.0;
    facts["budget_per_month_cny"] = 6200.0;
    decision = run_tree(shipped_tree(), facts);
    CHECK(step_at(decision, "small-budget").outcome == Outcome::no);
    CHECK(preferred_names(decision).empty());
}

TEST_CASE("rule serve-tight-latency: at most 50 ms per output token prefers H100 and A100",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["task"] = std::string("inference");
    facts["family"] = std::string("transformer");
    facts["params"] = 70e9;
    facts["ms_per_output_token"] = 20.0;
    Decision decision = run_tree(shipped_tree(), facts);
    CHECK(preferred_names(decision) == Strings{"H100", "H200", "A100-80GB", "A100"});
    facts["ms_per_output_token"] = 80.0;
    decision = run_tree(shipped_tree(), facts);
    CHECK(step_at(decision, "serve-tight-latency").outcome == Outcome::no);
    CHECK(preferred_names(decision) == Strings{"L40S", "A100-80GB", "H100"});
}

TEST_CASE("rule serve-for-cost: models up to 8B without a latency target prefer inference cards",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["task"] = std::string("inference");
    facts["family"] = std::string("transformer");
    facts["params"] = 7e9;
    const Decision decision = run_tree(shipped_tree(), facts);
    CHECK(step_at(decision, "serve-tight-latency").outcome == Outcome::missing);
    CHECK(step_at(decision, "serve-for-cost").outcome == Outcome::yes);
    CHECK(preferred_names(decision) == Strings{"T4", "L4", "A10G", "A10"});
}

TEST_CASE("rule train-very-large: 100B+ or more than 8 GPUs keeps only A100/H100 with NVLink "
          "and 400 Gbps",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["params"] = 1e12;
    facts["nodes"] = 64.0;
    Decision decision = run_tree(shipped_tree(), facts);
    CHECK(candidate_names(decision) == Strings{"H100", "H200", "A100-80GB", "A100"});
    CHECK(decision.excluded_gpus.size() == 7);
    CHECK(decision.interconnect.nvlink);
    CHECK(decision.interconnect.min_network_gbps == 400.0);
    CHECK(decision.interconnect.network_reason->rule == "train-very-large");

    facts["params"] = 30e9;
    facts["min_gpus"] = 16.0;
    decision = run_tree(shipped_tree(), facts);
    CHECK(step_at(decision, "train-very-large").outcome == Outcome::yes);
}

TEST_CASE("rule train-light-cv: a CNN of 10M parameters or fewer prefers T4", "[decide][rules]") {
    Facts facts = training_facts();
    facts["family"] = std::string("cnn");
    facts["params"] = 3.5e6;
    CHECK(preferred_names(run_tree(shipped_tree(), facts)) == Strings{"T4", "L4"});
    facts["params"] = 25.6e6; // ResNet-50 is not light
    CHECK(preferred_names(run_tree(shipped_tree(), facts)).empty());
}

TEST_CASE("rule train-bert-class: a transformer under 1B prefers V100 and A10-class",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["family"] = std::string("transformer");
    facts["params"] = 340e6;
    CHECK(preferred_names(run_tree(shipped_tree(), facts)) ==
          Strings{"V100", "V100-32GB", "A10G", "A10"});
}

TEST_CASE("rule train-large-model: 1B parameters or more prefers A100 and H100",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["family"] = std::string("transformer");
    facts["params"] = 7e9;
    CHECK(preferred_names(run_tree(shipped_tree(), facts)) ==
          Strings{"A100-80GB", "H100", "A100", "H200"});
}

TEST_CASE("rule low-precision: a small fp16/int8/int4 model also prefers T4", "[decide][rules]") {
    Facts facts = training_facts();
    facts["family"] = std::string("transformer");
    facts["params"] = 340e6;
    facts["precision"] = std::string("fp16");
    CHECK(preferred_names(run_tree(shipped_tree(), facts)) ==
          Strings{"V100", "V100-32GB", "A10G", "A10", "T4"});
}

TEST_CASE("rule multi-node-training: a multi-node run needs NVLink and 100 Gbps",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["nodes"] = 4.0;
    const Decision decision = run_tree(shipped_tree(), facts);
    CHECK(decision.interconnect.nvlink);
    CHECK(decision.interconnect.min_network_gbps == 100.0);
    facts["task"] = std::string("inference");
    CHECK_FALSE(run_tree(shipped_tree(), facts).interconnect.min_network_gbps.has_value());
}

TEST_CASE("rule spot: checkpointed jobs prefer spot, others exclude it", "[decide][rules]") {
    Facts facts = training_facts();
    facts["interruptible"] = true;
    CHECK(status_of(run_tree(shipped_tree(), facts), PurchaseOption::spot) ==
          PurchaseStatus::preferred);
    facts["interruptible"] = false;
    const Decision decision = run_tree(shipped_tree(), facts);
    CHECK(status_of(decision, PurchaseOption::spot) == PurchaseStatus::excluded);
    CHECK(verdict_for(decision, PurchaseOption::spot).reason->rule == "spot");
}

TEST_CASE("rules reserve-1y, reserve-3y and self-built follow horizon and utilisation",
          "[decide][rules]") {
    Facts facts = training_facts();
    facts["horizon_months"] = 36.0;
    facts["busy_fraction"] = 0.9;
    Decision decision = run_tree(shipped_tree(), facts);
    CHECK(status_of(decision, PurchaseOption::reserved_1y) == PurchaseStatus::preferred);
    CHECK(status_of(decision, PurchaseOption::reserved_3y) == PurchaseStatus::preferred);
    CHECK(status_of(decision, PurchaseOption::self_built) == PurchaseStatus::allowed);

    facts["busy_fraction"] = 0.5; // between the 3-year (38%) and 1-year (63%) break-evens
    decision = run_tree(shipped_tree(), facts);
    CHECK(status_of(decision, PurchaseOption::reserved_1y) == PurchaseStatus::excluded);
    CHECK(status_of(decision, PurchaseOption::reserved_3y) == PurchaseStatus::preferred);
    CHECK(status_of(decision, PurchaseOption::self_built) == PurchaseStatus::excluded);

    facts["horizon_months"] = 6.0;
    facts["busy_fraction"] = 1.0;
    decision = run_tree(shipped_tree(), facts);
    CHECK(status_of(decision, PurchaseOption::reserved_1y) == PurchaseStatus::excluded);
    CHECK(status_of(decision, PurchaseOption::reserved_3y) == PurchaseStatus::excluded);
    CHECK(status_of(decision, PurchaseOption::self_built) == PurchaseStatus::excluded);

    facts["horizon_months"] = 36.0;
    facts.erase("busy_fraction"); // no estimates: commitments stay open
    decision = run_tree(shipped_tree(), facts);
    CHECK(step_at(decision, "reserve-1y").branch == "missing");
    CHECK(status_of(decision, PurchaseOption::reserved_1y) == PurchaseStatus::allowed);
    CHECK(status_of(decision, PurchaseOption::self_built) == PurchaseStatus::allowed);
}

TEST_CASE("docs/decision-rules.md lists every fact and every shipped rule", "[decide][docs]") {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/docs/decision-rules.md");
    REQUIRE(in.good());
    std::ostringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    for (const FactDefinition& fact : fact_definitions()) {
        INFO(fact.name);
        CHECK(doc.find("| `" + std::string(fact.name) + "` | " + std::string(to_string(fact.type)) +
                       " |") != std::string::npos);
    }
    for (const Node& node : shipped_tree().nodes) {
        INFO(node.id);
        CHECK(doc.find("| `" + node.id + "` | `") != std::string::npos);
    }
}

TEST_CASE("a broken shipped tree fails the shipped-file validation the build runs",
          "[decide][rules]") {
    const auto problems = shipped::validate_shipped(
        {{"decision_tree.yaml", "schema_version: 1\nroot: a\nnodes:\n  - {id: a, why: W.}\n"}});
    REQUIRE(problems.size() == 1);
    CHECK(format_diagnostic(problems[0]) ==
          "catalog/decision_tree.yaml:4:5: error: /nodes/0: missing required key 'test'");
}
