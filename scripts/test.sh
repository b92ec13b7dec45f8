#!/usr/bin/env bash
# Install what is missing, build with warnings as errors, run every test;
# then build the unit tests again with AddressSanitizer +
# UndefinedBehaviorSanitizer and run them once more.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

echo "== build (Release, -Wall -Wextra -Werror)"
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=Release -DRF_WERROR=ON >/dev/null
cmake --build build/test -j "$jobs"
echo "== tests"
(cd build/test && ctest --output-on-failure -j "$jobs")

echo "== build (ASan + UBSan)"
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRF_WERROR=ON \
    -DRF_SANITIZE=ON >/dev/null
cmake --build build/asan -j "$jobs"
echo "== unit tests under ASan + UBSan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
(cd build/asan && ctest -L unit --output-on-failure -j "$jobs")
echo "== all tests passed"
