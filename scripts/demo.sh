#!/usr/bin/env bash
# Install what is missing, build, and run the main job: rfsolve on the
# example problems, then the solver benchmark in quick mode.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j "$jobs"

for f in tests/data/*.dat; do
    for solver in gs apgd; do
        echo "== rfsolve $f --model desaxce --solver $solver"
        build/release/rfsolve "$f" --model desaxce --solver "$solver"
    done
done

echo "== rfbench --quick"
mkdir -p bench/results
build/release/rfbench --quick --out bench/results/rfbench-quick.json
