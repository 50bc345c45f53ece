#define _GNU_SOURCE
#include "CMicroHTTPDShim.h"

#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

struct MHD_Daemon *CMicroHTTPDShim_start_daemon(unsigned int thread_count, unsigned int connection_limit,
                                                unsigned int connection_timeout_seconds,
                                                size_t connection_memory_limit,
                                                CMicroHTTPDShim_RequestStarted request_started,
                                                MHD_AccessHandlerCallback access_handler,
                                                MHD_RequestCompletedCallback request_completed,
                                                MHD_NotifyConnectionCallback connection_notify, void *context) {
    // No listening socket: the caller accepts, so that it can stop accepting without MHD_quiesce_daemon, which in
    // this version races with the epoll workers removing the listening socket themselves and then aborts.
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_NO_LISTEN_SOCKET;
    // A pool size of 1 would still be a pool of one worker; 0 keeps the single internal thread.
    unsigned int pool_size = thread_count > 1 ? thread_count : 0;
    return MHD_start_daemon(flags, 0, NULL, NULL, access_handler, context,
                            MHD_OPTION_THREAD_POOL_SIZE, pool_size,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_URI_LOG_CALLBACK, request_started, context,
                            MHD_OPTION_NOTIFY_COMPLETED, request_completed, context,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notify, context,
                            MHD_OPTION_END);
}

int CMicroHTTPDShim_accept(int listen_fd, struct sockaddr *address, socklen_t *length) {
    return accept4(listen_fd, address, length, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int CMicroHTTPDShim_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

bool CMicroHTTPDShim_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || size == 0) {
        return false;
    }
    const struct sockaddr *address = info->client_addr;
    const void *bytes;
    if (address->sa_family == AF_INET) {
        bytes = &((const struct sockaddr_in *)address)->sin_addr;
    } else if (address->sa_family == AF_INET6) {
        const struct in6_addr *ipv6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(ipv6)) {
            // An IPv4 client of a dual-stack socket: its IPv4 address, not ::ffff:a.b.c.d.
            return inet_ntop(AF_INET, &ipv6->s6_addr[12], buffer, (socklen_t)size) != NULL;
        }
        bytes = ipv6;
    } else {
        return false;
    }
    return inet_ntop(address->sa_family, bytes, buffer, (socklen_t)size) != NULL;
}

static ssize_t CMicroHTTPDShim_zeros(void *context, uint64_t position, char *buffer, size_t size) {
    (void)context;
    (void)position;
    memset(buffer, 0, size);
    return (ssize_t)size;
}

struct MHD_Response *CMicroHTTPDShim_create_not_modified_response(uint64_t representation_length) {
    return MHD_create_response_from_callback(representation_length, 4096, CMicroHTTPDShim_zeros, NULL, NULL);
}
