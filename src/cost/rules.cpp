#include "gpuplan/cost/rules.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace gpuplan::cost {

namespace {

// The decision's verdict on the options of one plan. The verdict depends only on a few fields of
// an option, so it is reached and worded once: the favouring notes per GPU model and purchase
// option, the exclusion per node shape.
class Verdicts {
public:
    Verdicts(Plan& plan, const decide::Decision& decision) : m_plan(plan), m_decision(decision) {}

    // Marks `option` with what the decision says of it.
    void apply(Option& option);

private:
    // A GPU model's preference rank, if the decision favours it, and the notes that say why.
    using GpuVerdict = std::pair<std::optional<std::size_t>, std::vector<NoteIndex>>;
    // GPU model, purchase option, GPUs share a node, several nodes, NVLink, network speed: all
    // that decide::rule_out looks at.
    using Shape = std::tuple<std::string, PurchaseOption, bool, bool, bool, std::optional<double>>;
    // The exclusion's words, or the caveat's note when the rule cannot check the option.
    struct Verdict {
        std::optional<std::string> excluded;
        std::optional<NoteIndex> caveat;
    };

    const GpuVerdict& gpu_verdict(const std::string& gpu);
    const std::optional<NoteIndex>& purchase_note(PurchaseOption purchase);
    const Verdict& shape_verdict(const Option& option);
    NoteIndex add(Note note) {
        m_plan.notes.push_back(std::move(note));
        return static_cast<NoteIndex>(m_plan.notes.size() - 1);
    }

    Plan& m_plan;
    const decide::Decision& m_decision;
    std::map<std::string, GpuVerdict, std::less<>> m_by_gpu;
    // Options come grouped by instance type: the previous option's GPU model is usually this one's.
    std::map<std::string, GpuVerdict, std::less<>>::iterator m_last_gpu = m_by_gpu.end();
    std::map<PurchaseOption, std::optional<NoteIndex>> m_by_purchase;
    std::map<Shape, Verdict> m_exclusions;
};

const Verdicts::GpuVerdict& Verdicts::gpu_verdict(const std::string& gpu) {
    if (m_last_gpu == m_by_gpu.end() || m_last_gpu->first != gpu) {
        m_last_gpu = m_by_gpu.find(gpu);
    }
    if (m_last_gpu != m_by_gpu.end()) {
        return m_last_gpu->second;
    }
    GpuVerdict verdict;
    verdict.first = decide::preference_rank(m_decision, gpu);
    if (verdict.first) {
        for (const decide::CandidateGpu& candidate : m_decision.candidate_gpus) {
            if (candidate.gpu == gpu && candidate.reason) {
                verdict.second.push_back(
                    add(make_note(NoteKind::rule_favours_gpu, {}, gpu, candidate.reason->rule)));
            }
        }
    }
    m_last_gpu = m_by_gpu.emplace(gpu, std::move(verdict)).first;
    return m_last_gpu->second;
}

const std::optional<NoteIndex>& Verdicts::purchase_note(PurchaseOption purchase) {
    auto found = m_by_purchase.find(purchase);
    if (found == m_by_purchase.end()) {
        const decide::PurchaseVerdict& verdict = decide::verdict_for(m_decision, purchase);
        std::optional<NoteIndex> note;
        if (verdict.status == decide::PurchaseStatus::preferred && verdict.reason) {
            note = add(make_note(NoteKind::rule_favours_purchase, {},
                                 std::string(to_string(purchase)), verdict.reason->rule));
        }
        found = m_by_purchase.emplace(purchase, note).first;
    }
    return found->second;
}

const Verdicts::Verdict& Verdicts::shape_verdict(const Option& option) {
    const Shape shape{option.gpu,       option.purchase, option.gpu_count > option.nodes,
                      option.nodes > 1, option.nvlink,   option.network_gbps};
    auto found = m_exclusions.find(shape);
    if (found == m_exclusions.end()) {
        const decide::Configuration configuration{.gpu = option.gpu,
                                                  .purchase = option.purchase,
                                                  .gpu_count = option.gpu_count,
                                                  .nodes = option.nodes,
                                                  .nvlink = option.nvlink,
                                                  .network_gbps = option.network_gbps};
        Verdict words;
        if (auto out = decide::rule_out(m_decision, configuration)) {
            words.excluded = fmt::format("excluded by rule '{}': {}. {}", out->reason.rule,
                                         out->what, out->reason.why);
        } else if (auto caveat = decide::rule_caveat(m_decision, configuration)) {
            words.caveat =
                add(make_note(NoteKind::rule_unchecked, {}, caveat->reason.rule, caveat->what));
        }
        found = m_exclusions.emplace(shape, std::move(words)).first;
    }
    return found->second;
}

void Verdicts::apply(Option& option) {
    const GpuVerdict& gpu = gpu_verdict(option.gpu);
    const std::optional<NoteIndex>& purchase = purchase_note(option.purchase);
    // Room for the notes added here at once: one allocation per option, not one per note.
    option.notes.reserve(option.notes.size() + (gpu.first ? gpu.second.size() : 0) +
                         (purchase ? 1 : 0));
    if (gpu.first) {
        option.rule_preference = gpu.first;
        option.notes.insert(option.notes.end(), gpu.second.begin(), gpu.second.end());
    }
    if (purchase) {
        option.notes.push_back(*purchase);
    }
    if (option.rejection) {
        return;
    }
    const Verdict& verdict = shape_verdict(option);
    if (verdict.excluded) {
        option.rejection = Rejection::excluded_by_rule;
        option.reason = *verdict.excluded;
    } else if (verdict.caveat) {
        option.notes.push_back(*verdict.caveat);
    }
}

} // namespace

void apply_decision(Plan& plan, const decide::Decision& decision, ExcludedOptions excluded) {
    Verdicts verdicts(plan, decision);
    for (Option& option : plan.options()) {
        verdicts.apply(option);
    }
    if (excluded == ExcludedOptions::drop) {
        plan.option_list.erase_if(
            [](const Option& option) { return option.rejection == Rejection::excluded_by_rule; });
    }
}

} // namespace gpuplan::cost
