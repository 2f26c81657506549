#include "gpuplan/catalog/bundle.hpp"

#include "gpuplan/error.hpp"

#include <cstring>
#include <type_traits>

namespace gpuplan::catalog {

namespace {

// Bumped whenever a serialised type changes shape; the bundle is rebuilt with the binary, so a
// mismatch means a stale build directory.
constexpr std::uint32_t k_bundle_magic = 0x47505531; // "GPU1"
constexpr std::uint32_t k_bundle_format = 4;

class Writer {
public:
    void bytes(const void* data, std::size_t size) {
        m_out.append(static_cast<const char*>(data), size);
    }
    template <class T> void operator()(const T& value) { write(value); }
    [[nodiscard]] std::string take() { return std::move(m_out); }

private:
    template <class T> void write(const T& value);
    std::string m_out;
};

class Reader {
public:
    explicit Reader(std::string_view in) : m_in(in) {}
    void bytes(void* data, std::size_t size) {
        if (size > m_in.size() - m_pos) {
            throw RuntimeError("embedded catalog bundle is truncated");
        }
        std::memcpy(data, m_in.data() + m_pos, size);
        m_pos += size;
    }
    std::string_view view(std::size_t size) {
        if (size > m_in.size() - m_pos) {
            throw RuntimeError("embedded catalog bundle is truncated");
        }
        std::string_view out = m_in.substr(m_pos, size);
        m_pos += size;
        return out;
    }
    template <class T> void operator()(T& value) { read(value); }

private:
    template <class T> void read(T& value);
    std::string_view m_in;
    std::size_t m_pos = 0;
};

// Each serialised aggregate lists its members once; Writer and Reader share the list.

template <class A> void members(A& a, Source& v) {
    a(v.id), a(v.title), a(v.url), a(v.grade), a(v.note);
}
template <class A> void members(A& a, Parameter& v) {
    a(v.value), a(v.sources), a(v.as_of), a(v.note);
}
template <class A> void members(A& a, Date& v) {
    a(v.year), a(v.month), a(v.day);
}
template <class A> void members(A& a, Gpu& v) {
    a(v.name), a(v.aliases), a(v.architecture), a(v.form_factor), a(v.memory_gib),
        a(v.memory_bandwidth_gb_per_s), a(v.tflops), a(v.tdp_watts), a(v.nvlink_gb_per_s),
        a(v.mig_instances), a(v.released), a(v.sources), a(v.as_of), a(v.note);
}
template <class A> void members(A& a, PriceRow& v) {
    a(v.region), a(v.zone), a(v.on_demand), a(v.spot), a(v.monthly), a(v.sources), a(v.as_of);
}
template <class A> void members(A& a, ReservedPrice& v) {
    a(v.term), a(v.payment), a(v.effective_per_hour), a(v.upfront_fraction), a(v.region),
        a(v.sources), a(v.as_of);
}
template <class A> void members(A& a, ReservedDiscount& v) {
    a(v.term), a(v.payment), a(v.discount), a(v.upfront_fraction), a(v.is_default), a(v.sources);
}
template <class A> void members(A& a, Instance& v) {
    a(v.type), a(v.gpu), a(v.gpu_count), a(v.vcpus), a(v.memory_gib), a(v.network_gbps),
        a(v.network_sources), a(v.nvlink), a(v.local_nvme_gb),
        a(v.spot_interruption_rate_per_node_hour), a(v.prices), a(v.reserved), a(v.note);
}
template <class A> void members(A& a, Billing& v) {
    a(v.granularity_seconds), a(v.minimum_seconds), a(v.sources);
}
template <class A> void members(A& a, SpotTerms& v) {
    a(v.interruption_rate_per_node_hour), a(v.notice_seconds), a(v.restart_minutes);
}
template <class A> void members(A& a, Provider& v) {
    a(v.name), a(v.display_name), a(v.currency), a(v.as_of), a(v.sources), a(v.billing), a(v.spot),
        a(v.reserved_discounts), a(v.egress_per_gb), a(v.instances), a(v.note);
}
template <class A> void members(A& a, ResalePoint& v) {
    a(v.months), a(v.fraction);
}
template <class A> void members(A& a, Site& v) {
    a(v.electricity_per_kwh), a(v.pue), a(v.colocation_per_kw_month), a(v.staff_fte_per_node),
        a(v.staff_cost_per_fte_year), a(v.maintenance_rate_per_year), a(v.utilisation),
        a(v.economic_life_months), a(v.resale_curve), a(v.resale_sources), a(v.resale_as_of);
}
template <class A> void members(A& a, Build& v) {
    a(v.name), a(v.gpu), a(v.gpu_count), a(v.capex), a(v.network_capex_per_node), a(v.node_kw),
        a(v.lead_time_weeks), a(v.network_gbps), a(v.nvlink), a(v.sources), a(v.as_of), a(v.note);
}
template <class A> void members(A& a, SelfBuilt& v) {
    a(v.currency), a(v.site), a(v.builds);
}
template <class A> void members(A& a, FxRate& v) {
    a(v.currency), a(v.per_base), a(v.as_of), a(v.sources);
}
template <class A> void members(A& a, Fx& v) {
    a(v.base), a(v.rates);
}
template <class A> void members(A& a, Benchmark& v) {
    a(v.model), a(v.gpu), a(v.precision), a(v.metric), a(v.value), a(v.gpu_count), a(v.sources),
        a(v.as_of);
}
template <class A> void members(A& a, Catalog& v) {
    a(v.gpus), a(v.providers), a(v.self_built), a(v.fx), a(v.benchmarks), a(v.sources), a(v.files),
        a(v.digest);
}

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_array : std::false_type {};
template <class T, std::size_t N> struct is_array<std::array<T, N>> : std::true_type {};
template <class T> struct is_map : std::false_type {};
template <class K, class V> struct is_map<std::map<K, V>> : std::true_type {};

template <class T> void Writer::write(const T& value) {
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
    } else {
        members(*this, const_cast<T&>(value)); // members() only reads through a Writer
    }
}

template <class T> void Reader::read(T& value) {
    if constexpr (std::is_same_v<T, bool>) {
        // A byte other than 0 or 1 is not a bool; copying it into one would be undefined.
        std::uint8_t byte = 0;
        bytes(&byte, sizeof byte);
        if (byte > 1) {
            throw RuntimeError("embedded catalog bundle is corrupt");
        }
        value = byte == 1;
    } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
        bytes(&value, sizeof value);
    } else if constexpr (std::is_same_v<T, std::string>) {
        std::uint64_t size = 0;
        read(size);
        value = std::string(view(size));
    } else if constexpr (is_vector<T>::value) {
        std::uint64_t size = 0;
        read(size);
        if (size > m_in.size() - m_pos) {
            throw RuntimeError("embedded catalog bundle is corrupt");
        }
        // Grow with what is actually read, so that a corrupt size cannot allocate ahead.
        value.clear();
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
        std::uint64_t size = 0;
        read(size);
        value.clear();
        for (std::uint64_t i = 0; i < size; ++i) {
            typename T::key_type key;
            typename T::mapped_type element;
            read(key);
            read(element);
            value.emplace(std::move(key), std::move(element));
        }
    } else {
        members(*this, value);
    }
}

} // namespace

std::string write_bundle(const Catalog& catalog,
                         const std::vector<std::pair<std::string, std::string>>& files) {
    Writer writer;
    writer(k_bundle_magic);
    writer(k_bundle_format);
    writer(catalog);
    writer(static_cast<std::uint64_t>(files.size()));
    for (const auto& [name, text] : files) {
        writer(name);
        writer(text);
    }
    return writer.take();
}

BundleView read_bundle(std::string_view bytes) {
    Reader reader(bytes);
    std::uint32_t magic = 0;
    std::uint32_t format = 0;
    reader(magic);
    reader(format);
    if (magic != k_bundle_magic || format != k_bundle_format) {
        throw RuntimeError("embedded catalog bundle has an unknown format; rebuild gpuplan");
    }
    BundleView out;
    reader(out.catalog);
    std::uint64_t count = 0;
    reader(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t size = 0;
        reader(size);
        std::string_view name = reader.view(size);
        reader(size);
        std::string_view text = reader.view(size);
        out.files.push_back({name, text});
    }
    return out;
}

} // namespace gpuplan::catalog
