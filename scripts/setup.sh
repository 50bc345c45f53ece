#!/usr/bin/env bash
# Installs the Debian packages the workspace needs, if any are missing. Safe to run repeatedly.
# The list grows with the plugins: each C library's -dev package, plus what the tests run against.
set -euo pipefail

packages=(
    libcurl4 # FoundationNetworking (URLRequest/URLResponse types) links it at run time
    libssl-dev # CacheDisk: SHA-256 file names (OpenSSL libcrypto, CCrypto)
    libxxhash-dev # CacheDisk: XXH3 checksums of entries and journal records (CXXHash)
    pkgconf # finds libcrypto and libxxhash for the system-library targets
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
