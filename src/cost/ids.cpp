#include "gpuplan/cost/plan.hpp"

#include <array>
#include <charconv>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::cost {

namespace {

// The parts an id joins with '/', then a larger count's "@N".
struct IdParts {
    std::array<std::string_view, 4> parts;
    std::size_t count = 0;
    std::array<char, 12> suffix{}; // "@N" for a larger count, else empty
    std::size_t suffix_size = 0;

    [[nodiscard]] std::string_view tail() const { return {suffix.data(), suffix_size}; }
};

// Part `i` of an option's id (without building the others); empty past the last part:
// provider/region/instance/purchase, or self_built/BUILD[/bridge].
std::string_view id_part(const Option& o, std::size_t i) {
    if (o.purchase != PurchaseOption::self_built) {
        switch (i) {
        case 0:
            return o.provider;
        case 1:
            return o.region;
        case 2:
            return o.instance;
        case 3:
            return gpuplan::to_string(o.purchase);
        default:
            return {};
        }
    }
    switch (i) {
    case 0:
        return "self_built";
    case 1:
        return o.instance;
    case 2:
        return o.bridged ? "bridge" : std::string_view();
    default:
        return {};
    }
}

IdParts id_parts(const Option& o) {
    IdParts id;
    id.count = o.purchase != PurchaseOption::self_built ? 4 : o.bridged ? 3 : 2;
    for (std::size_t i = 0; i < id.count; ++i) {
        id.parts[i] = id_part(o, i);
    }
    if (o.larger_count) {
        const auto [end, ec] =
            std::to_chars(id.suffix.data() + 1, id.suffix.data() + id.suffix.size(), o.gpu_count);
        id.suffix[0] = '@';
        id.suffix_size = ec == std::errc{} ? static_cast<std::size_t>(end - id.suffix.data()) : 1;
    }
    return id;
}

// The characters of an id one at a time, '/' between the parts, then the suffix; 0 past the end.
class IdCursor {
public:
    // Walks `id` from its part `first` on, from the '/' before it when it is not the first.
    IdCursor(const IdParts& id, std::size_t first)
        : m_id(id), m_part(first), m_slash(first > 0 && first < id.count) {}

    int next() {
        if (m_slash) {
            m_slash = false;
            return '/';
        }
        while (m_part < m_id.count) {
            const std::string_view part = m_id.parts[m_part];
            if (m_char < part.size()) {
                return static_cast<unsigned char>(part[m_char++]);
            }
            ++m_part;
            m_char = 0;
            if (m_part < m_id.count) {
                return '/';
            }
        }
        const std::string_view tail = m_id.tail();
        return m_char < tail.size() ? static_cast<unsigned char>(tail[m_char++]) : 0;
    }

private:
    IdParts m_id;
    std::size_t m_part = 0;
    std::size_t m_char = 0;
    bool m_slash = false;
};

} // namespace

std::string Option::id() const {
    const IdParts id = id_parts(*this);
    std::string out;
    for (std::size_t i = 0; i < id.count; ++i) {
        if (i > 0) {
            out += '/';
        }
        out += id.parts[i];
    }
    out += id.tail();
    return out;
}

namespace {

// How a's id orders against b's when the first part that differs settles it: a character where
// the two parts differ orders the ids as it orders the parts. nullopt when one part is a prefix of
// the other or every part is equal, where the separators and the suffix decide.
std::optional<bool> first_difference(const Option& a, const Option& b) {
    constexpr std::size_t k_max_parts = 4;
    for (std::size_t i = 0; i < k_max_parts; ++i) {
        const std::string_view pa = id_part(a, i);
        const std::string_view pb = id_part(b, i);
        if (pa == pb) {
            continue;
        }
        const std::size_t n = std::min(pa.size(), pb.size());
        for (std::size_t k = 0; k < n; ++k) {
            if (pa[k] != pb[k]) {
                return static_cast<unsigned char>(pa[k]) < static_cast<unsigned char>(pb[k]);
            }
        }
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

bool id_less(const Option& a, const Option& b) {
    // Most comparisons are settled inside the first part that differs, with no id built.
    if (const std::optional<bool> settled = first_difference(a, b)) {
        return *settled;
    }
    // Equal leading parts (a provider, a region) compare equal with their separators; the walk
    // character by character starts at the first part that differs, so the order is that of the
    // id strings.
    const IdParts pa = id_parts(a);
    const IdParts pb = id_parts(b);
    std::size_t same = 0;
    while (same < pa.count && same < pb.count && pa.parts[same] == pb.parts[same]) {
        ++same;
    }
    if (same == pa.count && same == pb.count) {
        return pa.tail() < pb.tail();
    }
    IdCursor x(pa, same);
    IdCursor y(pb, same);
    for (;;) {
        const int cx = x.next();
        const int cy = y.next();
        if (cx != cy) {
            return cx < cy;
        }
        if (cx == 0) {
            return false;
        }
    }
}

std::string gpus_text(const Option& option) {
    return option.gpu_slice.empty() ? fmt::format("{} x {}", option.gpu_count, option.gpu)
                                    : option.gpu_slice;
}

} // namespace gpuplan::cost
