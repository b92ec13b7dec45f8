#!/usr/bin/env bash
# The launcher (tools/rollfric.in): `rollfric run` and `rollfric ab` on the
# plain Bullet program (tests/preload/plain_bullet_app.cpp: a 100 kg ball
# rolled at 2 m/s with rolling friction 0.036 m; analytic stop 3.964 m)
# built for float and for float64 Bullet.
#   - run: the same output as LD_PRELOAD by hand, for both precisions (the
#     launcher picks the preload from the app's libBulletDynamics), the
#     app's exit status passed on, --record writes a complete recording;
#   - ab: stock.rec and cone.rec complete, both with the app's bodies to
#     its last step; the cone run stops the ball within 1% of 3.964 m,
#     stock's does not (the A/B is the two laws); view.html names both
#     recordings;
#   - bad use: no '--', an unknown option, a program that is not a Bullet
#     application, an app that exits non-zero or crashes, an unwritable --out: a
#     message naming what is wrong and a non-zero exit.
# usage: launcher.sh ROLLFRIC APP APP64 PRELOAD PRELOAD64 RFRECORD
set -u
rollfric=$1 app=$2 app64=$3 pre=$4 pre64=$5 rfrecord=$6
fail=0
check() { if [ "$2" -eq 0 ]; then echo "[ OK ] $1"; else echo "[FAIL] $1"; fail=1; fi; }
unset ROLLFRIC ROLLFRIC_SOLVER ROLLFRIC_ITERATIONS ROLLFRIC_TOLERANCE \
      ROLLFRIC_THREADS ROLLFRIC_VERBOSE ROLLFRIC_MODEL ROLLFRIC_RECORD \
      ROLLFRIC_RECORD_CONTACTS ROLLFRIC_QUIET ROLLFRIC_CONVERGED \
      ROLLFRIC_ROLLING_FRICTION ROLLFRIC_SPINNING_FRICTION ROLLFRIC_MATERIALS
tmp=$(mktemp -d /tmp/rf_launcher.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# run: the same as LD_PRELOAD by hand, both precisions
for p in "$app:$pre" "$app64:$pre64"; do
    a=${p%%:*} l=${p#*:}
    want=$(LD_PRELOAD="$l" "$a" 2>/dev/null)
    got=$("$rollfric" run --quiet -- "$a" 2>"$tmp/err")
    cat "$tmp/err"
    [ -n "$want" ] && [ "$got" = "$want" ] && [ ! -s "$tmp/err" ]
    check "run $(basename "$a"): the preloaded run's output ($got)" $?
done
"$rollfric" run --quiet -- "$app" --steps 10 --exit-status 3 >/dev/null 2>&1
check "run: the app's exit status passed on (3)" $(( $? == 3 ? 0 : 1 ))
"$rollfric" run --quiet --record "$tmp/run.rec" -- "$app" --steps 30 >/dev/null 2>&1 &&
    "$rfrecord" info "$tmp/run.rec" | awk '{ exit !($4 == 2 && $6 == 30 && $12 == 1) }'
check "run --record: a complete recording, 2 bodies, 30 frames" $?

# ab: two recordings to the last step, the ball's laws apart, the page
"$rollfric" ab --out "$tmp/ab" -- "$app" >"$tmp/ab.log" 2>&1
rc=$?
cat "$tmp/ab.log"
ok=$(( rc == 0 ? 0 : 1 ))
for side in stock cone; do
    info=$("$rfrecord" info "$tmp/ab/$side.rec" 2>&1)
    echo "$side: $info"
    # 360 steps of 1/60 s: each step's start, the last at 359/60 s, the
    # ground and the ball in it
    echo "$info" | awk '{ exit !($4 == 2 && $6 == 360 && $8 > 5.983 && $12 == 1) }' || ok=1
    last=$("$rfrecord" last "$tmp/ab/$side.rec" 2>&1 | head -1)
    echo "$side last frame: $last"
done
awk '/^distance/ { d = $2 } END { exit !(d > 3.964 * 0.99 && d < 3.964 * 1.01) }' "$tmp/ab/cone.out" || ok=1
awk '/^distance/ { d = $2 } END { exit !(d > 3.964 * 1.1) }' "$tmp/ab/stock.out" || ok=1
grep -q "stock.rec" "$tmp/ab/view-data.js" && grep -q "cone.rec" "$tmp/ab/view-data.js" &&
    [ -s "$tmp/ab/view.html" ] && grep -q "view.html" "$tmp/ab.log" || ok=1
check "ab: both runs recorded to the last step, cone stops the ball at 3.964 m (1%), stock past it, view.html" $ok
# the report: the ball (the one moving body) plotted, its travel per run
# as the app printed it (the recording's last frame is the last step's
# start: within 2 cm of the printed distance after 6 s)
ok=0
for png in app-speed.png app-height.png app-energy.png; do
    [ -s "$tmp/ab/$png" ] && grep -q "$png" "$tmp/ab/report.html" || ok=1
done
for side in stock cone; do
    col=$([ $side = stock ] && echo 3 || echo 4)
    travel=$(awk -F'|' -v c="$col" '/travel_body/ { gsub(/ /, "", $c); print $c }' "$tmp/ab/report.md" | head -1)
    printed=$(awk '/^distance/ { print $2 }' "$tmp/ab/$side.out")
    echo "$side: travel in the report $travel m, printed $printed m"
    awk -v t="$travel" -v p="$printed" 'BEGIN { exit !(t != "" && t - p < 0.02 && p - t < 0.05) }' || ok=1
done
grep -q "rollfric: A/B report: $tmp/ab/report.html" "$tmp/ab.log" || ok=1
check "ab: report.html plots the ball's speed, height, energy; its travel as printed" $ok
"$rollfric" ab --quiet --out "$tmp/ab64" -- "$app64" >/dev/null 2>&1 &&
    awk '/^distance/ { d = $2 } END { exit !(d > 3.964 * 0.99 && d < 3.964 * 1.01) }' "$tmp/ab64/cone.out" &&
    [ -s "$tmp/ab64/view.html" ]
check "ab: a float64 app" $?

# bad use: one message, non-zero
bad() { # name, expected message (grep -E), command...
    local name=$1 msg=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    local rc=$?
    cat "$tmp/out"
    [ $rc -ne 0 ] && grep -Eq "$msg" "$tmp/out" && [ "$(grep -c '^rollfric: ' "$tmp/out")" -le 2 ]
    check "$name" $?
}
bad "no '--'" "no '--' before the application" "$rollfric" run "$app"
bad "an unknown option" "unknown option '--bogus'" "$rollfric" run --bogus -- "$app"
bad "not a Bullet program" "does not link Bullet's dynamics" "$rollfric" run -- /bin/true
bad "no such program" "is not a program that can be run" "$rollfric" run -- /nonexistent/app
bad "ab without --out" "ab needs --out DIR" "$rollfric" ab -- "$app"
bad "ab: the app exits non-zero" "the stock run of .* exited with status 3" \
    "$rollfric" ab --quiet --out "$tmp/ab3" -- "$app" --steps 5 --exit-status 3
# (any signal: under AddressSanitizer the SEGV ends in its abort)
bad "ab: the app crashes" "the stock run of .* crashed \\(signal [0-9]+: [A-Z]+\\)" \
    "$rollfric" ab --quiet --out "$tmp/abc" -- "$app" --steps 5 --crash
bad "ab: an unwritable --out" "cannot write to --out '/proc/rf_nowhere'" \
    "$rollfric" ab --out /proc/rf_nowhere -- "$app"
exit $fail
