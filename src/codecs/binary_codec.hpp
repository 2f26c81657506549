#pragma once
// The compact binary encoding of the embedded bundle (src/codecs/bundle.cpp), of the pre-parsed
// decision tree (tree_bundle.cpp) and of the presets (workload_bundle.cpp). Each serialised
// aggregate lists its members once, in a `template <class A> void members(A& a, T& v)` declared in
// T's own namespace (found by argument-dependent lookup, like nlohmann::json's to_json);
// BinaryWriter and BinaryReader share that list. Numbers and enums are stored as their bytes on
// this machine: the bytes are written and read by the same build.

#include "gpuplan/error.hpp"
#include "gpuplan/source.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace gpuplan {

// The bottom layer's serialised types, shared by every encoding that holds them.
template <class A> void members(A& a, Date& v) {
    a(v.year), a(v.month), a(v.day);
}
template <class A> void members(A& a, Source& v) {
    a(v.id), a(v.title), a(v.url), a(v.grade), a(v.note), a(v.undated), a(v.as_of);
}

} // namespace gpuplan

namespace gpuplan::codecs {

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_array : std::false_type {};
template <class T, std::size_t N> struct is_array<std::array<T, N>> : std::true_type {};
template <class T> struct is_map : std::false_type {};
template <class K, class V, class C> struct is_map<std::map<K, V, C>> : std::true_type {};
template <class T> struct is_variant : std::false_type {};
template <class... T> struct is_variant<std::variant<T...>> : std::true_type {};

class BinaryWriter {
public:
    void bytes(const void* data, std::size_t size) {
        m_out.append(static_cast<const char*>(data), size);
    }
    template <class T> void operator()(const T& value) { write(value); }
    [[nodiscard]] std::string take() { return std::move(m_out); }

private:
    template <class T> void write(const T& value) {
        if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
            bytes(&value, sizeof value);
        } else if constexpr (std::is_same_v<T, std::string>) {
            write(static_cast<std::uint64_t>(value.size()));
            bytes(value.data(), value.size());
        } else if constexpr (is_vector<T>::value || is_array<T>::value) {
            if constexpr (is_vector<T>::value) {
                write(static_cast<std::uint64_t>(value.size()));
            }
            for (const auto& element : value) {
                write(element);
            }
        } else if constexpr (is_optional<T>::value) {
            write(value.has_value());
            if (value) {
                write(*value);
            }
        } else if constexpr (is_map<T>::value) {
            write(static_cast<std::uint64_t>(value.size()));
            for (const auto& [key, element] : value) {
                write(key);
                write(element);
            }
        } else if constexpr (is_variant<T>::value) {
            write(static_cast<std::uint64_t>(value.index()));
            std::visit([&](const auto& alternative) { write(alternative); }, value);
        } else {
            members(*this, const_cast<T&>(value)); // members() only reads through a writer
        }
    }

    std::string m_out;
};

// Decodes what BinaryWriter wrote. Bytes that are not such an encoding throw RuntimeError
// ("`what` is truncated" or "is corrupt"); they never read out of bounds, allocate ahead of the
// bytes actually present, recurse without bound or load an invalid bool or variant.
class BinaryReader {
public:
    BinaryReader(std::string_view in, std::string_view what) : m_in(in), m_what(what) {}
    void bytes(void* data, std::size_t size) {
        if (size > m_in.size() - m_pos) {
            truncated();
        }
        std::memcpy(data, m_in.data() + m_pos, size);
        m_pos += size;
    }
    std::string_view view(std::size_t size) {
        if (size > m_in.size() - m_pos) {
            truncated();
        }
        const std::string_view out(m_in.data() + m_pos, size);
        m_pos += size;
        return out;
    }
    [[nodiscard]] bool at_end() const { return m_pos == m_in.size(); }
    [[nodiscard]] std::string_view what() const { return m_what; }
    // The bytes not read yet; reading ends.
    std::string_view rest() {
        const std::string_view out = m_in.substr(m_pos);
        m_pos = m_in.size();
        return out;
    }
    [[noreturn]] void truncated() const {
        throw RuntimeError(std::string(m_what) + " is truncated");
    }
    [[noreturn]] void corrupt() const { throw RuntimeError(std::string(m_what) + " is corrupt"); }
    template <class T> void operator()(T& value) { read(value); }

private:
    // Deeper than any aggregate gpuplan serialises (conditions nest at most 64 deep).
    static constexpr std::size_t k_max_depth = 128;

    template <class T> void read(T& value) {
        if constexpr (std::is_same_v<T, bool>) {
            // A byte other than 0 or 1 is not a bool; copying it into one would be undefined.
            std::uint8_t byte = 0;
            bytes(&byte, sizeof byte);
            if (byte > 1) {
                corrupt();
            }
            value = byte == 1;
        } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
            bytes(&value, sizeof value);
        } else if constexpr (std::is_same_v<T, std::string>) {
            std::uint64_t size = 0;
            read(size);
            value = std::string(view(size));
        } else if constexpr (is_vector<T>::value) {
            const std::uint64_t size = read_size();
            // Room up front saves the copies and freed blocks of growing; capped, so that a
            // corrupt size cannot allocate far ahead of what is actually read.
            value.clear();
            value.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(size, k_max_reserve)));
            for (std::uint64_t i = 0; i < size; ++i) {
                typename T::value_type element{};
                read(element);
                value.push_back(std::move(element));
            }
        } else if constexpr (is_array<T>::value) {
            for (auto& element : value) {
                read(element);
            }
        } else if constexpr (is_optional<T>::value) {
            bool present = false;
            read(present);
            if (present) {
                value.emplace();
                read(*value);
            } else {
                value.reset();
            }
        } else if constexpr (is_map<T>::value) {
            const std::uint64_t size = read_size();
            value.clear();
            for (std::uint64_t i = 0; i < size; ++i) {
                typename T::key_type key;
                typename T::mapped_type element;
                read(key);
                read(element);
                value.emplace(std::move(key), std::move(element));
            }
        } else if constexpr (is_variant<T>::value) {
            std::uint64_t index = 0;
            read(index);
            read_alternative(value, index, std::make_index_sequence<std::variant_size_v<T>>{});
        } else {
            if (++m_depth > k_max_depth) {
                corrupt();
            }
            members(*this, value);
            --m_depth;
        }
    }

    // A count of elements, each at least one byte: more than the bytes left is corrupt.
    std::uint64_t read_size() {
        std::uint64_t size = 0;
        read(size);
        if (size > m_in.size() - m_pos) {
            corrupt();
        }
        return size;
    }

    template <class V, std::size_t... I>
    void read_alternative(V& value, std::uint64_t index, std::index_sequence<I...> /*unused*/) {
        if (index >= sizeof...(I)) {
            corrupt();
        }
        (void)((index == I ? (read(value.template emplace<I>()), true) : false) || ...);
    }

    static constexpr std::uint64_t k_max_reserve = 4096; // elements reserved ahead of reading

    std::string_view m_in;
    std::string_view m_what;
    std::size_t m_pos = 0;
    std::size_t m_depth = 0;
};

// The head of each encoding: a magic number naming what it holds and the format of the build that
// wrote it (bumped whenever a serialised type changes shape; encodings are rebuilt with the
// binary).
struct Header {
    std::uint32_t magic = 0;
    std::uint32_t format = 0;
};

inline void write_header(BinaryWriter& writer, const Header& header) {
    writer(header.magic);
    writer(header.format);
}

// Reads the head; another magic or format throws RuntimeError ("WHAT has an unknown format").
inline void read_header(BinaryReader& reader, const Header& expected) {
    Header found;
    reader(found.magic);
    reader(found.format);
    if (found.magic != expected.magic || found.format != expected.format) {
        throw RuntimeError(std::string(reader.what()) + " has an unknown format; rebuild gpuplan");
    }
}

// Enums are stored as their bytes: whether `value` is one of the enumerators up to `last`.
template <class E> bool enum_within(E value, E last) {
    using U = std::underlying_type_t<E>;
    const U raw = static_cast<U>(value);
    if constexpr (std::is_signed_v<U>) {
        if (raw < 0) {
            return false;
        }
    }
    return raw <= static_cast<U>(last);
}

// A whole encoding of one value: the header, then the value.
template <class T> std::string encode(const T& value, const Header& header) {
    BinaryWriter writer;
    write_header(writer, header);
    writer(value);
    return writer.take();
}

// Decodes what encode() wrote: the header must match, the bytes must hold exactly one value and
// `valid` must accept it (enumerators in range and the like), or it throws RuntimeError.
template <class T, class Valid>
T decode(std::string_view bytes, std::string_view what, const Header& header, const Valid& valid) {
    BinaryReader reader(bytes, what);
    read_header(reader, header);
    T value{};
    reader(value);
    if (!reader.at_end() || !valid(value)) {
        reader.corrupt();
    }
    return value;
}

} // namespace gpuplan::codecs
