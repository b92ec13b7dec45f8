#!/usr/bin/env bash
# The soak run ("Reliability"): install what is missing
# (scripts/deps.sh), build build/release (Release) target soak only, and
# run tests/soak/soak.cpp: a closed box (2.4 x 3 x 2.4 m) shaken
# sinusoidally (4 cm at 2 Hz sideways, 2 cm at 4 Hz up and down: 0.71 m/s,
# 1.4 g peak) holding 1,000 spheres (R = 0.1 m, rolling and spinning
# friction) of which 28% are linked by point2point chains, hinges and
# 6-dof springs, stepped at 1/60 s by rollfric's cone solver (APGD, at
# most 30 iterations, tolerance 1e-4).  It fails on any non-finite body
# state, a sphere outside the box, energy above a bound derived from the
# shaking (soak.cpp states the derivation) or drifting upwards, a step
# the cone solver did not take, or a resident set size at the end more
# than 5% above the one at 10% of the run.
#
#   scripts/soak.sh [STEPS] [soak options...]
#
# STEPS defaults to 100,000 (28 minutes of simulated time); further
# options go to the soak program (soak --help), e.g.
#   scripts/soak.sh 100000 --solver gs_colored --threads 2
#   scripts/soak.sh 20000 --spheres 500 --pool 16384
# It runs with one OpenMP thread unless given --threads (the machine is
# shared: two threads on busy cores wait at every barrier; results are
# bitwise the same for any thread count), under `nice -n 10`.
#
# Output: the progress and summary on stdout, and the JSON summary in
# build/soak-latest.json (under build/, which git ignores; a new file in
# bench/results/ would not be).  The full run took 56 minutes on the
# shared 2-core development machine (26 ms per step median, one thread,
# load 2-7 from other jobs).  Exit status: the soak's (0 pass, 1 a check
# failed, 2 usage).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
steps=100000
if [ $# -gt 0 ]; then
    case "$1" in
    -h | --help)
        sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    -*) ;;
    *)
        steps=$1
        shift
        ;;
    esac
fi
case "$steps" in
'' | *[!0-9]*)
    echo "usage: scripts/soak.sh [STEPS] [soak options...]" >&2
    exit 2
    ;;
esac
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
echo "== build/release: Release, target soak"
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j "$jobs" --target soak

threads=1
for a in "$@"; do
    [ "$a" = "--threads" ] && threads=""
done
out=build/soak-latest.json
echo "== soak: $steps steps${*:+, options: $*} (JSON: $out)"
rc=0
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} nice -n 10 build/release/tests/soak/soak \
    --steps "$steps" ${threads:+--threads "$threads"} --out "$out" "$@" || rc=$?
echo "== soak: exit status $rc, summary in $out"
exit "$rc"
