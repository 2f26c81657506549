#pragma once
// The names of an enum's values, written once as a table (docs/architecture.md, "Enum names"):
// `to_string`, `parse_*` and the lists of accepted names all read it. A value may have aliases
// (`fsdp` for `zero3`, `md` for `markdown`): its first entry is its name, later ones are only
// accepted when parsing. Written as
//   constexpr EnumNames k_task_names{std::to_array<std::pair<std::string_view, Task>>(
//       {{"train", Task::train}, {"finetune", Task::finetune}, {"inference", Task::inference}})};

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan {

template <typename E, std::size_t N> class EnumNames {
public:
    using Entry = std::pair<std::string_view, E>;

    constexpr explicit EnumNames(std::array<Entry, N> entries) : m_entries(std::move(entries)) {}

    // The value's name: its first entry; "?" for a value the table lacks.
    [[nodiscard]] constexpr std::string_view name(E value) const {
        for (const Entry& entry : m_entries) {
            if (entry.second == value) {
                return entry.first;
            }
        }
        return "?";
    }

    // The value named (or aliased) `text`, exactly as written.
    [[nodiscard]] constexpr std::optional<E> parse(std::string_view text) const {
        for (const Entry& entry : m_entries) {
            if (entry.first == text) {
                return entry.second;
            }
        }
        return std::nullopt;
    }

    // Every accepted spelling, aliases included, in table order (for did-you-mean).
    [[nodiscard]] std::vector<std::string_view> spellings() const {
        std::vector<std::string_view> out;
        out.reserve(N);
        for (const Entry& entry : m_entries) {
            out.push_back(entry.first);
        }
        return out;
    }

    [[nodiscard]] constexpr const std::array<Entry, N>& entries() const { return m_entries; }

private:
    std::array<Entry, N> m_entries;
};

} // namespace gpuplan
