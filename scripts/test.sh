#!/usr/bin/env bash
# Install what is missing (scripts/deps.sh), then
#   1. build/test: Release, -Wall -Wextra -Werror; run every ctest test
#      (unit tests, the C API tests also under valgrind memcheck, Bullet
#      scenes and demos, rfsolve CLI, benchmark smoke runs, install +
#      consumer);
#   2. build/asan: AddressSanitizer + UndefinedBehaviorSanitizer (with
#      LeakSanitizer); run the unit tests (ctest -L unit) again.
# Both passes run even if the first fails; the exit status is non-zero if
# anything failed.  OMP_NUM_THREADS defaults to 2.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# valgrind: the C API tests also run under memcheck
RF_EXTRA_PACKAGES="valgrind ${RF_EXTRA_PACKAGES:-}"
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
failed=""

echo "== build/test: Release, -Wall -Wextra -Werror"
if cmake -S . -B build/test -DCMAKE_BUILD_TYPE=Release -DRF_WERROR=ON >/dev/null &&
    cmake --build build/test -j "$jobs"; then
    echo "== build/test: all tests (OMP_NUM_THREADS=$OMP_NUM_THREADS)"
    (cd build/test && ctest --output-on-failure -j "$jobs") || failed="$failed tests"
else
    failed="$failed build/test"
fi

echo "== build/asan: ASan + UBSan, -Werror"
# LeakSanitizer is on (detect_leaks=1).  libgomp's thread pool has not
# shown up as a leak with gcc 12 (checked), so no suppression file is
# needed; if one ever is, put it in tests/lsan.supp with only libgomp
# frames ("leak:libgomp.so") and it is picked up here.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
if [ -f tests/lsan.supp ]; then
    export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
if cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRF_WERROR=ON \
        -DRF_SANITIZE=ON >/dev/null &&
    cmake --build build/asan -j "$jobs"; then
    echo "== build/asan: unit tests"
    (cd build/asan && ctest -L unit --output-on-failure -j "$jobs") ||
        failed="$failed asan-tests"
else
    failed="$failed build/asan"
fi

if [ -n "$failed" ]; then
    echo "== FAILED:$failed"
    exit 1
fi
echo "== all tests passed"
