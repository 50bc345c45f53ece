#ifndef CBENCHREDIS_H
#define CBENCHREDIS_H

#include <stddef.h>

/// The reference of the `redis` section: hiredis called directly, one blocking connection, no pool, no checksum.

/// Connects to `host:port` over TCP; NULL on failure. Free with `bench_redis_free`.
void *bench_redis_connect(const char *host, int port);

/// `SET key value`; 0 on success.
int bench_redis_set(void *connection, const char *key, const void *value, size_t length);

/// `GET key`, `count` times; the total number of value bytes received, or -1 on any error or missing key.
long long bench_redis_get_loop(void *connection, const char *key, int count);

/// The CPU time the server has used (`INFO cpu`: `used_cpu_user` + `used_cpu_sys`), in seconds; -1 on error.
double bench_redis_cpu_seconds(void *connection);

void bench_redis_free(void *connection);

#endif
