#!/usr/bin/env bash
# Installs the Debian packages the workspace needs, if any are missing. Safe to run repeatedly.
# The list grows with the plugins: each C library's -dev package, plus what the tests run against. The root package
# needs no pkg-config (see Package.swift); the benchmarks' does.
set -euo pipefail

packages=(
    libcurl4 # FoundationNetworking (URLRequest/URLResponse types) links it at run time
    libpng-dev          # DecoderPNG (CPNG)
    libjpeg62-turbo-dev # DecoderJPEG (CJPEG, CJPEGShim)
    libwebp-dev         # DecoderWebP (CWebP: libwebp + libwebpdemux)
    librsvg2-dev        # DecoderSVG (CRSVG: librsvg, cairo, GLib)
    libgif-dev          # DecoderGIF (CGIF, CGIFShim: giflib)
    libavif-dev         # DecoderAVIF (CAVIF, CAVIFShim: libavif, decoding with dav1d, encoding with libaom)
    libjxl-dev          # DecoderJXL (CJXL: libjxl, decoding and encoding JPEG XL)
    libjxl-tools        # scripts/make-jxl-fixtures.py: cjxl and djxl, which made DecoderJXLTests' fixtures
    libheif-dev         # DecoderHEIF (CHEIF, CHEIFShim: libheif, decoding HEVC with libde265)
    libheif-examples    # heif-enc, heif-convert: DecoderHEIFTests fixtures (scripts/make-heif-fixtures.py); NukeTests runs heif-enc
    fonts-dejavu-core   # a font for the SVG text-rendering tests
    libssl-dev          # CacheDisk: SHA-256 file names (OpenSSL libcrypto, CCrypto)
    libxxhash-dev       # CacheDisk: XXH3 checksums of entries and journal records (CXXHash)
    libcurl4-openssl-dev # LoaderCurl (CLibCurl); the OpenSSL flavour, not GnuTLS
    libhiredis-dev      # CacheRedis (CHiredis): the Redis client library
    libmicrohttpd-dev   # ServeMicroHTTPD (CMicroHTTPD, CMicroHTTPDShim): nuke serve's HTTP server library
    liblcms2-dev        # ColorLCMS (CLCMS2, CLCMS2Shim): lcms2 converts embedded colour profiles to sRGB
    liblcms2-utils      # ColorLCMSTests: transicc, lcms2's own conversion of the reference pixels
    zlib1g-dev          # DecoderPNG (CPNG): inflates and deflates iCCP profiles
    redis-server        # CacheRedisTests: real Redis servers started by the tests
    nginx-light         # IntegrationTests: interop test against a real nginx
    openssl             # IntegrationTests: self-signed certificate for the HTTPS/ALPN interop test
    python3             # NukeServeTests: Python's hmac module signs URLs as an implementation independent of ours
    curl                # NukeCLITests: the client of nuke serve's process tests
    apache2-utils       # NukeCLITests: ab, 2,000 requests against nuke serve
    nodejs              # IntegrationTests: the cache-tests suite's origin server (Tests/Fixtures/cache-tests)
)

# Only for the benchmark package (Benchmarks/), which compares against these libraries in-process:
# `scripts/setup.sh --benchmarks`. The root build and tests never need them.
benchmark_packages=(
    pkg-config    # finds libvips and cairo for the benchmark's C target
    libvips-dev   # libvips, the reference for resize and blur timings
    libcairo2-dev # cairo/pixman, the CAIRO_FILTER_GOOD scaling reference
    libturbojpeg0-dev # TurboJPEG, the reference loop for JPEG decoding and DCT-scaled thumbnails
    curl          # the curl CLI (--parallel), the loading scenario's reference
    nginx-light   # the local server of the loading and end-to-end scenarios
    python3-venv  # Benchmarks/.venv for the Python references (Pillow, pyvips) installed from PyPI
    wrk           # the HTTP load generator of the serve section (scenario 13)
    libnginx-mod-http-image-filter # nginx's image_filter (libgd), a reference of the serve section
)
if [ "${1:-}" = "--benchmarks" ]; then
    packages+=("${benchmark_packages[@]}")
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The serve section's thumbor (PyPI, pinned in Benchmarks/python/thumbor-requirements.txt) in a venv of its own,
# Benchmarks/.venv-thumbor, where nuke-bench looks for it. Skipped when it is already installed.
if [ "${1:-}" = "--benchmarks" ]; then
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    venv="$root/Benchmarks/.venv-thumbor"
    if [ ! -x "$venv/bin/thumbor" ]; then
        echo "Installing thumbor into $venv" >&2
        /usr/bin/python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/Benchmarks/python/thumbor-requirements.txt"
    fi
fi
