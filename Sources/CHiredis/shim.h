#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H

// hiredis, the Redis client library under CacheRedis. Only its blocking API is used, through non-variadic calls
// (redisCommandArgv); the reply type macros are plain integers.
#include <hiredis/hiredis.h>

#endif
