#pragma once
// An allocator for large buffers that are filled front to back once, such as the cost engine's
// options: a block of k_large_buffer_bytes or more is aligned to 2 MiB and advised to use
// transparent huge pages, so filling it takes one page fault per 2 MiB instead of one per 4 KiB.
// Faults are expensive in virtual machines (about 4 us each on the benchmark machine,
// bench/README.md). Only advice: where the system has no huge pages nothing changes.

#include <cstddef>

namespace gpuplan {

inline constexpr std::size_t k_large_buffer_bytes = std::size_t{4} << 20;

// Advises the whole 2 MiB pages inside [data, data + bytes) to use transparent huge pages.
void advise_huge_pages(void* data, std::size_t bytes) noexcept;

[[nodiscard]] void* allocate_buffer(std::size_t bytes, std::size_t alignment);
void deallocate_buffer(void* data, std::size_t bytes, std::size_t alignment) noexcept;

template <class T> struct LargeBufferAllocator {
    using value_type = T;

    LargeBufferAllocator() = default;
    template <class U> LargeBufferAllocator(const LargeBufferAllocator<U>& /*other*/) noexcept {}

    [[nodiscard]] T* allocate(std::size_t n) {
        return static_cast<T*>(allocate_buffer(n * sizeof(T), alignof(T)));
    }
    void deallocate(T* data, std::size_t n) noexcept {
        deallocate_buffer(data, n * sizeof(T), alignof(T));
    }
    template <class U> bool operator==(const LargeBufferAllocator<U>& /*other*/) const noexcept {
        return true;
    }
};

} // namespace gpuplan
