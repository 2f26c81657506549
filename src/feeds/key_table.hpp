#pragma once
// Dense numbers for keys of two strings (a provider and an instance type, a region and a zone),
// so that a feed row costs one hash lookup and price rows sort and compare by number.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::feeds {

// Numbers distinct keys (first, second) 0, 1, 2, ... in order of first appearance. Each key is
// copied once; lookups hash the bytes and never allocate.
class KeyTable {
public:
    // The number of (first, second), added when new.
    std::uint32_t intern(std::string_view first, std::string_view second);
    // The number of (first, second); nullopt when it was never added.
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view first,
                                                    std::string_view second) const;
    [[nodiscard]] const std::string& first(std::uint32_t id) const { return m_keys[id].first; }
    [[nodiscard]] const std::string& second(std::uint32_t id) const { return m_keys[id].second; }
    [[nodiscard]] std::size_t size() const { return m_keys.size(); }

private:
    struct Key {
        std::string first;
        std::string second;
        std::uint64_t hash = 0;
    };

    // The slot holding (first, second), or the empty slot where it would go.
    [[nodiscard]] std::size_t slot_of(std::string_view first, std::string_view second,
                                      std::uint64_t hash) const;
    void grow();

    std::vector<Key> m_keys;
    std::vector<std::uint32_t> m_slots; // number + 1; 0 = empty; a power of two in size
};

} // namespace gpuplan::feeds
