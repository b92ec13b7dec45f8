#!/usr/bin/env bash
# libFuzzer runs of the fuzz targets in tests/fuzz (clang from Debian).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is how long each target runs; TARGETs are any of
# problem_io, project, body_solve, record_read (default: all four, one after the
# other).  It
#   1. installs what is missing (scripts/deps.sh): clang, libFuzzer
#      (libclang-rt-14-dev, Debian 12's clang 14 runtime) and libomp-14-dev
#      (clang's OpenMP, which the solver core needs);
#   2. configures build/fuzz with CC=clang -DRF_FUZZ=ON and builds only the
#      fuzz_<target> executables (-fsanitize=fuzzer,address,undefined);
#   3. runs each target for SECONDS (-max_total_time) on its kept corpus
#      tests/fuzz/corpus/<target>/ and the reproducers in
#      tests/fuzz/crashes/<target>/, writing new inputs to a scratch corpus
#      under build/fuzz/run/<target>/;
#   4. merges the new inputs that add coverage into
#      tests/fuzz/corpus/<target>/ (-merge=1: only what adds coverage, so
#      the corpus stays small), and copies every crash, timeout, leak or
#      out-of-memory input to tests/fuzz/crashes/<target>/.
# Exit status: non-zero if a target crashed (or could not run); the
# reproducers are then in tests/fuzz/crashes/<target>/, where the
# fuzz_replay_<target> ctest test (scripts/test.sh) replays them with any
# compiler until the bug is fixed.  One reproduces by hand with
#   build/fuzz/tests/fuzz/fuzz_<target> tests/fuzz/crashes/<target>/FILE
# Extra libFuzzer options can be passed in RF_FUZZ_ARGS (e.g. "-jobs=2").
# The runs use one core each; nice them on a shared machine
# (nice -n 19 scripts/fuzz.sh 600).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

seconds=${1:-60}
case "$seconds" in
'' | *[!0-9]*)
    echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
    exit 2
    ;;
esac
[ $# -gt 0 ] && shift
targets=${*:-problem_io project body_solve record_read}
for t in $targets; do
    case "$t" in
    problem_io | project | body_solve | record_read) ;;
    *)
        echo "scripts/fuzz.sh: unknown target $t (problem_io, project, body_solve, record_read)" >&2
        exit 2
        ;;
    esac
done

RF_EXTRA_PACKAGES="clang libclang-rt-14-dev libomp-14-dev ${RF_EXTRA_PACKAGES:-}"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
# One thread: the fuzzed problems are far below the solvers' parallel
# thresholds, and libFuzzer's timing is steadier without a thread pool.
export OMP_NUM_THREADS=1
CC=clang CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRF_FUZZ=ON >/dev/null
exes=""
for t in $targets; do
    exes="$exes fuzz_$t"
done
# shellcheck disable=SC2086
cmake --build build/fuzz -j "$jobs" --target $exes

# Input size limits: a problem file of a few contacts, a projection's nine
# tagged numbers, a body problem of up to 4 bodies, 7 contacts, 3 rows.
max_len() {
    case "$1" in
    problem_io) echo 4096 ;;
    project) echo 128 ;;
    body_solve) echo 2048 ;;
    esac
}

failed=""
for t in $targets; do
    exe="build/fuzz/tests/fuzz/fuzz_$t"
    corpus="tests/fuzz/corpus/$t"
    crashes="tests/fuzz/crashes/$t"
    run="build/fuzz/run/$t"
    rm -rf "$run"
    mkdir -p "$corpus" "$crashes" "$run/new" "$run/artifacts"
    echo "== fuzz_$t: ${seconds} s"
    rc=0
    # The scratch corpus comes first: libFuzzer writes new inputs into the
    # first directory.  detect_leaks: a leak is a bug too.
    # shellcheck disable=SC2086
    ASAN_OPTIONS=detect_leaks=1 "$exe" -max_total_time="$seconds" \
        -max_len="$(max_len "$t")" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$run/artifacts/" \
        ${RF_FUZZ_ARGS:-} "$run/new" "$corpus" "$crashes" \
        >"$run/log" 2>&1 || rc=$?
    grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs)" \
        "$run/log" || true
    # keep what adds coverage (merge is quiet unless it fails)
    if [ -n "$(find "$run/new" -type f)" ]; then
        before=$(find "$corpus" -type f | wc -l)
        "$exe" -merge=1 -max_len="$(max_len "$t")" "$corpus" "$run/new" \
            >"$run/merge.log" 2>&1 || echo "fuzz_$t: merge failed, see $run/merge.log" >&2
        echo "fuzz_$t: corpus $before -> $(find "$corpus" -type f | wc -l) inputs"
    fi
    found=0
    for f in "$run"/artifacts/*; do
        [ -e "$f" ] || continue
        cp "$f" "$crashes/"
        echo "fuzz_$t: reproducer kept: $crashes/$(basename "$f")"
        found=1
    done
    if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
        echo "fuzz_$t: FAILED (exit $rc); the log: $run/log" >&2
        tail -n 40 "$run/log" >&2
        failed="$failed $t"
    else
        echo "fuzz_$t: clean for ${seconds} s"
    fi
done

if [ -n "$failed" ]; then
    echo "== fuzz FAILED:$failed"
    exit 1
fi
echo "== fuzz: all clean"
