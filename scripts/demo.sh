#!/usr/bin/env bash
# Install what is missing (scripts/deps.sh), build (build/release,
# Release), and run the main job:
#   rfsolve on every example problem in tests/data (De Saxce model, with
#   Gauss-Seidel and with APGD), then the solver benchmark in quick mode.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
echo "== build/release: Release"
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j "$jobs"

for f in tests/data/*.dat; do
    for solver in gs apgd; do
        echo "== rfsolve $f --model desaxce --solver $solver"
        build/release/rfsolve "$f" --model desaxce --solver "$solver"
    done
done

json=bench/results/rfbench-quick.json
echo "== rfbench --quick"
build/release/rfbench --quick --out "$json"
echo "== benchmark results (JSON): $root/$json"
