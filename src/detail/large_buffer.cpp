#include "detail/large_buffer.hpp"

#include <algorithm>
#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gpuplan {

namespace {

constexpr std::size_t k_huge_page = std::size_t{2} << 20;

// The alignment a block of `bytes` is allocated with.
std::size_t alignment_of(std::size_t bytes, std::size_t alignment) {
    return bytes >= k_large_buffer_bytes && alignment < k_huge_page ? k_huge_page : alignment;
}

} // namespace

void advise_huge_pages(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::size_t skip = (k_huge_page - start % k_huge_page) % k_huge_page;
    const std::size_t length = (bytes - std::min(skip, bytes)) / k_huge_page * k_huge_page;
    if (length > 0) {
        // Advice only: if the kernel declines, the block is filled with ordinary pages.
        (void)madvise(static_cast<char*>(data) + skip, length, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)bytes;
#endif
}

void* allocate_buffer(std::size_t bytes, std::size_t alignment) {
    const std::size_t align = alignment_of(bytes, alignment);
    void* data = align > __STDCPP_DEFAULT_NEW_ALIGNMENT__
                     ? ::operator new (bytes, std::align_val_t{align})
                     : ::operator new(bytes);
    if (align == k_huge_page) {
        advise_huge_pages(data, bytes);
    }
    return data;
}

void deallocate_buffer(void* data, std::size_t bytes, std::size_t alignment) noexcept {
    const std::size_t align = alignment_of(bytes, alignment);
    if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
        ::operator delete (data, std::align_val_t{align});
    } else {
        ::operator delete(data);
    }
}

} // namespace gpuplan
