#!/usr/bin/env bash
# Install what is missing (scripts/deps.sh), build (build/release,
# Release), and run the main job:
#   rfsolve on every example problem in tests/data (De Saxce model, with
#   Gauss-Seidel and with APGD), the solver benchmark in quick mode, a
#   plain Bullet program without and with the LD_PRELOAD drop-in (stock vs
#   cone), the Bullet pile benchmark (stock vs cone) in quick mode, and
#   last the main job: `rfdemo ab --quick` over every scene (stock vs
#   cone, plots, report.html, the 3D A/B viewer view.html), whose paths it
#   prints (before it, the sphere_on_plane Xmax map, --set map=1, into the
#   report's map/ folder).
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

echo "== a plain Bullet program: 100 kg ball rolled at 2 m/s, heading 45 deg,"
echo "   rolling friction 0.036 m; analytic stop distance 3.964 m"
echo -n "stock Bullet:          "
build/release/plain_bullet_app
echo -n "LD_PRELOAD rollfric:   "
LD_PRELOAD="$root/build/release/librollfric_preload.so" build/release/plain_bullet_app

json=bench/results/rfbench-bullet-quick.json
echo "== rfbench_bullet --quick (settled sphere pile, stock vs cone, 10 iterations)"
build/release/rfbench_bullet --quick --out "$json"
echo "== Bullet benchmark results (JSON): $root/$json"

echo "== rfdemo ab --quick: every scene (seed validation scenes and the"
echo "   converted Bullet demos) with stock and cone, CSV, plots, report"
report_dir=bench/results/rfdemo-quick
rm -rf "$report_dir"
echo "== rfdemo ab sphere_on_plane --set map=1: Acary's Xmax map as heat maps"
build/release/demos/rfdemo ab sphere_on_plane --quick --set map=1 \
    --out "$report_dir/map"
build/release/demos/rfdemo ab --quick --out "$report_dir"
echo "== the Xmax map: $root/$report_dir/map/report.html"
echo "== A/B report: $root/$report_dir/report.html (and report.md)"
echo "== 3D A/B viewer (a browser, from the file system): $root/$report_dir/view.html"
echo "== your own Bullet program, stock against cone, recorded and viewed:"
echo "   $root/build/release/rollfric ab --out DIR -- ./my_app"
