#!/usr/bin/env bash
# A third-party developer's app, built as they would build it: Examples/ThirdPartyApp depends on this workspace by
# path and links only NukeCore, LoaderCurl and DecoderPNG, with a loader and a decoder of its own written as
# Plugins.md shows (Swift 6, default main-actor isolation). Fails on any warning of the build, then runs the app's
# tests (its plugins against NukeTestKit's conformance suites).
#
# SwiftPM sees only the .pc files of the libraries that app uses — libpng and libcurl, and the zlib that libpng's
# names — as on a machine that has only their -dev packages: a build that looks up any other library's flags warns
# ("you may be able to install libjpeg using your system-packager") and so fails here. Nothing is uninstalled.
# SwiftPM reads .pc files itself, from PKG_CONFIG_PATH, a few built-in folders (/usr/lib/pkgconfig,
# /usr/share/pkgconfig, /usr/local/…: none has these libraries' files on Debian) and the folders that
# `pkg-config --variable pc_path pkg-config` names, which PKG_CONFIG_LIBDIR doesn't change: so a `pkg-config` first
# on PATH names only the folder made here (and passes anything else on to the real one, limited to that folder).
# Arguments go on to both `swift` commands (e.g. `-c release`).
set -euo pipefail
cd "$(dirname "$0")/.."
app=Examples/ThirdPartyApp

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/pkgconfig" "$work/bin"
dpkg -L libpng-dev libcurl4-openssl-dev zlib1g-dev | grep '\.pc$' | xargs -I{} ln -s {} "$work/pkgconfig/"
real_pkg_config=$(command -v pkg-config || true)
cat >"$work/bin/pkg-config" <<WRAPPER
#!/bin/sh
if [ "\$*" = "--variable pc_path pkg-config" ]; then echo "$work/pkgconfig"; exit 0; fi
[ -n "$real_pkg_config" ] || exit 1
PKG_CONFIG_LIBDIR="$work/pkgconfig" exec "$real_pkg_config" "\$@"
WRAPPER
chmod +x "$work/bin/pkg-config"
export PATH="$work/bin:$PATH" PKG_CONFIG_PATH="$work/pkgconfig" PKG_CONFIG_LIBDIR="$work/pkgconfig"
log="$work/build.log"

status=0
swift build --package-path "$app" --build-tests "$@" 2>&1 | tee "$log" || status=$?
[ "$status" -eq 0 ] || { echo "the app's build failed (exit $status)" >&2; exit 1; }
if grep -qi "warning:" "$log"; then
    echo "== the app's build printed warnings:" >&2
    grep -i "warning:" "$log" | sort | uniq -c >&2
    exit 1
fi
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${NUKE_TEST_PARALLELISM:-8}" \
    swift test --package-path "$app" --skip-build "$@"
