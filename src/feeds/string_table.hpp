#pragma once
// Dense ids for the distinct strings of a feed (instance keys, regions, zones), so that each
// row costs one hash lookup and price rows sort and compare by number, not by text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::feeds {

// Numbers distinct strings 0, 1, 2, ... in order of first appearance. Each distinct string is
// copied once; lookups hash the bytes and never allocate.
class StringTable {
public:
    // The id of `text`, added when new.
    std::uint32_t intern(std::string_view text);
    // The id of `text`; nullopt when it was never added.
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view text) const;
    [[nodiscard]] const std::string& name(std::uint32_t id) const { return m_names[id]; }
    [[nodiscard]] std::size_t size() const { return m_names.size(); }
    // Every id's position when the strings are sorted byte-wise (as std::string compares).
    [[nodiscard]] std::vector<std::uint32_t> sorted_ranks() const;

private:
    // The slot holding `text`, or the empty slot where it would go.
    [[nodiscard]] std::size_t slot_of(std::string_view text, std::uint64_t hash) const;
    void grow();

    std::vector<std::string> m_names;
    std::vector<std::uint64_t> m_hashes; // per id
    std::vector<std::uint32_t> m_slots;  // id + 1; 0 = empty; a power of two in size
};

} // namespace gpuplan::feeds
