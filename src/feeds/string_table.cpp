#include "feeds/string_table.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace gpuplan::feeds {

namespace {

constexpr std::size_t k_initial_slots = 64;
constexpr std::uint64_t k_multiplier = 0x9E3779B97F4A7C15ULL;
constexpr unsigned k_shift = 29;

// A word-at-a-time multiplicative hash: the table is internal and never iterated into output,
// so any well-mixed hash will do.
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

// Byte-wise equality of short strings, without a call to memcmp.
bool same_bytes(const char* a, std::string_view b) {
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (a[i] != b[i]) {
            return false;
        }
    }
    return true;
}

} // namespace

std::uint64_t StringTable::hash_of(const Key& key) {
    const std::uint64_t hash = hash_bytes(key.first, 0);
    return key.joined ? hash_bytes(key.second, hash) : hash;
}

bool StringTable::matches(const std::string& name, const Key& key) {
    if (!key.joined) {
        return name.size() == key.first.size() && same_bytes(name.data(), key.first);
    }
    const std::size_t split = key.first.size();
    return name.size() == split + 1 + key.second.size() && name[split] == '\0' &&
           same_bytes(name.data(), key.first) && same_bytes(name.data() + split + 1, key.second);
}

std::size_t StringTable::slot_of(const Key& key, std::uint64_t hash) const {
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t entry = m_slots[slot];
        if (entry == 0 || (m_hashes[entry - 1] == hash && matches(m_names[entry - 1], key))) {
            return slot;
        }
    }
}

std::optional<std::uint32_t> StringTable::find(std::string_view first, std::string_view second,
                                               bool joined) const {
    if (m_slots.empty()) {
        return std::nullopt;
    }
    const Key key{first, second, joined};
    const std::uint32_t entry = m_slots[slot_of(key, hash_of(key))];
    return entry == 0 ? std::nullopt : std::optional<std::uint32_t>(entry - 1);
}

std::uint32_t StringTable::intern(std::string_view first, std::string_view second, bool joined) {
    // At most half full, so that probes stay short.
    if (2 * (m_names.size() + 1) > m_slots.size()) {
        grow();
    }
    const Key key{first, second, joined};
    const std::uint64_t hash = hash_of(key);
    const std::size_t slot = slot_of(key, hash);
    if (m_slots[slot] == 0) {
        std::string name(first);
        if (joined) {
            name.push_back('\0');
            name.append(second);
        }
        m_names.push_back(std::move(name));
        m_hashes.push_back(hash);
        m_slots[slot] = static_cast<std::uint32_t>(m_names.size());
    }
    return m_slots[slot] - 1;
}

void StringTable::grow() {
    m_slots.assign(std::max(k_initial_slots, 2 * m_slots.size()), 0);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t id = 0; id < m_names.size(); ++id) {
        std::size_t slot = m_hashes[id] & mask;
        while (m_slots[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        m_slots[slot] = static_cast<std::uint32_t>(id + 1);
    }
}

std::vector<std::uint32_t> StringTable::sorted_ranks() const {
    std::vector<std::uint32_t> order(m_names.size());
    std::iota(order.begin(), order.end(), std::uint32_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return m_names[a] < m_names[b]; });
    std::vector<std::uint32_t> ranks(m_names.size());
    for (std::size_t position = 0; position < order.size(); ++position) {
        ranks[order[position]] = static_cast<std::uint32_t>(position);
    }
    return ranks;
}

} // namespace gpuplan::feeds
