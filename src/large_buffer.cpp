#include "gpuplan/large_buffer.hpp"

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

void* allocate_buffer(std::size_t bytes, std::size_t alignment) {
    const std::size_t align = alignment_of(bytes, alignment);
    void* data = align > __STDCPP_DEFAULT_NEW_ALIGNMENT__
                     ? ::operator new (bytes, std::align_val_t{align})
                     : ::operator new(bytes);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == k_huge_page) {
        // Advice only: if the kernel declines, the block is filled with ordinary pages.
        (void)madvise(data, bytes / k_huge_page * k_huge_page, MADV_HUGEPAGE);
    }
#endif
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
