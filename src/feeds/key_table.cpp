#include "feeds/key_table.hpp"

#include <algorithm>
#include <cstring>

namespace gpuplan::feeds {

namespace {

constexpr std::size_t k_initial_slots = 64;
constexpr std::uint64_t k_multiplier = 0x9E3779B97F4A7C15ULL;
constexpr unsigned k_shift = 29;

// A word-at-a-time multiplicative hash, continuing `hash`: the table is internal and never
// iterated into output, so any well-mixed hash will do.
std::uint64_t hash_bytes(std::string_view text, std::uint64_t hash) {
    hash ^= text.size() * k_multiplier;
    const char* bytes = text.data();
    std::size_t left = text.size();
    while (left >= sizeof(std::uint64_t)) {
        std::uint64_t word = 0;
        std::memcpy(&word, bytes, sizeof word);
        hash = (hash ^ word) * k_multiplier;
        hash ^= hash >> k_shift;
        bytes += sizeof word;
        left -= sizeof word;
    }
    std::uint64_t tail = 0;
    for (std::size_t i = 0; i < left; ++i) {
        tail |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8U * i);
    }
    hash = (hash ^ tail) * k_multiplier;
    return hash ^ (hash >> k_shift);
}

std::uint64_t hash_of(std::string_view first, std::string_view second) {
    return hash_bytes(second, hash_bytes(first, 0));
}

// Equality of short strings byte by byte, without a call to memcmp.
bool same(const std::string& a, std::string_view b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (a[i] != b[i]) {
            return false;
        }
    }
    return true;
}

} // namespace

std::size_t KeyTable::slot_of(std::string_view first, std::string_view second,
                              std::uint64_t hash) const {
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t entry = m_slots[slot];
        if (entry == 0) {
            return slot;
        }
        const Key& key = m_keys[entry - 1];
        if (key.hash == hash && same(key.first, first) && same(key.second, second)) {
            return slot;
        }
    }
}

std::optional<std::uint32_t> KeyTable::find(std::string_view first, std::string_view second) const {
    if (m_slots.empty()) {
        return std::nullopt;
    }
    const std::uint32_t entry = m_slots[slot_of(first, second, hash_of(first, second))];
    return entry == 0 ? std::nullopt : std::optional<std::uint32_t>(entry - 1);
}

std::uint32_t KeyTable::intern(std::string_view first, std::string_view second) {
    // At most half full, so that probes stay short.
    if (2 * (m_keys.size() + 1) > m_slots.size()) {
        grow();
    }
    const std::uint64_t hash = hash_of(first, second);
    const std::size_t slot = slot_of(first, second, hash);
    if (m_slots[slot] == 0) {
        m_keys.push_back(Key{std::string(first), std::string(second), hash});
        m_slots[slot] = static_cast<std::uint32_t>(m_keys.size());
    }
    return m_slots[slot] - 1;
}

void KeyTable::grow() {
    m_slots.assign(std::max(k_initial_slots, 2 * m_slots.size()), 0);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t id = 0; id < m_keys.size(); ++id) {
        std::size_t slot = m_keys[id].hash & mask;
        while (m_slots[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        m_slots[slot] = static_cast<std::uint32_t>(id + 1);
    }
}

} // namespace gpuplan::feeds
