#!/usr/bin/env bash
# Install what rollfric needs from Debian 12 packages, only what is missing.
# Sourced by scripts/test.sh and scripts/demo.sh; safe to run again.
#   RF_EXTRA_PACKAGES  more packages to install (space separated)
set -eu

rf_packages="build-essential cmake pkg-config libbullet-dev libinih-dev gnuplot-nox libjs-three ${RF_EXTRA_PACKAGES:-}"

rf_missing=""
for pkg in $rf_packages; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        rf_missing="$rf_missing $pkg"
    fi
done

if [ -n "$rf_missing" ]; then
    echo "rollfric: missing Debian packages:$rf_missing" >&2
    if [ "$(id -u)" -eq 0 ]; then
        rf_sudo=""
    elif command -v sudo >/dev/null 2>&1; then
        rf_sudo="sudo"
        echo "rollfric: installing them with sudo" >&2
    else
        echo "rollfric: missing packages and no sudo; as root, run:" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends$rf_missing" >&2
        exit 1
    fi
    # env: sudo resets the environment, so pass DEBIAN_FRONTEND through it.
    $rf_sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    $rf_sudo env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends $rf_missing >/dev/null
fi
