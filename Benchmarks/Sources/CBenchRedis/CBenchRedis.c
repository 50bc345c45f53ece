#include "CBenchRedis.h"

#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

void *bench_redis_connect(const char *host, int port) {
    redisContext *context = redisConnect(host, port);
    if (context == NULL) return NULL;
    if (context->err) {
        redisFree(context);
        return NULL;
    }
    return context;
}

int bench_redis_set(void *connection, const char *key, const void *value, size_t length) {
    const char *arguments[] = {"SET", key, value};
    size_t lengths[] = {3, strlen(key), length};
    redisReply *reply = redisCommandArgv(connection, 3, arguments, lengths);
    if (reply == NULL) return -1;
    int failed = reply->type == REDIS_REPLY_ERROR;
    freeReplyObject(reply);
    return failed ? -1 : 0;
}

long long bench_redis_get_loop(void *connection, const char *key, int count) {
    const char *arguments[] = {"GET", key};
    size_t lengths[] = {3, strlen(key)};
    long long total = 0;
    for (int index = 0; index < count; index++) {
        redisReply *reply = redisCommandArgv(connection, 2, arguments, lengths);
        if (reply == NULL) return -1;
        if (reply->type != REDIS_REPLY_STRING) {
            freeReplyObject(reply);
            return -1;
        }
        total += (long long)reply->len;
        freeReplyObject(reply);
    }
    return total;
}

double bench_redis_cpu_seconds(void *connection) {
    const char *arguments[] = {"INFO", "cpu"};
    size_t lengths[] = {4, 3};
    redisReply *reply = redisCommandArgv(connection, 2, arguments, lengths);
    if (reply == NULL) return -1;
    double total = -1;
    if (reply->type == REDIS_REPLY_STRING) {
        const char *user = strstr(reply->str, "used_cpu_user:");
        const char *system = strstr(reply->str, "used_cpu_sys:");
        if (user != NULL && system != NULL) {
            total = strtod(user + strlen("used_cpu_user:"), NULL) + strtod(system + strlen("used_cpu_sys:"), NULL);
        }
    }
    freeReplyObject(reply);
    return total;
}

void bench_redis_free(void *connection) {
    if (connection != NULL) redisFree(connection);
}
