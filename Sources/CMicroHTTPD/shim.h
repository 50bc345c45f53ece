#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

// libmicrohttpd, the HTTP server library under ServeMicroHTTPD, from the system include path (no pkg-config: the
// module links `microhttpd` by name). Its variadic calls (MHD_start_daemon, MHD_get_connection_info) go through
// CMicroHTTPDShim.
#if __has_include(<microhttpd.h>)
#include <microhttpd.h>
#else
#error "CMicroHTTPD: <microhttpd.h> was not found; install Debian's libmicrohttpd-dev (scripts/setup.sh does)"
#endif

#endif
