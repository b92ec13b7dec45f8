#!/usr/bin/env bash
# The Debian package (CMakeLists.txt, CPack): built from the build folder
# with `cpack -G DEB`, then checked without touching the system:
#   - its control data: Depends on Bullet's runtime (libbullet3.24),
#     libgomp1 and libinih1 (from the binaries), under /usr;
#   - its files: the libraries, the preload libraries, the headers, the
#     pkg-config and CMake files, the launcher and rfdemo;
#   - unpacked into a scratch root (dpkg-deb -x): a program built with
#     that tree's pkg-config runs without LD_LIBRARY_PATH, and the
#     unpacked launcher runs a Bullet program under the unpacked preload.
# usage: deb.sh BUILD_DIR CONSUMER_SOURCE_DIR PLAIN_BULLET_APP
set -eu
build=$1
src=$2
app=$3
work="$build/deb-check"
rm -rf "$work"
mkdir -p "$work"

(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) ||
    { cat "$work/cpack.log"; echo "cpack -G DEB failed"; exit 1; }
deb=$(find "$work" -maxdepth 1 -name 'rollfric_*.deb' | head -n 1)
[ -n "$deb" ] || { echo "no rollfric_*.deb in $work"; exit 1; }
echo "package: $(basename "$deb")"

info=$(dpkg-deb -f "$deb" Package Version Depends)
echo "$info"
for dep in libbullet3.24 libgomp1 libinih1; do
    echo "$info" | grep -q "^Depends:.*$dep" || { echo "Depends lacks $dep"; exit 1; }
done
echo "[ OK ] control: Depends on Bullet, libgomp1, libinih1"

files=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
for f in ./usr/bin/rollfric ./usr/bin/rfdemo ./usr/bin/rfsolve \
         ./usr/include/rollfric/rollfric.h ./usr/include/rollfric/rollfric_bullet.h; do
    echo "$files" | grep -qx "$f" || { echo "not in the package: $f"; exit 1; }
done
for f in librollfric.so librollfric-float64.so librollfric_preload.so \
         librollfric_preload-float64.so pkgconfig/rollfric.pc \
         cmake/rollfric/rollfricConfig.cmake; do
    echo "$files" | grep -q "^\./usr/lib.*/$f$" || { echo "not in the package: $f"; exit 1; }
done
echo "[ OK ] files: libraries, preloads, headers, pkg-config, CMake, launcher, rfdemo"

root="$work/root"
dpkg-deb -x "$deb" "$root"
pcdir=$(find "$root/usr" -name rollfric.pc -printf '%h\n' | head -n 1)
# shellcheck disable=SC2046  # pkg-config output is meant to be split
PKG_CONFIG_PATH="$pcdir" cc -std=c11 "$src/main.c" \
    $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs rollfric) -lm \
    -o "$work/pc-consumer"
env -u LD_LIBRARY_PATH "$work/pc-consumer"
echo "[ OK ] unpacked: a pkg-config program runs without LD_LIBRARY_PATH"
out=$(env -u LD_LIBRARY_PATH "$root/usr/bin/rollfric" run --quiet -- "$app" --steps 30)
case "$out" in distance*) ;; *) echo "unpacked rollfric run: '$out'"; exit 1 ;; esac
echo "[ OK ] unpacked: the launcher runs a Bullet program under the preload"
