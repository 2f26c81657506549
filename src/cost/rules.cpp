#include "gpuplan/cost/rules.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace gpuplan::cost {

void apply_decision(Plan& plan, const decide::Decision& decision, ExcludedOptions excluded) {
    // The verdict depends only on a few fields of an option, so it is reached and worded once:
    // the favouring notes per GPU model and purchase option, the exclusion per node shape.
    std::map<std::string, std::pair<std::optional<std::size_t>, std::vector<NoteIndex>>,
             std::less<>>
        by_gpu;
    std::map<PurchaseOption, std::optional<NoteIndex>> by_purchase;
    // GPU model, purchase option, GPUs share a node, several nodes, NVLink, network speed: all
    // that decide::rule_out looks at.
    using Shape = std::tuple<std::string, PurchaseOption, bool, bool, bool, std::optional<double>>;
    // The exclusion's words, or the caveat's note when the rule cannot check the option.
    struct Verdict {
        std::optional<std::string> excluded;
        std::optional<NoteIndex> caveat;
    };
    std::map<Shape, Verdict> exclusions;
    const auto add = [&plan](Note note) {
        plan.notes.push_back(std::move(note));
        return static_cast<NoteIndex>(plan.notes.size() - 1);
    };
    // Options come grouped by instance type: the previous option's GPU model is usually this one's.
    auto gpu = by_gpu.end();
    for (Option& option : plan.options) {
        if (gpu == by_gpu.end() || gpu->first != option.gpu) {
            gpu = by_gpu.find(option.gpu);
        }
        if (gpu == by_gpu.end()) {
            std::pair<std::optional<std::size_t>, std::vector<NoteIndex>> verdict;
            verdict.first = decide::preference_rank(decision, option.gpu);
            if (verdict.first) {
                for (const decide::CandidateGpu& candidate : decision.candidate_gpus) {
                    if (candidate.gpu == option.gpu && candidate.reason) {
                        verdict.second.push_back(add(make_note(
                            NoteKind::rule_favours_gpu, {}, option.gpu, candidate.reason->rule)));
                    }
                }
            }
            gpu = by_gpu.emplace(option.gpu, std::move(verdict)).first;
        }
        auto purchase = by_purchase.find(option.purchase);
        if (purchase == by_purchase.end()) {
            const decide::PurchaseVerdict& verdict = decide::verdict_for(decision, option.purchase);
            std::optional<NoteIndex> note;
            if (verdict.status == decide::PurchaseStatus::preferred && verdict.reason) {
                note =
                    add(make_note(NoteKind::rule_favours_purchase, {},
                                  std::string(to_string(option.purchase)), verdict.reason->rule));
            }
            purchase = by_purchase.emplace(option.purchase, note).first;
        }
        // Room for the notes added here at once: one allocation per option, not one per note.
        option.notes.reserve(option.notes.size() +
                             (gpu->second.first ? gpu->second.second.size() : 0) +
                             (purchase->second ? 1 : 0));
        if (gpu->second.first) {
            option.rule_preference = gpu->second.first;
            option.notes.insert(option.notes.end(), gpu->second.second.begin(),
                                gpu->second.second.end());
        }
        if (purchase->second) {
            option.notes.push_back(*purchase->second);
        }
        if (option.rejection) {
            continue;
        }
        const Shape shape{option.gpu,       option.purchase, option.gpu_count > option.nodes,
                          option.nodes > 1, option.nvlink,   option.network_gbps};
        auto verdict = exclusions.find(shape);
        if (verdict == exclusions.end()) {
            const decide::Configuration configuration{.gpu = option.gpu,
                                                      .purchase = option.purchase,
                                                      .gpu_count = option.gpu_count,
                                                      .nodes = option.nodes,
                                                      .nvlink = option.nvlink,
                                                      .network_gbps = option.network_gbps};
            Verdict words;
            if (auto out = decide::rule_out(decision, configuration)) {
                words.excluded = fmt::format("excluded by rule '{}': {}. {}", out->reason.rule,
                                             out->what, out->reason.why);
            } else if (auto caveat = decide::rule_caveat(decision, configuration)) {
                words.caveat =
                    add(make_note(NoteKind::rule_unchecked, {}, caveat->reason.rule, caveat->what));
            }
            verdict = exclusions.emplace(shape, std::move(words)).first;
        }
        if (verdict->second.excluded) {
            option.rejection = Rejection::excluded_by_rule;
            option.reason = *verdict->second.excluded;
        } else if (verdict->second.caveat) {
            option.notes.push_back(*verdict->second.caveat);
        }
    }
    if (excluded == ExcludedOptions::drop) {
        std::erase_if(plan.options, [](const Option& option) {
            return option.rejection == Rejection::excluded_by_rule;
        });
    }
}

} // namespace gpuplan::cost
