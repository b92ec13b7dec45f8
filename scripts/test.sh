#!/usr/bin/env bash
# Install what is missing (scripts/deps.sh), then
#   1. build/test: Release, -Wall -Wextra -Werror; run every ctest test
#      (unit tests, the C API tests also under valgrind memcheck, Bullet
#      scenes and demos, rfsolve CLI, benchmark smoke runs, install +
#      consumer);
#   2. build/asan: AddressSanitizer + UndefinedBehaviorSanitizer (with
#      LeakSanitizer); run the whole suite again except the valgrind and
#      install tests (see there why);
#   3. build/tsan: ThreadSanitizer, clang-14 with LLVM's libomp and its
#      Archer tool; run the solver core's tests (tests/test_*.c) with
#      OMP_NUM_THREADS=2, and test_determinism again with 4.
# All passes run even if an earlier one fails; the exit status is non-zero
# if anything failed.  OMP_NUM_THREADS defaults to 2.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# valgrind: the C API tests also run under memcheck.  clang-14,
# libclang-rt-14-dev (its sanitizer runtimes, only a Recommends of
# clang-14, and deps.sh installs without recommends) and libomp-14-dev
# (LLVM's OpenMP runtime with Archer, libarcher.so): the TSan pass.
# chromium: the A/B viewer's page loaded headless (ctest rfdemo_viewer,
# label browser; WebGL on SwiftShader).
RF_EXTRA_PACKAGES="valgrind clang-14 libclang-rt-14-dev libomp-14-dev clang-format-14 chromium ${RF_EXTRA_PACKAGES:-}"
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
# Passive waiting: ctest -j runs two OpenMP programs at once on 2 cores
# (and some tests ask for 4 threads), so threads waiting at a barrier must
# sleep, not spin; spinning ones take the cores from the threads that
# still work.  Measured on 2 cores with two niced background processes:
# test_determinism 55 s spinning (libgomp's default) against 4 s passive.
# Results do not depend on it (the solvers are deterministic).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
failed=""

echo "== clang-format: every C and C++ source as .clang-format says"
if [ -d .git ] && command -v git >/dev/null 2>&1; then
    rf_sources=$(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')
else # a copy without git: the same directories
    rf_sources=$(find include plugin shim tools bench tests demos \
        -name '*.[ch]' -o -name '*.cpp' -o -name '*.hpp')
fi
# shellcheck disable=SC2086
clang-format-14 --dry-run --Werror $rf_sources || failed="$failed clang-format"

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
# verify_asan_link_order=0: the preload test runs an (ASan-linked) Bullet
# program with LD_PRELOAD=librollfric_preload.so, which puts that library
# ahead of libasan in the load order; ASan would refuse to start ("ASan
# runtime does not come first").  The runtime is still there (the program
# links it) and the preloaded library defines no allocator, so nothing is
# lost by not checking the order.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:verify_asan_link_order=0
if [ -f tests/lsan.supp ]; then
    export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
if cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRF_WERROR=ON \
        -DRF_SANITIZE=ON >/dev/null &&
    cmake --build build/asan -j "$jobs"; then
    # Every test except
    #   - label valgrind: valgrind cannot run an ASan program (both replace
    #     the allocator and ASan's shadow memory mapping upsets valgrind);
    #     the same programs run here natively under ASan instead;
    #   - label install (install_consumer): it builds outside programs
    #     against the installed package with plain flags, and an
    #     ASan-instrumented librollfric cannot be linked into a program
    #     built without -fsanitize=address (librollfric.a: undefined
    #     __asan_* symbols; librollfric.so: ASan refuses to start when its
    #     runtime is not loaded first).  It checks packaging, not memory,
    #     and build/test runs it;
    #   - label sweep (test_gravel_pile.cone, test_sphere_pile.cone): the
    #     two asserted pile sweeps, which hold only at full size and take
    #     3-8 minutes under ASan, against the house rule of 60 s per test
    #     there; build/test runs them, and the code they run runs here in
    #     the piles' other entries and the Bullet scene tests.
    # The long scene programs are split into entries (tests/demos/
    # README.md), so every test here stays under a minute.
    echo "== build/asan: all tests but valgrind, install and sweep"
    (cd build/asan && ctest -LE '^(valgrind|install|sweep)$' \
        --output-on-failure -j "$jobs") || failed="$failed asan-tests"
else
    failed="$failed build/asan"
fi
unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

echo "== build/tsan: ThreadSanitizer (clang-14, libomp + Archer), -Werror"
# gcc's libgomp is not built with TSan: TSan does not see its barriers
# and reports every access after one as a race.  LLVM's libomp has an
# OMPT tool, Archer (libarcher.so, Debian ships it in libomp-14-dev),
# that tells TSan what OpenMP's barriers, reductions and tasks
# synchronise; loaded with OMP_TOOL_LIBRARIES, with TSan told to ignore
# the accesses inside the uninstrumented libomp itself
# (ignore_noninstrumented_modules=1, as Archer asks).  So this pass
# builds with clang-14, whose -fopenmp is libomp.  Built and run: the
# solver core's tests (tests/test_*.c, which link librollfric.a), where
# most OpenMP loops are, and the two Bullet tests that run the shim's own
# parallel loops (contact slots and write-back, cone_solver.cpp) on 2 and
# 4 threads: test_bullet_determinism_api, test_bullet_faults_api.
# A race makes TSan report and the test exit with status 66 (checked
# once with a deliberately racy test).
# OMP_WAIT_POLICY=passive (set above) matters even more here: libomp's
# idle threads otherwise spin for 200 ms (KMP_BLOCKTIME) after each
# parallel region, starving the working threads under TSan.
tsan_tests=""
tsan_regex=""
for f in tests/test_*.c tests/test_bullet_determinism_api.cpp \
    tests/test_bullet_faults_api.cpp; do
    t=$(basename "${f%.*}")
    tsan_tests="$tsan_tests $t"
    tsan_regex="$tsan_regex${tsan_regex:+|}$t"
done
tsan_regex="^($tsan_regex)\$"
# shellcheck disable=SC2086  # $tsan_tests: one target per word
tsan_build() {
    cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRF_WERROR=ON \
        -DRF_TSAN=ON -DCMAKE_C_COMPILER=clang-14 \
        -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null &&
        cmake --build build/tsan -j "$jobs" --target $tsan_tests
}
archer=$(dpkg -L libomp-14-dev 2>/dev/null | grep '/libarcher\.so$' | head -n 1 || true)
if [ -z "$archer" ] || ! command -v clang-14 >/dev/null 2>&1; then
    echo "clang-14 or libarcher.so (libomp-14-dev) missing"
    failed="$failed build/tsan"
elif tsan_build; then
    (
        cd build/tsan
        export OMP_TOOL_LIBRARIES="$archer"
        export TSAN_OPTIONS="ignore_noninstrumented_modules=1:halt_on_error=1:second_deadlock_stack=1"
        echo "== build/tsan: solver tests (OMP_NUM_THREADS=2)"
        OMP_NUM_THREADS=2 ctest -R "$tsan_regex" --no-tests=error \
            --output-on-failure -j "$jobs" &&
            echo "== build/tsan: test_determinism (OMP_NUM_THREADS=4)" &&
            OMP_NUM_THREADS=4 ctest -R '^test_determinism$' --output-on-failure
    ) || failed="$failed tsan-tests"
else
    failed="$failed build/tsan"
fi

if [ -n "$failed" ]; then
    echo "== FAILED:$failed"
    exit 1
fi
echo "== all tests passed"
