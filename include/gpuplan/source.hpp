#pragma once
// Where a figure comes from: the entries of the `sources` table every sourced file carries
// (catalog files, decision trees).

#include "gpuplan/units.hpp"

#include <optional>
#include <string>

namespace gpuplan {

// Where a figure comes from.
struct Source {
    std::string id;
    std::string title;
    std::string url;
    std::string grade; // L list, P provider doc, R reported, E estimate, D derived; may be empty
    std::string note;
    // The source publishes no date for what it states: the as_of of figures citing it is the
    // date they were read (or an estimate its note explains), not the date they were set.
    bool undated = false;
    // The date the source itself states for what it says (`as_of`); nullopt when it states none.
    std::optional<Date> as_of;

    bool operator==(const Source&) const = default;
};

} // namespace gpuplan
