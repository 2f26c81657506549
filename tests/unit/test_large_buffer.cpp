#include "detail/large_buffer.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <vector>

using namespace gpuplan;

TEST_CASE("large buffers are aligned to huge pages, small ones are ordinary", "[large_buffer]") {
    constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
    void* large = allocate_buffer(k_large_buffer_bytes, alignof(double));
    CHECK(reinterpret_cast<std::uintptr_t>(large) % huge == 0);
    deallocate_buffer(large, k_large_buffer_bytes, alignof(double));

    void* small = allocate_buffer(64, alignof(double));
    CHECK(reinterpret_cast<std::uintptr_t>(small) % alignof(double) == 0);
    deallocate_buffer(small, 64, alignof(double));
}

TEST_CASE("a vector in a large buffer keeps its values across growth", "[large_buffer]") {
    std::vector<std::uint64_t, LargeBufferAllocator<std::uint64_t>> values;
    const std::size_t count = k_large_buffer_bytes / sizeof(std::uint64_t) + 1000;
    for (std::size_t i = 0; i < count; ++i) {
        values.push_back(i); // grows from small blocks into large ones and back through copies
    }
    CHECK(std::accumulate(values.begin(), values.end(), std::uint64_t{0}) ==
          std::uint64_t{count} * (count - 1) / 2);
    values.shrink_to_fit();
    CHECK(values.size() == count);
}
