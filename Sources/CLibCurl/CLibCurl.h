#ifndef CLIBCURL_SHIM_H
#define CLIBCURL_SHIM_H

// libcurl, as installed by libcurl4-openssl-dev: its headers are in /usr/include/<multiarch>/curl, on the default
// include path.
#if !__has_include(<curl/curl.h>)
#error "CLibCurl: <curl/curl.h> not found: install Debian's libcurl4-openssl-dev (scripts/setup.sh installs what the workspace needs)"
#else
#include <curl/curl.h>
#endif

#endif
