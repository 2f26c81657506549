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
    std::uint32_t intern(std::string_view text) { return intern(text, {}, false); }
    // The id of `text`; nullopt when it was never added.
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view text) const {
        return find(text, {}, false);
    }
    // The same for the key `first` NUL `second` (a provider and a name in it), without joining
    // the parts first. A table holds keys of one kind only.
    std::uint32_t intern(std::string_view first, std::string_view second) {
        return intern(first, second, true);
    }
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view first,
                                                    std::string_view second) const {
        return find(first, second, true);
    }
    [[nodiscard]] const std::string& name(std::uint32_t id) const { return m_names[id]; }
    [[nodiscard]] std::size_t size() const { return m_names.size(); }
    // Every id's position when the strings are sorted byte-wise (as std::string compares).
    [[nodiscard]] std::vector<std::uint32_t> sorted_ranks() const;

private:
    // A key of one part (`joined` false) or of `first` NUL `second`.
    struct Key {
        std::string_view first;
        std::string_view second;
        bool joined = false;
    };
    std::uint32_t intern(std::string_view first, std::string_view second, bool joined);
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view first, std::string_view second,
                                                    bool joined) const;
    [[nodiscard]] static std::uint64_t hash_of(const Key& key);
    [[nodiscard]] static bool matches(const std::string& name, const Key& key);
    // The slot holding `key`, or the empty slot where it would go.
    [[nodiscard]] std::size_t slot_of(const Key& key, std::uint64_t hash) const;
    void grow();

    std::vector<std::string> m_names;
    std::vector<std::uint64_t> m_hashes; // per id
    std::vector<std::uint32_t> m_slots;  // id + 1; 0 = empty; a power of two in size
};

} // namespace gpuplan::feeds
