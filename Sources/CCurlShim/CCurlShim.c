// Most of this target is static inline functions in include/CCurlShim.h; the socket-opening callback lives here.
#include "CCurlShim.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <sys/socket.h>

static _Atomic(CCurlShim_connect_filter) connect_filter = NULL;

void CCurlShim_set_connect_filter(CCurlShim_connect_filter filter) {
    atomic_store(&connect_filter, filter);
}

curl_socket_t CCurlShim_open_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    char text[INET6_ADDRSTRLEN] = {0};
    int port = 0;
    if (address->family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&address->addr;
        if (!inet_ntop(AF_INET, &in->sin_addr, text, sizeof text)) return CURL_SOCKET_BAD;
        port = ntohs(in->sin_port);
    } else if (address->family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&address->addr;
        if (!inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text)) return CURL_SOCKET_BAD;
        port = ntohs(in6->sin6_port);
    } else {
        return CURL_SOCKET_BAD;  // Only IP connections are made; anything else is refused.
    }
    CCurlShim_connect_filter filter = atomic_load(&connect_filter);
    if (filter && !filter(context, text, port)) return CURL_SOCKET_BAD;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}
