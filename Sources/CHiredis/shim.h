#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H

// hiredis, the Redis client library under CacheRedis. Only its blocking API is used, through non-variadic calls
// (redisCommandArgv); the reply type macros are plain integers.
#if !__has_include(<hiredis/hiredis.h>)
#error "CHiredis: <hiredis/hiredis.h> not found: install Debian's libhiredis-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <hiredis/hiredis.h>
#endif

#endif
