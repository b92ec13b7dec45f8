#!/usr/bin/env bash
# Install rollfric into a scratch prefix under the build dir, then build
# programs outside the project against it:
#   tests/consumer/main.c      find_package(rollfric), shared and static
#   tests/consumer/cxx/        a C++-only project, shared and static
#   tests/consumer/main.c      cc ... $(pkg-config --cflags --libs rollfric),
#                              and statically with pkg-config --static
# and run the installed rfsolve (its RPATH must find the installed library).
# usage: run.sh BUILD_DIR CONSUMER_SOURCE_DIR
set -eu
build=$1
src=$2
work="$build/consumer-check"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
libdir=$(find "$prefix" -name 'librollfric.so' -printf '%h\n' | head -n 1)
[ -n "$libdir" ] || { echo "librollfric.so not installed"; exit 1; }
for f in "$prefix/include/rollfric/rollfric.h" "$libdir/librollfric.a" \
         "$libdir/pkgconfig/rollfric.pc" "$libdir/pkgconfig/rollfric-float64.pc" \
         "$prefix/include/rollfric/rollfric_bullet.h" \
         "$prefix/include/rollfric/bullet_c_api.h" \
         "$libdir/librollfric-float64.so" "$libdir/librollfric_preload.so" \
         "$libdir/librollfric_preload-float64.so" \
         "$libdir/cmake/rollfric/rollfricConfig.cmake" \
         "$libdir/cmake/rollfric/rollfricConfigVersion.cmake" \
         "$libdir/cmake/rollfric/rollfricTargets.cmake" \
         "$prefix/bin/rfsolve" "$prefix/bin/rfbench" \
         "$prefix/bin/rollfric" "$prefix/bin/rfdemo"; do
    [ -e "$f" ] || { echo "not installed: ${f#"$prefix"/}"; exit 1; }
done
# Private headers stay private.
if [ -e "$prefix/include/rollfric/internal.h" ]; then
    echo "internal.h must not be installed"; exit 1
fi
echo "[ OK ] installed files"

# The installed tool finds the installed library through its RPATH.
env -u LD_LIBRARY_PATH "$prefix/bin/rfsolve" --help >/dev/null
echo "[ OK ] installed rfsolve runs"

# The installed launcher finds the installed preload library and rfdemo:
# run, and ab with its viewer page, on the build's plain Bullet program.
out=$(env -u LD_LIBRARY_PATH "$prefix/bin/rollfric" run --quiet -- \
    "$build/plain_bullet_app" --steps 30)
case "$out" in distance*) ;; *) echo "installed rollfric run: '$out'"; exit 1 ;; esac
env -u LD_LIBRARY_PATH "$prefix/bin/rollfric" ab --quiet --out "$work/ab" -- \
    "$build/plain_bullet_app" --steps 30 >/dev/null
[ -s "$work/ab/view.html" ] && [ -s "$work/ab/cone.rec" ] ||
    { echo "installed rollfric ab wrote no viewer page"; exit 1; }
echo "[ OK ] installed rollfric runs and A/Bs an application"

# Quiet configure and build; on failure show what was said.
quietly() {
    if ! "$@" >"$work/step.log" 2>&1; then
        cat "$work/step.log"
        echo "failed: $*"
        exit 1
    fi
}

quietly cmake -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix"
quietly cmake --build "$work/cmake-build"
LD_LIBRARY_PATH="$libdir" "$work/cmake-build/consumer"
echo "[ OK ] find_package(rollfric) consumer, rollfric::rollfric"
env -u LD_LIBRARY_PATH "$work/cmake-build/consumer_static"
if ldd "$work/cmake-build/consumer_static" | grep -q librollfric; then
    echo "consumer_static is linked against the shared library"; exit 1
fi
echo "[ OK ] find_package(rollfric) consumer, rollfric::rollfric_static"

quietly cmake -S "$src/cxx" -B "$work/cmake-build-cxx" -DCMAKE_PREFIX_PATH="$prefix"
quietly cmake --build "$work/cmake-build-cxx"
LD_LIBRARY_PATH="$libdir" "$work/cmake-build-cxx/consumer_cxx"
env -u LD_LIBRARY_PATH "$work/cmake-build-cxx/consumer_cxx_static"
echo "[ OK ] C++-only find_package(rollfric) consumer, shared and static"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
echo "pkg-config: rollfric $(pkg-config --modversion rollfric)"
# shellcheck disable=SC2046  # pkg-config output is meant to be split
cc -std=c11 "$src/main.c" $(pkg-config --cflags --libs rollfric) -lm \
    -o "$work/pc-consumer"
# the .pc's Libs carry an rpath to its libdir: no LD_LIBRARY_PATH, no
# ldconfig needed to run what was built against it
env -u LD_LIBRARY_PATH "$work/pc-consumer"
echo "[ OK ] pkg-config consumer, shared, runs without LD_LIBRARY_PATH"
# Static: Libs.private must carry what librollfric.a needs (-fopenmp -lm).
# -l:librollfric.a picks the archive where -lrollfric would take the .so.
static_libs=$(pkg-config --static --libs rollfric | sed 's/-lrollfric/-l:librollfric.a/')
# shellcheck disable=SC2046,SC2086  # split on purpose, as above
cc -std=c11 "$src/main.c" $(pkg-config --cflags rollfric) $static_libs \
    -o "$work/pc-consumer-static"
env -u LD_LIBRARY_PATH "$work/pc-consumer-static"
echo "[ OK ] pkg-config consumer, static ($static_libs)"
