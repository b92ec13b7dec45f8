#!/usr/bin/env bash
# The 3D A/B viewer (demos/README.md, "The A/B viewer"):
#   - rfdemo ab roll_direction spin_down --quick writes view.html,
#     viewer.js, view-data.js (with spin_down's plot of time: both runs'
#     series and the reference), a .rec.js per recording (the .rec in
#     base64) and three.js's files, and report.html links to
#     view.html#roll_direction; the recordings name every body (rfrecord
#     names: ball06 is the 45 deg ball);
#   - rfdemo view A.rec B.rec writes the same for two files, labelled, no
#     plots; without three.js (RFDEMO_THREE_DIR elsewhere) it names
#     libjs-three and still writes the page; bad arguments exit 2;
#   - in headless Chromium (WebGL on SwiftShader) both pages, driven by
#     tests/demos/view_check.js: both views draw, the 45 deg ball, found
#     by its recorded name, is at its recorded start at t = 0 and at its
#     recorded end (rfrecord, the C reader) at the end, the mouse over it
#     shows its name, the slider moves it, the stock and cone balls end
#     apart; roll_direction's plots (not of time) stay PNGs; spin_down's
#     plot of time is drawn by the page with both runs, its cursor at the
#     left edge at t = 0 and following the slider; no console error.
# Label browser; exit 77 (skipped) without chromium or libjs-three.
# With ROLLFRIC and APP (the launcher and a plain Bullet program), also
# `rollfric ab` on APP: its page, at the last frame, still shows the
# program's moving body, and its path.
# usage: rfdemo_viewer.sh RFDEMO RFRECORD TESTS_DEMOS_DIR WORK_DIR [ROLLFRIC APP]
set -u
rfdemo=$1
rfrecord=$2
here=$3
work=$4
launcher=${5:-}
plain_app=${6:-}
rm -rf "$work"
mkdir -p "$work" || exit 1
. "$(dirname "${BASH_SOURCE[0]}")/check.sh" # check, check_summary

browser=${RF_CHROMIUM:-}
if [ -z "$browser" ]; then
    for b in chromium chromium-browser google-chrome; do
        if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
    done
fi
three=${RFDEMO_THREE_DIR:-/usr/share/javascript/three}

# ---- the files ----
ab="$work/ab"
"$rfdemo" ab roll_direction spin_down --quick --out "$ab" >"$work/ab.out" \
    2>"$work/ab.err"
check "ab roll_direction spin_down --quick: exit 0" $?
grep -qx "viewer $ab/view.html" "$work/ab.out" &&
    [ "$(tail -n 1 "$work/ab.out")" = "$ab/report.html" ]
check "ab: prints the viewer's path, the report's last" $?
for f in view.html viewer.js view-data.js roll_direction-stock.rec.js \
    roll_direction-cone.rec.js; do
    [ -s "$ab/$f" ]
    check "ab: $f written" $?
done
grep -q '"recs": \["roll_direction-stock.rec", "roll_direction-cone.rec"\]' \
    "$ab/view-data.js"
check "ab: view-data.js lists the scene's two recordings" $?
# spin_down's plot of time: its data in the page (150 rows a run, not
# decimated), roll_direction's two plots (of the heading) PNGs only
live=$(grep -c '"live": {' "$ab/view-data.js")
labels=$(grep -o '{"label": "[a-z]*", "side": [01], "ref": [01]' "$ab/view-data.js" |
    sed 's/{"label": "\([a-z]*\)".*/\1/' | tr '\n' ' ')
rows=$(awk -F, '/^[0-9]/ { n++ } END { print n }' "$ab/spin_down-cone.csv")
points=$(tr -d '\n' <"$ab/view-data.js" | grep -o '"label": "cone"[^]]*' |
    sed 's/.*"x": \[//' | tr ',' '\n' | grep -c '[0-9]')
[ "$live" = 1 ] && [ "$labels" = "stock cone reference " ] &&
    [ "$points" -eq "$rows" ]
check "ab: view-data.js holds one plot of time (spin_down: $labels; $points x values of cone's $rows rows)" $?
# a longer series (3000 rows) comes as at most 2000 points a curve, each
# of 1000 runs of rows giving its lowest and highest value: the curve's
# extremes are kept
long="$work/long"
"$rfdemo" ab spin_down --steps 3000 --dt 0.001 --out "$long" >/dev/null 2>&1
check "ab spin_down --steps 3000 --dt 0.001: exit 0" $?
cone_array() { # x or y: the cone curve's values, one a line
    tr -d '\n' <"$long/view-data.js" | grep -o '"label": "cone"[^}]*' |
        sed "s/.*\"$1\": \\[//; s/\\].*//" | tr ',' '\n' | grep '[0-9]'
}
n=$(cone_array x | wc -l)
got=$(cone_array y | sort -g | sed -n '1p;$p' | tr '\n' ' ')
want=$(awk -F, 'NR > 1 && $2 != "" { if (n++ == 0 || $2 < lo) lo = $2
                                      if (n == 1 || $2 > hi) hi = $2 }
                END { print lo, hi }' "$long/spin_down-cone.csv")
awk -v n="$n" -v got="$got" -v want="$want" 'BEGIN {
    split(got, g, " "); split(want, w, " ")
    ok = n >= 1000 && n <= 2000
    for (i = 1; i <= 2; ++i) {
        d = g[i] - w[i]; if (d < 0) d = -d
        ok = ok && d <= 1e-5 * (1 + (w[i] < 0 ? -w[i] : w[i]))
    }
    exit !ok }'
check "ab: 3000 rows give $n points, lowest and highest $got (the CSV's $want)" $?
grep -q '<a href="view.html#roll_direction">' "$ab/report.html" &&
    grep -q '(view.html#roll_direction)' "$ab/report.md"
check "ab: the report links the scene to the viewer" $?
# the .rec.js holds the .rec's bytes: decode the base64 and compare
sed -n '3s/^"\(.*\)";$/\1/p' "$ab/roll_direction-cone.rec.js" | base64 -d |
    cmp -s - "$ab/roll_direction-cone.rec"
check "ab: roll_direction-cone.rec.js is the recording in base64" $?

view="$work/view"
"$rfdemo" view "$ab/roll_direction-stock.rec" "$ab/roll_direction-cone.rec" \
    --out "$view" --labels "Bullet,rollfric" >"$work/view.out" 2>"$work/view.err"
check "view A.rec B.rec --labels: exit 0" $?
[ "$(tail -n 1 "$work/view.out")" = "$view/view.html" ] && [ -s "$view/view.html" ] &&
    [ -s "$view/roll_direction-stock.rec.js" ] &&
    grep -q '"labels": \["Bullet", "rollfric"\]' "$view/view-data.js"
check "view: the page, its recordings and labels; its path last" $?
RFDEMO_THREE_DIR="$work/nowhere" "$rfdemo" view "$ab/roll_direction-stock.rec" \
    "$ab/roll_direction-cone.rec" --out "$work/nothree" >/dev/null 2>"$work/nothree.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'apt-get install libjs-three' "$work/nothree.err" &&
    [ -s "$work/nothree/view.html" ] && [ ! -e "$work/nothree/three.min.js" ]
check "view without three.js: names libjs-three, writes the rest" $?
"$rfdemo" view "$ab/roll_direction-stock.rec" --out "$work/x" >/dev/null 2>&1
[ $? -eq 2 ]
check "view with one recording: exit 2" $?
"$rfdemo" view "$ab/roll_direction-stock.rec" "$ab/roll_direction-cone.rec" \
    --out "$work/x" --labels nocomma >/dev/null 2>&1
[ $? -eq 2 ]
check "view --labels without a comma: exit 2" $?
printf 'not a recording' >"$work/bad.rec"
"$rfdemo" view "$work/bad.rec" "$ab/roll_direction-cone.rec" --out "$work/x" \
    >/dev/null 2>"$work/bad.err"
[ $? -eq 1 ] && grep -q 'bad.rec' "$work/bad.err"
check "view of a file that is not a recording: exit 1, named" $?

# ---- in the browser ----
skip=""
if [ -z "$browser" ]; then
    skip="no chromium (apt-get install chromium; or RF_CHROMIUM=PROGRAM)"
elif [ ! -f "$three/three.min.js" ]; then
    skip="no three.js ($three/three.min.js; apt-get install libjs-three)"
fi
if [ -n "$skip" ]; then
    echo "[SKIP] the pages in a browser: $skip"
    echo "$passes passed, $fails failed, browser checks skipped"
    [ $fails -eq 0 ] && exit 77
    exit 1
fi

# ball06, launched at 45 deg (roll_direction: balls ball00 .. ball12 at
# 0, 7.5 .. 90 deg after the plane "ground"), found by its recorded name
name=ball06
id=$("$rfrecord" names "$ab/roll_direction-cone.rec" | awk -v n=$name '$2 == n { print $1 }')
[ "$id" = 7 ] &&
    [ "$("$rfrecord" names "$ab/roll_direction-stock.rec" | sed -n '1p;8p;14p' | tr '\n' ' ')" = \
        "0 ground 7 ball06 13 ball12 " ]
check "rfrecord names: the recordings name every body ($name: id $id)" $?
pos() { "$rfrecord" "$1" "$2" | awk -v id="$id" '$1 == id { print $3 "," $4 "," $5 }'; }
start=$(pos first "$ab/roll_direction-stock.rec")
end0=$(pos last "$ab/roll_direction-stock.rec")
end1=$(pos last "$ab/roll_direction-cone.rec")
[ -n "$start" ] && [ "$start" = "$(pos first "$ab/roll_direction-cone.rec")" ] &&
    [ -n "$end0" ] && [ -n "$end1" ]
check "rfrecord: $name starts at $start in both runs, ends at $end0 and $end1" $?

browse() { # folder, name, plots[, query]: loads folder/view.html with the check
    local dir=$1 page=$2 plots=$3
    local query=${4:-name=$name&start=$start&end0=$end0&end1=$end1&plots=$plots}
    cp "$here/view_check.js" "$dir/" &&
        sed 's|</body>|<script src="view_check.js"></script>\n</body>|' \
            "$dir/view.html" >"$dir/view-check.html" || return 1
    # SwiftShader: WebGL without a GPU; the virtual time budget lets the
    # page load and run (timers run ahead) before the DOM is printed
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
        --use-angle=swiftshader --enable-unsafe-swiftshader \
        --user-data-dir="$work/profile-$page" --window-size=1200,800 \
        --virtual-time-budget=30000 --dump-dom \
        "file://$dir/view-check.html?$query" \
        >"$work/$page.dom" 2>"$work/$page.chromium"
    sed -n '/<pre id="rf-check">/,/<\/pre>/p' "$work/$page.dom" |
        sed 's/<[^>]*>//g; s/^/    /'
    grep -q 'RF-VIEW-CHECK PASS' "$work/$page.dom"
}
t0=$(date +%s)
browse "$(cd "$ab" && pwd)" ab spin_down
check "ab's view.html in headless $browser: the checks above" $?
browse "$(cd "$view" && pwd)" view none
check "view's view.html in headless $browser: the checks above" $?
# boxes: inclined_plane's ground, ramp and box, each drawn with its edges;
# the box's path; the top view
ip="$work/ip"
"$rfdemo" ab inclined_plane --quick --out "$ip" >/dev/null 2>&1
boxes=$("$rfrecord" first "$ip/inclined_plane-cone.rec" | awk '$2 == "box" { n++ } END { print n + 0 }')
[ "$boxes" = 3 ]
check "ab inclined_plane --quick: its recording holds 3 boxes ($boxes)" $?
browse "$(cd "$ip" && pwd)" ip none "mode=boxes&edges=$boxes&name=box"
check "inclined_plane's view.html in headless $browser: edges, path, top view" $?
if [ -n "$launcher" ]; then
    "$launcher" ab --quiet --out "$work/launch" -- "$plain_app" >/dev/null 2>&1
    check "rollfric ab on a plain Bullet program: exit 0" $?
    browse "$(cd "$work/launch" && pwd)" launch none "mode=app"
    check "rollfric ab's view.html in headless $browser: the body at the end, its path" $?
fi
echo "    (browser runs: $(($(date +%s) - t0)) s)"

check_summary
