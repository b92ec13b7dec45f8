#!/usr/bin/env bash
# The benchmark suite: install what is missing
# (scripts/deps.sh), build build/release (Release), run
#   1. rfbench: the solvers alone on synthetic sphere packs: contact-
#      iterations per second per solver and thread count, a STREAM-like
#      triad bandwidth probe in the same process and the roofline fraction
#      of one solver iteration, time per iteration at 1e3, 1e4, 1e5
#      contacts and its log-log slope, residual vs iterations and vs
#      seconds (Jacobi, Gauss-Seidel, APGD), solver state bytes per contact;
#   2. rfbench_bullet: Bullet scenes (settled sphere piles, a box wall, a
#      joint chain) stepped by stock Bullet and by the cone solver (10
#      iterations; tolerance 1e-4), threads 1 and 2, interleaved, medians,
#      ratios, the cone step split into build / solve / write-back;
#   3. rfbench_scenes: Bullet's own demo scenes (BenchmarkDemo 1-6,
#      BasicDemo, RollingFrictionDemo, a sphere pile), stock vs the cone
#      solver's configurations, interleaved: ms per step, sleeping,
#      energy gained, penetration, fallen bodies, joint drift;
# and writes bench/results/latest.json (the programs' JSON in one object)
# and the plots bench/results/convergence.png and scaling.png (gnuplot).
#
#   scripts/bench.sh [--quick]
#
# --quick: small sizes, under 2 minutes on 2 cores; the full run takes
# much longer (the 50k-sphere pile).  The machine is shared: every ratio is
# measured within one run, interleaved, as medians.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=""
case "${1:-}" in
--quick) quick="--quick" ;;
"") ;;
*)
    echo "usage: scripts/bench.sh [--quick]" >&2
    exit 2
    ;;
esac
. scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
echo "== build/release: Release"
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j "$jobs" --target rfbench rfbench_bullet rfbench_scenes

out=bench/results
mkdir -p "$out"
tag=${quick:+-quick}
solver_json=$out/rfbench$tag.json
bullet_json=$out/rfbench-bullet$tag.json
scenes_json=$out/rfbench-scenes$tag.json

echo "== rfbench $quick (solvers alone)"
build/release/rfbench $quick --out "$solver_json"
echo "== rfbench_bullet $quick (Bullet scenes, stock vs cone)"
build/release/rfbench_bullet $quick --out "$bullet_json"
echo "== rfbench_scenes $quick (Bullet's demo scenes, stock vs cone)"
build/release/rfbench_scenes $quick --out "$scenes_json"

# one object: when, where, what, and the programs' results
{
    printf '{\n  "generated": "%s",\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf '  "commit": "%s",\n' "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    printf '  "cpus": %s,\n  "quick": %s,\n' "$jobs" "$([ -n "$quick" ] && echo true || echo false)"
    printf '  "solver": '
    cat "$solver_json"
    printf ',\n  "bullet": '
    cat "$bullet_json"
    printf ',\n  "scenes": '
    cat "$scenes_json"
    printf '\n}\n'
} >"$out/latest.json"

# plots (the CSVs rfbench writes beside its JSON)
conv=${solver_json%.json}-convergence.csv
scal=${solver_json%.json}-scaling.csv
if [ -s "$conv" ]; then
    gnuplot <<EOF
set terminal pngcairo size 1200,500 noenhanced font ',11'
set output '$out/convergence.png'
set datafile separator comma
set multiplot layout 1,2 title 'Residual from a cold start ($(basename "$conv"))'
set logscale y
set format y '%.0e'
set grid
set key top right
set xlabel 'iterations'
set ylabel 'residual'
set logscale x
plot for [s in 'jacobi gs apgd'] '$conv' using (strcol(1) eq s ? column(2) : NaN):4 with linespoints pt 7 ps 0.5 title s
set xlabel 'seconds'
plot for [s in 'jacobi gs apgd'] '$conv' using (strcol(1) eq s ? column(3) : NaN):4 with linespoints pt 7 ps 0.5 title s
unset multiplot
EOF
    echo "== plot: $root/$out/convergence.png"
fi
if [ -s "$scal" ]; then
    gnuplot <<EOF
set terminal pngcairo size 900,600 noenhanced font ',11'
set output '$out/scaling.png'
set datafile separator comma
set logscale xy
set grid
set key top left
set title 'Time per solver iteration vs contacts ($(basename "$scal"))'
set xlabel 'contacts'
set ylabel 'seconds per iteration'
plot for [s in 'jacobi gs gs-colored apgd'] for [t in '1 2'] '$scal' using (strcol(1) eq s && column(2) == t ? column(3) : NaN):4 with linespoints pt 7 title s.' '.t.' thread'.(t eq '1' ? '' : 's')
EOF
    echo "== plot: $root/$out/scaling.png"
fi
echo "== results: $root/$out/latest.json"
