#!/usr/bin/env bash
# rfdemo ab: the A/B report of hello_world and inclined_plane
# (--quick): CSVs of both solvers, a PNG per declared plot (gnuplot),
# report.md and report.html with the plots and a metric table with both
# solvers' numbers and the references; a failing scene run and a missing
# or failing gnuplot are reported in the report with exit status 1 while
# the rest still runs.  Label bullet.
# usage: rfdemo_report.sh RFDEMO WORK_DIR
set -u
rfdemo=$1
work=$2
rm -rf "$work"
mkdir -p "$work" || exit 1
. "$(dirname "${BASH_SOURCE[0]}")/check.sh" # check, check_summary
scenes="hello_world inclined_plane"
num='-?[0-9][0-9.]*(e[-+][0-9]+)?'
rel='[-+][0-9][0-9.]*(e[-+][0-9]+)?'
dash=$(printf '\342\200\224')
# the Markdown section of a scene (from "## NAME" to the next "## ")
section() { awk -v s="## $2" '/^## / { on = ($0 == s) } on' "$1"; }
is_png() { [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' \n')" = '211PNG' ]; }

"$rfdemo" list --verbose >"$work/listv" || check "rfdemo list --verbose" 1
# "SCENE PLOT" for each declared plot of the scenes
plots() {
    awk -v s="$1" '/^[^ ]/ { on = ($1 == s) }
        on && /^  plot [^(]/ { p = $2; sub(/:$/, "", p); print p }' \
        "$work/listv"
}

have_gnuplot=1
command -v gnuplot >/dev/null 2>&1 || have_gnuplot=0

# ---- the report of two scenes ----
if [ $have_gnuplot -eq 1 ]; then
    out="$work/ab"
    RFDEMO_PROGRESS_AFTER=0 "$rfdemo" ab $scenes --quick --out "$out" \
        >"$work/stdout" 2>"$work/stderr"; rc=$?
    check "ab $scenes --quick: exit 0" $rc
    [ $rc -eq 0 ] || sed 's/^/    /' "$work/stderr"
    [ "$(tail -n 1 "$work/stdout")" = "$out/report.html" ]
    check "ab: the last line is the report's path" $?
    [ -s "$out/report.md" ] && [ -s "$out/report.html" ]
    check "ab: report.md and report.html written" $?
    grep -Eq '^Generated [0-9]{4}-[0-9]{2}-[0-9]{2} ' "$out/report.md" &&
        grep -q '^\* \*\*stock\*\*: ' "$out/report.md" &&
        grep -q '^\* \*\*cone\*\*: .*sequential impulse, De Saxce model' "$out/report.md"
    check "report.md: the date and both solvers' settings" $?
    [ "$(wc -l <"$work/stderr")" -eq 4 ] &&
        [ "$(grep -Ec '^(hello_world|inclined_plane) (stock|cone): [0-9]+ steps, [0-9.]+ s$' "$work/stderr")" -eq 4 ]
    check "ab, stderr not a terminal: one line per scene run" $?
    for s in $scenes; do
        for side in stock cone; do
            [ "$(wc -l <"$out/$s-$side.csv")" -gt 100 ] &&
                head -n 1 "$out/$s-$side.csv" | grep -q '^t,'
            check "$s: $s-$side.csv, a header and the rows" $?
        done
        n=0
        for p in $(plots "$s"); do
            n=$((n + 1))
            is_png "$out/$s-$p.png"; check "$s: plot $p drawn ($s-$p.png)" $?
            grep -qF "]($s-$p.png)" "$out/report.md" &&
                grep -qF "<img src=\"$s-$p.png\"" "$out/report.html"
            check "$s: plot $p in report.md and report.html" $?
        done
        [ $n -gt 0 ]; check "$s declares plots ($n)" $?
        section "$out/report.md" "$s" >"$work/$s.md"
        grep -q '^| metric | stock | cone | reference | stock rel. error | cone rel. error |$' "$work/$s.md"
        check "$s: the metric table" $?
        grep -q "<td title=\"[^\"]*\"><code>solver_iterations</code>" "$out/report.html"
        check "$s: metric descriptions as tooltips in report.html" $?
    done
    grep -Eq "^\| \`final_y\` \| $num \| $num \| -5 \| $rel \| $rel \|$" "$work/hello_world.md"
    check "hello_world: final_y for both solvers, reference -5, rel. errors" $?
    grep -Eq "^\| \`freefall_steps\` \| 103 \| 103 \| $dash \| $dash \| $dash \|$" "$work/hello_world.md"
    check "hello_world: freefall_steps 103 for both, no reference" $?
    grep -Eq "^\| \`solver_iterations\` \| $dash \| [0-9]+ \|" "$work/hello_world.md"
    check "hello_world: solver_iterations for cone only" $?
    grep -Eq "^\| \`sphere_disp_last2s\` \| $num \| $num \| " "$work/inclined_plane.md" &&
        grep -Eq "^\| \`sphere_accel\` \| $num \| $num \| 0 \| $dash \| $dash \|$" "$work/inclined_plane.md"
    check "inclined_plane: sphere_disp_last2s and sphere_accel (reference 0) for both" $?
    grep -q 'held: 0' "$work/inclined_plane.md" &&
        grep -q 'With --set sphere_rolling=0.1' "$work/inclined_plane.md"
    check "inclined_plane: metric notes and the explanation" $?

    # ---- a heat map (sphere_on_plane --set map=1, quick grid: mu in
    # {0.01, 0.05, 0.5} x mu_r in {0.008, 0.02}) ----
    out="$work/map"
    RFDEMO_PROGRESS_AFTER=0 "$rfdemo" ab sphere_on_plane --quick --set map=1 \
        --out "$out" >"$work/stdout" 2>"$work/stderr"; rc=$?
    check "ab sphere_on_plane --set map=1: exit 0" $rc
    is_png "$out/sphere_on_plane-map.png" &&
        grep -qF '](sphere_on_plane-map.png)' "$out/report.md"
    check "map: drawn and in the report" $?
    gp="$out/sphere_on_plane-map.gp"
    grep -q '^set multiplot layout 1,3 ' "$gp" &&
        [ "$(grep -c 'with boxxyerror lc palette' "$gp")" -eq 3 ]
    check "map: three panels (stock, cone, reference) of cells" $?
    # six cells per panel; on the log mu axis the cell of mu = 0.05 spans
    # the geometric midpoints sqrt(0.01 * 0.05) = 0.0223606798 and
    # sqrt(0.05 * 0.5) = 0.158113883; mu_r = 0.008's cell ends half way
    # to 0.02 (0.014) and mirrors that below (0.002)
    [ "$(awk '/^\$cells0 <</ { on = 1; next } /^EOD/ { on = 0 } on' "$gp" | wc -l)" -eq 6 ] &&
        grep -Eq '^0\.05,0\.008,0\.0223606798,0\.158113883,0\.002,0\.014,' "$gp"
    check "map: six cells, bounds at the (geometric) midpoints" $?
    grep -q 'not drawn: the stock run recorded no column "t"' "$out/report.md"
    check "map: the case plots say why they are not drawn" $?

    # ---- particle pictures (sphere_pile, one small run) ----
    out="$work/particles"
    RFDEMO_PROGRESS_AFTER=0 "$rfdemo" ab sphere_pile --quick --set mu=1 \
        --set mur=0.1 --set spheres=12 --steps 1500 --out "$out" \
        >"$work/stdout" 2>"$work/stderr"; rc=$?
    check "ab sphere_pile (12 spheres): exit 0" $rc
    for side in stock cone; do
        f="$out/sphere_pile-$side-particles.csv"
        [ "$(head -n 1 "$f")" = "mu,mur,x,y,radius" ] &&
            [ "$(tail -n +2 "$f" | grep -c '^1,0\.1,.*,0\.01$')" -eq 12 ]
        check "particles: $side, the 12 spheres (mu, mur, x, y, radius)" $?
    done
    is_png "$out/sphere_pile-piles.png" &&
        grep -qE '^set multiplot layout (1,2|2,1) ' "$out/sphere_pile-piles.gp" &&
        grep -qF '](sphere_pile-piles.png)' "$out/report.md" &&
        grep -qF 'particles [sphere_pile-cone-particles.csv]' "$out/report.md" &&
        grep -qF '<a href="sphere_pile-cone-particles.csv">' "$out/report.html"
    check "particles: one panel per solver, drawn, the CSVs linked" $?
    # a pile more than twice as wide as high: stock above cone, each at
    # the page's width (side by side, equal axes left 40-pixel strips)
    if grep -q '^set multiplot layout 2,1 ' "$out/sphere_pile-piles.gp"; then
        grep -q 'size 1220,' "$out/sphere_pile-piles.gp"
        check "particles: a low pile stacked at the page's width" $?
    fi
else
    echo "gnuplot not found (scripts/deps.sh installs gnuplot-nox): the" \
         "plotting checks are skipped"
fi

# ---- a failing run: reported, the other scene still runs, exit 1 ----
out="$work/fail"
RFDEMO_GNUPLOT=true "$rfdemo" ab $scenes --quick --set sphere_rolling=-1 \
    --out "$out" >"$work/stdout" 2>"$work/stderr"; rc=$?
[ $rc -eq 1 ]; check "ab with a failing scene run: exit 1" $?
[ "$(tail -n 1 "$work/stdout")" = "$out/report.html" ]
check "ab with a failing run: the report's path last" $?
grep -q 'sphere_rolling = -1' "$work/stderr"
check "ab with a failing run: the error on stderr" $?
section "$out/report.md" inclined_plane >"$work/fail-ip.md"
grep -q '\*\*The stock run failed:\*\*' "$work/fail-ip.md" &&
    grep -q '\*\*The cone run failed:\*\*' "$work/fail-ip.md" &&
    grep -q 'sphere_rolling = -1 and sphere_spinning = 0.3 must be >= 0' "$work/fail-ip.md"
check "report.md: the failed runs and their error" $?
grep -q 'sphere_rolling = -1 and sphere_spinning = 0.3 must be &gt;= 0' "$out/report.html"
check "report.html: the error, escaped" $?
section "$out/report.md" hello_world >"$work/fail-hw.md"
grep -Eq "^\| \`final_y\` \| $num \| $num \| -5 \|" "$work/fail-hw.md"
check "the other scene still ran: hello_world's metric table" $?
# RFDEMO_GNUPLOT=true exits 0 and draws nothing: not taken for a plot
grep -q 'exited 0 but .*hello_world-height.png is missing' "$work/fail-hw.md"
check "a gnuplot that writes no PNG: reported" $?

# ---- gnuplot missing: the report still written, plots said missing ----
out="$work/nognuplot"
RFDEMO_GNUPLOT="$work/no-such-gnuplot" "$rfdemo" ab hello_world --quick \
    --out "$out" >"$work/stdout" 2>"$work/stderr"; rc=$?
[ $rc -eq 1 ]; check "ab without gnuplot: exit 1" $?
[ -s "$out/report.md" ] && [ -s "$out/report.html" ] &&
    [ "$(tail -n 1 "$work/stdout")" = "$out/report.html" ]
check "ab without gnuplot: the report still written" $?
grep -q '^\* plots: MISSING: cannot run .*no-such-gnuplot: No such file' "$out/report.md" &&
    grep -q '^\*Plot missing:\* `height`' "$out/report.md" &&
    grep -Eq "^\| \`final_y\` \| $num \| $num \|" "$out/report.md"
check "report.md: plots missing and why, metrics still there" $?
[ -s "$out/hello_world-stock.csv" ] && [ -s "$out/hello_world-cone.csv" ]
check "ab without gnuplot: the CSVs written" $?

# ---- gnuplot failing ----
out="$work/badgnuplot"
RFDEMO_GNUPLOT=false "$rfdemo" ab hello_world --quick --out "$out" \
    >"$work/stdout" 2>"$work/stderr"; rc=$?
[ $rc -eq 1 ] && grep -q 'failed (exit status 1)' "$out/report.md"
check "a failing gnuplot: exit 1, its exit status in the report" $?

# ---- an output folder that cannot be made ----
printf x >"$work/file"
"$rfdemo" ab hello_world --quick --out "$work/file/sub" >"$work/stdout" \
    2>"$work/stderr"; rc=$?
[ $rc -eq 1 ] && grep -q "cannot create folder $work/file/sub" "$work/stderr"
check "an output folder that cannot be made: exit 1, named" $?

check_summary || exit 1
[ $have_gnuplot -eq 1 ] || exit 77
exit 0
