// The words of the cost stage's notes: each code with its figures, as outputs print it.

#include "gpuplan/report/notes.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;
using cost::make_note;
using cost::NoteKind;
using report::note_text;

TEST_CASE("billing, discount and commitment notes quote their figures", "[notes]") {
    CHECK(note_text(make_note(NoteKind::billing, {3600.0, 60.0})) ==
          "billed per 3600 s, minimum 60 s");
    CHECK(note_text(make_note(NoteKind::negotiated_discount, {0.15})) ==
          "negotiated discount 15% applied to every charge");
    CHECK(note_text(
              make_note(NoteKind::commitment_use, {2.0, 36.0, 13140.0, 52560.0}, "all_upfront")) ==
          "2 terms of 36 months, all_upfront, take-or-pay: 13140 of 52560 committed "
          "instance-hours unused (25%)");
    CHECK(note_text(make_note(NoteKind::default_commitment_price)).find("default discount") !=
          std::string::npos);
}

TEST_CASE("spot notes word the rate's source, nodes and overheads", "[notes]") {
    // 0.05 per node-hour on 1 node; 98 GB checkpoint in 0.0263 h (1.6 min) every 2.32 h;
    // restart 0.25 h (15 min).
    CHECK(note_text(make_note(NoteKind::spot_risk, {0.05, 1.0, 98.0, 0.0263, 2.32, 0.25, 1.0263},
                              "provider default")) ==
          "spot: 0.05 interruptions/node-hour (provider default) x 1 node; checkpoint 98.0 GB in "
          "1.6 min every 2.32 h; restart 15 min; wall x1.0263");
    CHECK(note_text(make_note(NoteKind::spot_risk, {0.2, 4.0, 1.0, 0.0, 1.0, 0.5, 1.5},
                              "set for this run"))
              .find("(set for this run) x 4 nodes;") != std::string::npos);
    CHECK(note_text(make_note(NoteKind::spot_simulation, {500.0, 10.5, 12.25, 100.0, 120.0}, "USD",
                              "18446744073709551615")) ==
          "Monte Carlo (500 samples, seed 18446744073709551615): wall P50 10.50 h, P90 12.25 h; "
          "spot compute P50 100.00, P90 120.00 USD");
}

TEST_CASE("self-built and rule notes", "[notes]") {
    CHECK(note_text(make_note(NoteKind::lead_time, {12.0})) ==
          "lead time 12 weeks: the job waits for the hardware");
    CHECK(note_text(make_note(NoteKind::lead_time_bridged, {12.0, 3.75}, "A100-80GB", "USD")) ==
          "lead time 12 weeks: bridged on the cheapest cloud on-demand A100-80GB (3.7500 "
          "USD/GPU-hour)");
    CHECK(note_text(make_note(NoteKind::break_even_utilisation, {0.4567})) ==
          "break-even utilisation vs the cheapest on-demand: 45.7% of hours from delivery to the "
          "horizon");
    CHECK(note_text(make_note(NoteKind::break_even, {7.0}, "c/r/i/on_demand")) ==
          "break-even vs c/r/i/on_demand: month 7");
    CHECK(note_text(make_note(NoteKind::break_even, {-1.0}, "c/r/i/on_demand")) ==
          "break-even vs c/r/i/on_demand: none within the cash flows");
    CHECK(note_text(make_note(NoteKind::rule_favours_purchase, {}, "spot", "spot")) ==
          "the rules favour spot (rule 'spot')");
}
