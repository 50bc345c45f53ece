#!/usr/bin/env bash
# Installs the Debian packages the workspace needs, if any are missing. Safe to run repeatedly.
# The list grows with the plugins: each C library's -dev package, plus what the tests run against.
set -euo pipefail

packages=(
    libcurl4 # FoundationNetworking (URLRequest/URLResponse types) links it at run time
    libcurl4-openssl-dev # LoaderCurl (CLibCurl, pkg-config libcurl); the OpenSSL flavour, not GnuTLS
    pkg-config # SwiftPM finds libcurl's flags through it
    nginx-light # IntegrationTests: interop test against a real nginx (skipped with a reason if missing)
    openssl # IntegrationTests: self-signed certificate for the HTTPS/ALPN interop test
)

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
