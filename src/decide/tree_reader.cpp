#include "decide/parsed_tree.hpp"
#include "detail/sources.hpp"
#include "detail/strings.hpp"
#include "detail/yaml_reader.hpp"
#include "gpuplan/decide/tree.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace gpuplan::decide {

using detail::YamlContext;
using detail::YamlNode;

namespace {

constexpr std::int64_t k_schema_version = 1;

constexpr std::array<Op, 10> k_ops{Op::eq, Op::ne, Op::lt,     Op::le,       Op::gt,
                                   Op::ge, Op::in, Op::not_in, Op::contains, Op::exists};

// Which operators make sense for each fact type.
bool op_allowed(FactType type, Op op) {
    switch (type) {
    case FactType::number:
        return op != Op::contains;
    case FactType::string:
        return op == Op::eq || op == Op::ne || op == Op::in || op == Op::not_in || op == Op::exists;
    case FactType::boolean:
        return op == Op::eq || op == Op::ne || op == Op::exists;
    case FactType::list:
        return op == Op::contains || op == Op::exists;
    }
    return false;
}

std::string allowed_ops(FactType type) {
    std::string out;
    for (Op op : k_ops) {
        if (op_allowed(type, op)) {
            out += (out.empty() ? "" : ", ") + std::string(to_string(op));
        }
    }
    return out;
}

bool is_valid_id(std::string_view id) {
    if (id.empty() ||
        !((id.front() >= 'a' && id.front() <= 'z') || (id.front() >= '0' && id.front() <= '9'))) {
        return false;
    }
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

// Where `node` is written, as its diagnostics would say.
Location location_of(const YamlNode& node) {
    Diagnostic where = node.diagnostic({});
    return {{where.line, where.column}, std::move(where.path)};
}

// A reference to check once every node is known.
struct PendingNext {
    std::string target;
    std::string from;
    Diagnostic where;
};

// Reads everything a tree file says on its own; what depends on the catalog is recorded as
// GpuChecks for TreeResolver.
class TreeReader {
public:
    TreeReader(const TextFile& file, DiagnosticSink& sink) : m_file(file) {
        m_context.file = file.name;
        m_context.sink = &sink;
        m_tree.file = file.name;
    }

    ParsedTree read() {
        read_document();
        return {std::move(m_tree), std::move(m_checks), m_context.sink->diagnostics()};
    }

private:
    void read_document() {
        auto root = detail::parse_yaml_document(m_file.text, m_context);
        if (!root) {
            return;
        }
        if (!root->expect_map({"schema_version", "description", "sources", "root", "nodes"})) {
            return;
        }
        if (detail::read_schema_version(*root, "decision tree", k_schema_version) ==
            detail::SchemaVersion::unsupported) {
            return;
        }
        if (auto description = root->get("description")) {
            (void)description->as_string();
        }
        if (auto sources = root->get("sources")) {
            read_sources(*sources);
        }
        std::optional<YamlNode> root_id = root->require("root");
        if (auto nodes = root->require("nodes")) {
            for (const YamlNode& item : nodes->items()) {
                read_node(item);
            }
            if (nodes->is_sequence() && m_tree.nodes.empty()) {
                nodes->error("expected at least one node");
            }
        }
        if (root_id) {
            if (auto id = root_id->as_string()) {
                m_tree.root = *id;
                if (!m_node_ids.empty() && !m_node_ids.contains(*id)) {
                    root_id->error(unknown_node_message(*id));
                }
            }
        }
        check_references();
    }

    // Records a check for resolve_tree() at this point of the walk. After the visit budget ran out
    // the walk reports nothing more (YamlNode::error), so neither does the check.
    void defer(std::variant<GpuOperand, GpuNames, GpuConflicts> check) {
        if (!m_context.budget_exhausted) {
            m_checks.push_back(
                {std::move(check), static_cast<std::uint32_t>(m_context.sink->size())});
        }
    }

    void read_sources(const YamlNode& node) {
        for (auto& [id, entry] : node.entries()) {
            if (auto source = detail::read_source_entry(entry, id)) {
                m_tree.sources[id] = std::move(*source);
                m_source_ids[id] = id;
            }
        }
    }

    std::vector<std::string> read_source_refs(const YamlNode& node) {
        return detail::read_source_refs(node, m_source_ids);
    }

    std::string unknown_node_message(const std::string& id) const {
        std::vector<std::string_view> known(m_node_ids.begin(), m_node_ids.end());
        std::string hint = detail::closest_match(id, known);
        return hint.empty() ? fmt::format("unknown node '{}'", id)
                            : fmt::format("unknown node '{}'; did you mean '{}'?", id, hint);
    }

    void read_node(const YamlNode& node) {
        if (!node.expect_map({"id", "test", "why", "source", "then", "else", "missing"})) {
            return;
        }
        Node out;
        out.place = {node.mark().first, node.mark().second};
        const auto index = static_cast<std::uint32_t>(m_tree.nodes.size());
        if (auto id_node = node.require("id")) {
            if (auto id = id_node->as_string()) {
                if (!is_valid_id(*id)) {
                    id_node->error(fmt::format("node id '{}' must be lower-case letters, digits, "
                                               "'-' or '_', starting with a letter or digit",
                                               *id));
                } else if (!m_node_ids.insert(*id).second) {
                    id_node->error(fmt::format("duplicate node id '{}'", *id));
                }
                out.id = *id;
            }
        }
        if (auto test = node.require("test")) {
            if (auto condition = read_condition(*test, 0)) {
                out.test = std::move(*condition);
            }
        }
        out.why = node.string_at("why", true).value_or("");
        if (auto source = node.get("source")) {
            out.sources = read_source_refs(*source);
        }
        if (auto branch = node.get("then")) {
            out.on_true = read_branch(*branch, out.id, index, BranchSlot::on_true);
        }
        if (auto branch = node.get("else")) {
            out.on_false = read_branch(*branch, out.id, index, BranchSlot::on_false);
        }
        if (auto branch = node.get("missing")) {
            out.on_missing = read_branch(*branch, out.id, index, BranchSlot::on_missing);
        }
        m_tree.nodes.push_back(std::move(out));
    }

    std::optional<Condition> read_condition(const YamlNode& node, std::size_t depth) {
        std::vector<std::string_view> keys{"fact", "all", "any", "not"};
        for (Op op : k_ops) {
            keys.push_back(to_string(op));
        }
        if (!node.expect_map(keys)) {
            return std::nullopt;
        }
        if (depth > detail::k_max_nesting_depth) {
            node.error("condition nested too deeply");
            return std::nullopt;
        }
        const bool has_fact = node.get("fact").has_value();
        int forms = has_fact ? 1 : 0;
        for (std::string_view key : {"all", "any", "not"}) {
            forms += node.get(key).has_value() ? 1 : 0;
        }
        if (forms != 1) {
            node.error("a condition needs exactly one of `fact` (with an operator), `all`, `any` "
                       "or `not`");
            return std::nullopt;
        }
        if (has_fact) {
            return read_comparison(node);
        }
        Condition out;
        if (auto negated = node.get("not")) {
            out.kind = Condition::Kind::negate;
            auto child = read_condition(*negated, depth + 1);
            if (!child) {
                return std::nullopt;
            }
            out.children.push_back(std::move(*child));
            return out;
        }
        const bool is_all = node.get("all").has_value();
        out.kind = is_all ? Condition::Kind::all : Condition::Kind::any;
        YamlNode list = *node.get(is_all ? "all" : "any");
        bool ok = true;
        for (const YamlNode& item : list.items()) {
            auto child = read_condition(item, depth + 1);
            if (child) {
                out.children.push_back(std::move(*child));
            } else {
                ok = false;
            }
        }
        if (ok && list.is_sequence() && out.children.empty()) {
            list.error("expected at least one condition");
            return std::nullopt;
        }
        if (!ok || !list.is_sequence()) {
            return std::nullopt;
        }
        return out;
    }

    // The definition of fact `name`; nullptr, reported at `fact_node`, when there is none.
    static const FactDefinition* known_fact(const YamlNode& fact_node, const std::string& name) {
        const FactDefinition* definition = find_fact(name);
        if (definition != nullptr) {
            return definition;
        }
        std::vector<std::string_view> names;
        for (const FactDefinition& fact : fact_definitions()) {
            names.push_back(fact.name);
        }
        std::string hint = detail::closest_match(name, names);
        fact_node.error(hint.empty()
                            ? fmt::format("unknown fact '{}' (docs/decision-rules.md "
                                          "lists every fact)",
                                          name)
                            : fmt::format("unknown fact '{}'; did you mean '{}'?", name, hint));
        return nullptr;
    }

    std::optional<Condition> read_comparison(const YamlNode& node) {
        auto fact_node = node.get("fact");
        auto name = fact_node->as_string();
        std::vector<std::pair<Op, YamlNode>> operators;
        for (Op op : k_ops) {
            if (auto operand = node.get(to_string(op))) {
                operators.emplace_back(op, *operand);
            }
        }
        if (operators.size() != 1) {
            node.error(fmt::format("a fact test needs exactly one operator ({}), got {}",
                                   "eq, ne, lt, le, gt, ge, in, not_in, contains or exists",
                                   operators.size()));
            return std::nullopt;
        }
        if (!name) {
            return std::nullopt;
        }
        const FactDefinition* definition = known_fact(*fact_node, *name);
        if (definition == nullptr) {
            return std::nullopt;
        }
        auto& [op, operand] = operators.front();
        if (!op_allowed(definition->type, op)) {
            operand.error(fmt::format("operator '{}' does not apply to {} fact '{}' (use {})",
                                      to_string(op), to_string(definition->type), *name,
                                      allowed_ops(definition->type)));
            return std::nullopt;
        }
        Condition out;
        out.fact = *name;
        out.op = op;
        if (!read_operands(operand, op, *definition, out.values)) {
            return std::nullopt;
        }
        return out;
    }

    // The operand(s) of operator `op` on `definition`'s fact into `values`; false when bad.
    bool read_operands(const YamlNode& operand, Op op, const FactDefinition& definition,
                       std::vector<FactValue>& values) {
        if (op == Op::exists) {
            auto wanted = operand.as_bool();
            if (!wanted) {
                return false;
            }
            values.emplace_back(*wanted);
            return true;
        }
        if (op == Op::in || op == Op::not_in) {
            bool ok = true;
            for (const YamlNode& item : operand.items()) {
                auto value = read_operand(item, definition);
                if (value) {
                    values.push_back(std::move(*value));
                } else {
                    ok = false;
                }
            }
            if (ok && operand.is_sequence() && values.empty()) {
                operand.error("expected at least one value");
            }
            return ok && !values.empty();
        }
        // `contains` tests a list fact for one string; everything else compares like with like.
        FactDefinition element = definition;
        if (op == Op::contains) {
            element.type = FactType::string;
        }
        auto value = read_operand(operand, element);
        if (!value) {
            return false;
        }
        values.push_back(std::move(*value));
        return true;
    }

    std::optional<FactValue> read_operand(const YamlNode& node, const FactDefinition& fact) {
        switch (fact.type) {
        case FactType::number:
            if (auto value = node.as_si_number()) {
                return FactValue{*value};
            }
            return std::nullopt;
        case FactType::boolean:
            if (auto value = node.as_bool()) {
                return FactValue{*value};
            }
            return std::nullopt;
        case FactType::string:
        case FactType::list: {
            if (!fact.choices.empty() && fact.type == FactType::string) {
                if (auto index = node.as_choice(fact.choices)) {
                    return FactValue{std::string(fact.choices.at(*index))};
                }
                return std::nullopt;
            }
            auto text = node.as_string();
            if (!text) {
                return std::nullopt;
            }
            if (fact.name == "gpu_models") {
                defer(GpuOperand{*text, location_of(node)});
            }
            return FactValue{*text};
        }
        }
        return std::nullopt;
    }

    // The names as written; each is resolved, and a repeat dropped, by resolve_tree().
    std::vector<std::string> read_gpu_list(const YamlNode& node, GpuNames where) {
        auto names = node.as_string_list();
        if (!names) {
            return {};
        }
        const std::vector<YamlNode> items =
            node.is_sequence() ? node.items() : std::vector<YamlNode>{node};
        // Fewer items than names only when the visit budget ran out, and then nothing is deferred.
        for (std::size_t i = 0; i < std::min(names->size(), items.size()); ++i) {
            where.items.push_back(location_of(items[i]));
        }
        defer(std::move(where));
        return std::move(*names);
    }

    static std::vector<PurchaseOption> read_purchase_list(const YamlNode& node) {
        std::vector<PurchaseOption> out;
        std::vector<std::string_view> names;
        names.reserve(k_all_purchase_options.size());
        for (PurchaseOption option : k_all_purchase_options) {
            names.push_back(to_string(option));
        }
        const std::vector<YamlNode> items =
            node.is_sequence() ? node.items() : std::vector<YamlNode>{node};
        for (const YamlNode& item : items) {
            auto index = item.as_choice(names);
            if (!index) {
                continue;
            }
            const PurchaseOption option = k_all_purchase_options.at(*index);
            if (std::find(out.begin(), out.end(), option) != out.end()) {
                item.error(fmt::format("'{}' is listed twice", to_string(option)));
                continue;
            }
            out.push_back(option);
        }
        return out;
    }

    Branch read_branch(const YamlNode& node, const std::string& from, std::uint32_t index,
                       BranchSlot slot) {
        Branch out;
        out.place = {node.mark().first, node.mark().second};
        if (!node.expect_map({"gpus", "purchase", "interconnect", "why", "source", "next"})) {
            return out;
        }
        if (auto gpus = node.get("gpus")) {
            read_branch_gpus(*gpus, index, slot, out.gpus);
        }
        if (auto purchase = node.get("purchase")) {
            read_branch_purchase(*purchase, out.purchase);
        }
        if (auto interconnect = node.get("interconnect")) {
            if (interconnect->expect_map({"nvlink", "min_network_gbps"})) {
                if (auto nvlink = interconnect->get("nvlink")) {
                    out.interconnect.nvlink = nvlink->as_bool().value_or(false);
                }
                out.interconnect.min_network_gbps =
                    interconnect->number_at("min_network_gbps", false, detail::k_positive);
            }
        }
        out.why = node.string_at("why", false).value_or("");
        if (out.has_effects() && !node.get("why")) {
            node.error("missing required key 'why': a branch with effects must say why");
        }
        if (auto source = node.get("source")) {
            out.sources = read_source_refs(*source);
        }
        if (auto next = node.get("next")) {
            if (auto target = next->as_string()) {
                out.next = *target;
                m_pending.push_back({*target, from, next->diagnostic("")});
            }
        }
        return out;
    }

    // A branch's `gpus`: prefer, exclude and only lists, checked against each other later.
    void read_branch_gpus(const YamlNode& gpus, std::uint32_t index, BranchSlot slot,
                          GpuEffects& out) {
        if (!gpus.expect_map({"prefer", "exclude", "only"})) {
            return;
        }
        if (auto list = gpus.get("prefer")) {
            out.prefer = read_gpu_list(*list, {index, slot, GpuList::prefer, {}});
        }
        if (auto list = gpus.get("exclude")) {
            out.exclude = read_gpu_list(*list, {index, slot, GpuList::exclude, {}});
        }
        if (auto list = gpus.get("only")) {
            out.only = read_gpu_list(*list, {index, slot, GpuList::only, {}});
        }
        defer(GpuConflicts{index, slot, location_of(gpus)});
    }

    // A branch's `purchase`: prefer and exclude lists, no option in both.
    static void read_branch_purchase(const YamlNode& purchase, PurchaseEffects& out) {
        if (!purchase.expect_map({"prefer", "exclude"})) {
            return;
        }
        if (auto list = purchase.get("prefer")) {
            out.prefer = read_purchase_list(*list);
        }
        if (auto list = purchase.get("exclude")) {
            out.exclude = read_purchase_list(*list);
        }
        for (PurchaseOption option : out.prefer) {
            if (std::find(out.exclude.begin(), out.exclude.end(), option) != out.exclude.end()) {
                purchase.error(
                    fmt::format("'{}' is both preferred and excluded", to_string(option)));
            }
        }
    }

    // Every `next` names a node; the tree has no cycle and no node the root cannot reach.
    void check_references() {
        bool resolved = true;
        for (const PendingNext& pending : m_pending) {
            if (!m_node_ids.contains(pending.target)) {
                resolved = false;
                Diagnostic diagnostic = pending.where;
                diagnostic.message = unknown_node_message(pending.target);
                m_context.sink->add(std::move(diagnostic));
            }
        }
        if (!resolved || m_tree.root.empty() || find_node(m_tree, m_tree.root) == nullptr) {
            return;
        }
        enum class Mark { none, active, done };
        std::map<std::string, Mark, std::less<>> marks;
        // Iterative depth-first search: a hostile tree must not exhaust the stack.
        struct Frame {
            const Node* node;
            std::size_t next_branch;
        };
        std::vector<Frame> stack{{find_node(m_tree, m_tree.root), 0}};
        marks[m_tree.root] = Mark::active;
        while (!stack.empty()) {
            Frame& frame = stack.back();
            const std::array<const Branch*, 3> branches{
                &frame.node->on_true, &frame.node->on_false,
                frame.node->on_missing ? &*frame.node->on_missing : nullptr};
            constexpr std::array<std::string_view, 3> k_keys{"then", "else", "missing"};
            const std::string_view key = k_keys.at(std::min(frame.next_branch, k_keys.size() - 1));
            if (frame.next_branch >= branches.size()) {
                marks[frame.node->id] = Mark::done;
                stack.pop_back();
                continue;
            }
            const Branch* branch = branches.at(frame.next_branch++);
            if (branch == nullptr || branch->next.empty()) {
                continue;
            }
            const Mark mark = marks[branch->next];
            if (mark == Mark::active) {
                m_context.sink->add(
                    Diagnostic{m_tree.file, branch->place.line, branch->place.column,
                               fmt::format("/nodes/{}/{}/next", index_of(frame.node->id), key),
                               fmt::format("node '{}' leads back to '{}': the "
                                           "tree must not loop",
                                           frame.node->id, branch->next)});
                continue;
            }
            if (mark == Mark::none) {
                marks[branch->next] = Mark::active;
                stack.push_back({find_node(m_tree, branch->next), 0});
            }
        }
        for (std::size_t i = 0; i < m_tree.nodes.size(); ++i) {
            const Node& node = m_tree.nodes[i];
            if (!marks.contains(node.id)) {
                m_context.sink->add(Diagnostic{
                    m_tree.file, node.place.line, node.place.column, fmt::format("/nodes/{}", i),
                    fmt::format("node '{}' is never reached from the root '{}'", node.id,
                                m_tree.root)});
            }
        }
    }

    std::size_t index_of(const std::string& id) const {
        for (std::size_t i = 0; i < m_tree.nodes.size(); ++i) {
            if (m_tree.nodes[i].id == id) {
                return i;
            }
        }
        return m_tree.nodes.size();
    }

    const TextFile& m_file;
    YamlContext m_context;
    Tree m_tree;
    std::vector<GpuCheck> m_checks;
    detail::SourceIds m_source_ids;
    std::set<std::string, std::less<>> m_node_ids;
    std::vector<PendingNext> m_pending;
};

// Carries out the GpuChecks of a parsed tree against a catalog.
class TreeResolver {
public:
    TreeResolver(const catalog::Catalog* catalog, UnknownGpus unknown, Tree& tree,
                 DiagnosticSink& sink)
        : m_catalog(catalog), m_unknown(unknown), m_tree(tree), m_sink(sink) {}

    void check(const GpuOperand& operand) { (void)resolve(operand.name, operand.location); }

    void check(const GpuNames& names) {
        std::vector<std::string>& list = list_at(names);
        if (list.size() != names.items.size()) {
            throw RuntimeError(fmt::format("parsed decision tree {}: node {} has {} GPU names "
                                           "where {} are written",
                                           m_tree.file, names.node, list.size(),
                                           names.items.size()));
        }
        std::vector<std::string> out;
        for (std::size_t i = 0; i < list.size(); ++i) {
            std::string name = resolve(list[i], names.items[i]);
            if (std::find(out.begin(), out.end(), name) != out.end()) {
                report(names.items[i], fmt::format("'{}' is listed twice", name));
                continue;
            }
            out.push_back(std::move(name));
        }
        list = std::move(out);
    }

    void check(const GpuConflicts& conflicts) {
        const GpuEffects& gpus = branch_at(conflicts.node, conflicts.branch).gpus;
        for (const std::string& name : gpus.prefer) {
            const bool excluded =
                std::find(gpus.exclude.begin(), gpus.exclude.end(), name) != gpus.exclude.end();
            const bool outside = !gpus.only.empty() && std::find(gpus.only.begin(), gpus.only.end(),
                                                                 name) == gpus.only.end();
            if (excluded || outside) {
                report(conflicts.location,
                       fmt::format("'{}' is both preferred and ruled out", name));
            }
        }
    }

    // Every `gpu_models` operand of the tests becomes the catalog's name; reports nothing, as the
    // GpuOperand checks have.
    void resolve_operands() {
        if (m_catalog == nullptr) {
            return;
        }
        for (Node& node : m_tree.nodes) {
            resolve_operands(node.test);
        }
    }

private:
    // The catalog's canonical name for `name`; without a catalog, the name as written.
    std::string resolve(const std::string& name, const Location& where) {
        if (m_catalog == nullptr) {
            return name;
        }
        if (const catalog::Gpu* gpu = catalog::find_gpu(*m_catalog, name)) {
            return gpu->name;
        }
        if (m_unknown == UnknownGpus::allow) {
            return name;
        }
        std::vector<std::string_view> names;
        for (const catalog::Gpu& gpu : m_catalog->gpus) {
            names.push_back(gpu.name);
        }
        std::string hint = detail::closest_match(name, names);
        report(where, hint.empty()
                          ? fmt::format("unknown GPU model '{}': not in the catalog", name)
                          : fmt::format("unknown GPU model '{}'; did you mean '{}'?", name, hint));
        return name;
    }

    void resolve_operands(Condition& condition) {
        if (condition.kind == Condition::Kind::compare && condition.fact == "gpu_models") {
            for (FactValue& value : condition.values) {
                if (auto* name = std::get_if<std::string>(&value)) {
                    if (const catalog::Gpu* gpu = catalog::find_gpu(*m_catalog, *name)) {
                        *name = gpu->name;
                    }
                }
            }
        }
        for (Condition& child : condition.children) {
            resolve_operands(child);
        }
    }

    void report(const Location& where, std::string message) {
        m_sink.add(Diagnostic{m_tree.file, where.place.line, where.place.column, where.path,
                              std::move(message)});
    }

    Branch& branch_at(std::uint32_t index, BranchSlot slot) {
        Branch* branch = nullptr;
        if (index < m_tree.nodes.size()) {
            Node& node = m_tree.nodes[index];
            switch (slot) {
            case BranchSlot::on_true:
                branch = &node.on_true;
                break;
            case BranchSlot::on_false:
                branch = &node.on_false;
                break;
            case BranchSlot::on_missing:
                branch = node.on_missing ? &*node.on_missing : nullptr;
                break;
            }
        }
        if (branch == nullptr) {
            throw RuntimeError(fmt::format("parsed decision tree {}: node {} has no such branch",
                                           m_tree.file, index));
        }
        return *branch;
    }

    std::vector<std::string>& list_at(const GpuNames& names) {
        GpuEffects& gpus = branch_at(names.node, names.branch).gpus;
        switch (names.list) {
        case GpuList::prefer:
            return gpus.prefer;
        case GpuList::exclude:
            return gpus.exclude;
        case GpuList::only:
            return gpus.only;
        }
        throw RuntimeError(
            fmt::format("parsed decision tree {}: no such list of GPU models", m_tree.file));
    }

    const catalog::Catalog* m_catalog;
    UnknownGpus m_unknown;
    Tree& m_tree;
    DiagnosticSink& m_sink;
};

// Reports the parse problems and the checks' own in document order; returns the resolved tree.
Tree resolve(ParsedTree parsed, const catalog::Catalog* catalog, UnknownGpus unknown,
             DiagnosticSink& sink) {
    TreeResolver resolver(catalog, unknown, parsed.tree, sink);
    std::size_t reported = 0;
    const auto report_parse_problems = [&](std::size_t until) {
        for (; reported < std::min<std::size_t>(until, parsed.diagnostics.size()); ++reported) {
            sink.add(parsed.diagnostics[reported]);
        }
    };
    for (const GpuCheck& check : parsed.gpu_checks) {
        report_parse_problems(check.diagnostics_before);
        std::visit([&resolver](const auto& what) { resolver.check(what); }, check.check);
    }
    report_parse_problems(parsed.diagnostics.size());
    resolver.resolve_operands();
    return std::move(parsed.tree);
}

} // namespace

ParsedTree parse_tree(const TextFile& file) {
    DiagnosticSink sink;
    return TreeReader(file, sink).read();
}

Tree resolve_tree(ParsedTree parsed, const catalog::Catalog* catalog, UnknownGpus unknown) {
    DiagnosticSink sink;
    Tree tree = resolve(std::move(parsed), catalog, unknown, sink);
    sink.throw_if_any();
    return tree;
}

Tree read_tree(const TextFile& file, const catalog::Catalog* catalog, UnknownGpus unknown) {
    return resolve_tree(parse_tree(file), catalog, unknown);
}

std::vector<Diagnostic> validate_tree(const TextFile& file, const catalog::Catalog* catalog,
                                      UnknownGpus unknown) {
    DiagnosticSink sink;
    (void)resolve(parse_tree(file), catalog, unknown, sink);
    return sink.diagnostics();
}

} // namespace gpuplan::decide
