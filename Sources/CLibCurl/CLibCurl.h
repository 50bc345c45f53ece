// libcurl, as installed by libcurl4-openssl-dev (pkg-config "libcurl").
#include <curl/curl.h>
