// Non-variadic wrappers for the libmicrohttpd calls Swift cannot make: MHD_start_daemon takes its options as
// varargs, and MHD_get_connection_info answers through a variadic call too.
#ifndef CMICROHTTPDSHIM_H
#define CMICROHTTPDSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if __has_include(<microhttpd.h>)
#include <microhttpd.h>
#else
#error "CMicroHTTPDShim: <microhttpd.h> was not found; install Debian's libmicrohttpd-dev (scripts/setup.sh does)"
#endif

/// Called once per request, when its request line has been read, with the request target exactly as sent (still
/// percent-encoded, with its query); the result becomes the request's `con_cls` (MHD_OPTION_URI_LOG_CALLBACK).
/// libmicrohttpd calls MHD_OPTION_NOTIFY_COMPLETED exactly once for every request this was called for.
typedef void *(*CMicroHTTPDShim_RequestStarted)(void *context, const char *target,
                                                struct MHD_Connection *connection);

/// Starts a daemon without a listening socket of its own: the caller accepts connections and hands each over with
/// MHD_add_connection. Connections are served by `thread_count` threads, each with its own epoll set (one internal
/// epoll thread when `thread_count` is 1), with suspend/resume allowed and libmicrohttpd's own logging off.
/// `connection_timeout_seconds` of 0 means none. `connection_notify` is told when each connection starts and closes.
/// `context` is passed to every callback.
///
/// Returns NULL on failure.
struct MHD_Daemon *CMicroHTTPDShim_start_daemon(unsigned int thread_count, unsigned int connection_limit,
                                                unsigned int connection_timeout_seconds,
                                                size_t connection_memory_limit,
                                                CMicroHTTPDShim_RequestStarted request_started,
                                                MHD_AccessHandlerCallback access_handler,
                                                MHD_RequestCompletedCallback request_completed,
                                                MHD_NotifyConnectionCallback connection_notify, void *context);

/// accept4(2) with SOCK_CLOEXEC and SOCK_NONBLOCK (Swift's Glibc module does not declare accept4): the accepted
/// descriptor, or -1 with errno set.
int CMicroHTTPDShim_accept(int listen_fd, struct sockaddr *address, socklen_t *length);

/// The connection's socket descriptor, or -1 when libmicrohttpd does not say.
int CMicroHTTPDShim_connection_fd(struct MHD_Connection *connection);

/// Writes the client's address as text (`192.0.2.1`, `2001:db8::1`; an IPv4-mapped IPv6 address as IPv4) into
/// `buffer`, NUL-terminated; returns false when libmicrohttpd does not know it or it is not an IPv4 or IPv6 address.
bool CMicroHTTPDShim_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// A `304 Not Modified` response announcing `representation_length`, the Content-Length of the representation it
/// stands for (RFC 9110, 8.6), without holding those bytes: libmicrohttpd sends no body with a 304, and were it to ask
/// for one, the content callback would give zeros. NULL on failure.
struct MHD_Response *CMicroHTTPDShim_create_not_modified_response(uint64_t representation_length);

#endif
