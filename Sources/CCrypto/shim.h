#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for the SHA-256 digests CacheDisk names its files by.
#if !__has_include(<openssl/evp.h>)
#error "CCrypto: <openssl/evp.h> not found: install Debian's libssl-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <openssl/evp.h>
#endif

#endif
