// Typed, non-variadic wrappers for the libcurl calls Swift cannot make directly: curl_easy_setopt,
// curl_easy_getinfo and curl_multi_setopt are variadic, and a few constants are function-like macros.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <curl/curl.h>

// curl.h declares its options through the CURLOPT() macro, which Swift doesn't import: re-export the ones we use.
static const CURLoption CCurlShim_OPT_ACCEPT_ENCODING = CURLOPT_ACCEPT_ENCODING;
static const CURLoption CCurlShim_OPT_BUFFERSIZE = CURLOPT_BUFFERSIZE;
static const CURLoption CCurlShim_OPT_CAINFO = CURLOPT_CAINFO;
static const CURLoption CCurlShim_OPT_CAPATH = CURLOPT_CAPATH;
static const CURLoption CCurlShim_OPT_CONNECTTIMEOUT_MS = CURLOPT_CONNECTTIMEOUT_MS;
static const CURLoption CCurlShim_OPT_COPYPOSTFIELDS = CURLOPT_COPYPOSTFIELDS;
static const CURLoption CCurlShim_OPT_CUSTOMREQUEST = CURLOPT_CUSTOMREQUEST;
static const CURLoption CCurlShim_OPT_ERRORBUFFER = CURLOPT_ERRORBUFFER;
static const CURLoption CCurlShim_OPT_FOLLOWLOCATION = CURLOPT_FOLLOWLOCATION;
static const CURLoption CCurlShim_OPT_FORBID_REUSE = CURLOPT_FORBID_REUSE;
static const CURLoption CCurlShim_OPT_FRESH_CONNECT = CURLOPT_FRESH_CONNECT;
static const CURLoption CCurlShim_OPT_HEADERDATA = CURLOPT_HEADERDATA;
static const CURLoption CCurlShim_OPT_HEADERFUNCTION = CURLOPT_HEADERFUNCTION;
static const CURLoption CCurlShim_OPT_HTTPGET = CURLOPT_HTTPGET;
static const CURLoption CCurlShim_OPT_HTTPHEADER = CURLOPT_HTTPHEADER;
static const CURLoption CCurlShim_OPT_HTTP_CONTENT_DECODING = CURLOPT_HTTP_CONTENT_DECODING;
static const CURLoption CCurlShim_OPT_HTTP_VERSION = CURLOPT_HTTP_VERSION;
static const CURLoption CCurlShim_OPT_LOW_SPEED_LIMIT = CURLOPT_LOW_SPEED_LIMIT;
static const CURLoption CCurlShim_OPT_LOW_SPEED_TIME = CURLOPT_LOW_SPEED_TIME;
static const CURLoption CCurlShim_OPT_MAXREDIRS = CURLOPT_MAXREDIRS;
static const CURLoption CCurlShim_OPT_NOBODY = CURLOPT_NOBODY;
static const CURLoption CCurlShim_OPT_NOSIGNAL = CURLOPT_NOSIGNAL;
static const CURLoption CCurlShim_OPT_PIPEWAIT = CURLOPT_PIPEWAIT;
static const CURLoption CCurlShim_OPT_POSTFIELDSIZE_LARGE = CURLOPT_POSTFIELDSIZE_LARGE;
static const CURLoption CCurlShim_OPT_PROTOCOLS_STR = CURLOPT_PROTOCOLS_STR;
static const CURLoption CCurlShim_OPT_PROXY = CURLOPT_PROXY;
static const CURLoption CCurlShim_OPT_REDIR_PROTOCOLS_STR = CURLOPT_REDIR_PROTOCOLS_STR;
static const CURLoption CCurlShim_OPT_SSL_VERIFYHOST = CURLOPT_SSL_VERIFYHOST;
static const CURLoption CCurlShim_OPT_SSL_VERIFYPEER = CURLOPT_SSL_VERIFYPEER;
static const CURLoption CCurlShim_OPT_TIMEOUT_MS = CURLOPT_TIMEOUT_MS;
static const CURLoption CCurlShim_OPT_URL = CURLOPT_URL;
static const CURLoption CCurlShim_OPT_USERAGENT = CURLOPT_USERAGENT;
static const CURLoption CCurlShim_OPT_WRITEDATA = CURLOPT_WRITEDATA;
static const CURLoption CCurlShim_OPT_WRITEFUNCTION = CURLOPT_WRITEFUNCTION;
static const CURLoption CCurlShim_OPT_XFERINFOFUNCTION = CURLOPT_XFERINFOFUNCTION;
static const CURLoption CCurlShim_OPT_XFERINFODATA = CURLOPT_XFERINFODATA;
static const CURLoption CCurlShim_OPT_NOPROGRESS = CURLOPT_NOPROGRESS;
static const CURLoption CCurlShim_OPT_OPENSOCKETFUNCTION = CURLOPT_OPENSOCKETFUNCTION;
static const CURLoption CCurlShim_OPT_OPENSOCKETDATA = CURLOPT_OPENSOCKETDATA;
static const CURLMoption CCurlShim_MOPT_MAX_HOST_CONNECTIONS = CURLMOPT_MAX_HOST_CONNECTIONS;
static const CURLMoption CCurlShim_MOPT_MAX_TOTAL_CONNECTIONS = CURLMOPT_MAX_TOTAL_CONNECTIONS;
static const CURLMoption CCurlShim_MOPT_PIPELINING = CURLMOPT_PIPELINING;
static const CURLversion CCurlShim_VERSION_NOW = CURLVERSION_NOW;

/// Initialises libcurl for the whole process (SSL and everything else). Call once, before any other curl call.
static inline CURLcode CCurlShim_global_init(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

static inline CURLcode CCurlShim_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurlShim_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Options whose value is a C string; curl copies strings (except CURLOPT_POSTFIELDS, which we never use).
static inline CURLcode CCurlShim_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurlShim_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurlShim_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION, which share the curl_write_callback signature.
static inline CURLcode CCurlShim_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                                            curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode CCurlShim_easy_setopt_xferinfo_callback(CURL *handle, CURLoption option,
                                                               curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode CCurlShim_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode CCurlShim_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode CCurlShim_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode CCurlShim_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/// Decides whether a transfer may connect to `address` (numeric, e.g. "127.0.0.1" or "::1") on `port`: non-zero
/// allows it. `context` is the transfer's CURLOPT_OPENSOCKETDATA.
typedef int (*CCurlShim_connect_filter)(void *context, const char *address, int port);

/// Sets the filter that CCurlShim_open_socket asks, for the whole process. Call once, before any transfer uses
/// CCurlShim_open_socket.
void CCurlShim_set_connect_filter(CCurlShim_connect_filter filter);

/// A CURLOPT_OPENSOCKETFUNCTION that asks the connect filter about the address curl is about to connect to (every
/// address of every DNS answer it tries, on every redirect hop) and returns CURL_SOCKET_BAD when it refuses, which
/// makes curl try the next address or fail with CURLE_COULDNT_CONNECT. Sockets are made close-on-exec.
curl_socket_t CCurlShim_open_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address);

/// Sets CURLOPT_OPENSOCKETFUNCTION (a function pointer, which the variadic setopt can't take from Swift).
static inline CURLcode CCurlShim_easy_setopt_open_socket(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, CCurlShim_open_socket);
}

/// The result code of a CURLMSG_DONE message (a member of a union in C).
static inline CURLcode CCurlShim_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
