#ifndef CXXHASH_SHIM_H
#define CXXHASH_SHIM_H

// xxHash, for the checksums that let CacheDisk detect torn or corrupted files.
#include <stddef.h>
#include <stdint.h>
#if !__has_include(<xxhash.h>)
#error "CXXHash: <xxhash.h> not found: install Debian's libxxhash-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <xxhash.h>

#if defined(__x86_64__) || defined(_M_X64)
#define XXH_DISPATCH_DISABLE_REPLACE 1
#include <xxh_x86dispatch.h>
#endif

/// XXH3-128 of `length` bytes at `input`, written as two 64-bit halves. On x86-64 it uses the
/// library's runtime dispatch (AVX2 where the CPU has it).
static inline void CXXHash_xxh3_128(const void *input, size_t length, uint64_t *low, uint64_t *high) {
#if defined(__x86_64__) || defined(_M_X64)
    XXH128_hash_t hash = XXH3_128bits_dispatch(input, length);
#else
    XXH128_hash_t hash = XXH3_128bits(input, length);
#endif
    *low = hash.low64;
    *high = hash.high64;
}

/// XXH3-64 of `length` bytes at `input`.
static inline uint64_t CXXHash_xxh3_64(const void *input, size_t length) {
#if defined(__x86_64__) || defined(_M_X64)
    return XXH3_64bits_dispatch(input, length);
#else
    return XXH3_64bits(input, length);
#endif
}
#endif

#endif
