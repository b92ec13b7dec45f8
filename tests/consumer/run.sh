#!/usr/bin/env bash
# Install rollfric into a scratch prefix, then build tests/consumer/main.c
# against it twice: with find_package(rollfric) and with pkg-config.
# usage: run.sh BUILD_DIR CONSUMER_SOURCE_DIR
set -eu
build=$1
src=$2
work="$build/consumer-check"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(find "$work/prefix" -name 'librollfric.so' -printf '%h\n' | head -n 1)

cmake -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
LD_LIBRARY_PATH="$libdir" "$work/cmake-build/consumer"
echo "[ OK ] find_package(rollfric) consumer"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -std=c11 "$src/main.c" $(pkg-config --cflags --libs rollfric) -lm -o "$work/pc-consumer"
LD_LIBRARY_PATH="$libdir" "$work/pc-consumer"
echo "[ OK ] pkg-config consumer"
