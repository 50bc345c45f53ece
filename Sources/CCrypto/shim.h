#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for the SHA-256 digests CacheDisk names its files by.
#if !__has_include(<openssl/evp.h>)
#error "CCrypto: <openssl/evp.h> not found: install Debian's libssl-dev (scripts/setup.sh installs what the workspace needs)"
#else
// SHA-256's low-level functions are deprecated in OpenSSL 3 in favour of EVP, but they hash directly, where EVP
// allocates and sets up a context for every digest: half the time for a URL-sized key.
#ifndef OPENSSL_SUPPRESS_DEPRECATED
#define OPENSSL_SUPPRESS_DEPRECATED
#endif
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stddef.h>
#include <stdint.h>

/// The SHA-256 of `length` bytes at `data` (which may be NULL when `length` is 0), written to the 32 bytes at
/// `digest`; returns 1 on success and 0 if libcrypto fails.
static inline int CCrypto_sha256(const void *data, size_t length, uint8_t *digest) {
    static const uint8_t empty = 0;
    SHA256_CTX context;
    if (SHA256_Init(&context) != 1) return 0;
    if (SHA256_Update(&context, data != NULL ? data : &empty, length) != 1) return 0;
    return SHA256_Final(digest, &context);
}
#endif

#endif
