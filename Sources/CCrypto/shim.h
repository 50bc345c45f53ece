#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for the SHA-256 digests CacheDisk names its files by.
#include <openssl/evp.h>

#endif
