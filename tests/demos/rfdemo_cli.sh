#!/usr/bin/env bash
# rfdemo's command line: `list` (every scene, one line each;
# --verbose with parameters, metrics and plots), `run` (the scene
# executables' output: JSON last, --csv), progress output only for long
# runs, and bad arguments refused with exit status 2 and the argument
# named.  Fast (label unit).
# usage: rfdemo_cli.sh RFDEMO WORK_DIR
set -u
rfdemo=$1
work=$2
rm -rf "$work"
mkdir -p "$work" || exit 1
. "$(dirname "${BASH_SOURCE[0]}")/check.sh" # check, check_summary

# ---- list ----
"$rfdemo" list >"$work/list" 2>"$work/err"; rc=$?
check "list: exit 0" $rc
[ ! -s "$work/err" ]; check "list: nothing on stderr" $?
for s in hello_world basic_demo rolling_friction_demo inclined_plane; do
    grep -Eq "^$s +Bullet 3\.24 examples/" "$work/list"
    check "list: $s with its description" $?
done
bad_lines=$(grep -Evc '^[A-Za-z0-9_]+  +[^ ].*$' "$work/list")
[ "$bad_lines" -eq 0 ]; check "list: every line is NAME  DESCRIPTION" $?
nscenes=$(wc -l <"$work/list")

"$rfdemo" list --verbose >"$work/listv" 2>&1; rc=$?
check "list --verbose: exit 0" $rc
nblocks=$(grep -Ec '^[A-Za-z0-9_]' "$work/listv")
[ "$nblocks" -eq "$nscenes" ]
check "list --verbose: the same $nscenes scenes" $?
# the block of one scene
block() { awk -v s="$1" '/^[^ ]/ { on = ($1 == s) } on' "$work/listv"; }
block hello_world | grep -q '^  metric final_y: '
check "list --verbose: hello_world's metric final_y described" $?
block hello_world | grep -q '^  plot height: .*(y, y_ref against t)'
check "list --verbose: hello_world's plot height (y, y_ref against t)" $?
block hello_world | grep -q '^  param (none)'
check "list --verbose: hello_world has no parameters" $?
block inclined_plane | grep -q '^  param sphere_rolling = 1: '
check "list --verbose: inclined_plane's sphere_rolling, default 1" $?
block inclined_plane | grep -q '^  what to look at:'
check "list --verbose: inclined_plane's explanation" $?

"$rfdemo" --help >"$work/out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^usage: rfdemo list' "$work/out"
check "--help: usage, exit 0" $?

# ---- run ----
# (a threshold of 30 s instead of 2: a loaded or sanitizer build machine
# must not turn this 150-step run into a "long" one)
RFDEMO_PROGRESS_AFTER=30 "$rfdemo" run hello_world --quiet >"$work/out" \
    2>"$work/err"; rc=$?
check "run hello_world --quiet: exit 0" $rc
[ "$(wc -l <"$work/out")" -eq 1 ] &&
    grep -Eq '^\{"scene":"hello_world","solver":"cone","model":"desaxce","steps":150,.*"final_y":-5\.0[0-9]*,"final_y_ref":-5,.*\}$' "$work/out"
check "run hello_world --quiet: only the JSON line, final_y and final_y_ref" $?
[ ! -s "$work/err" ]
check "run hello_world: a short run prints no progress" $?

"$rfdemo" run inclined_plane --solver stock --steps 120 \
    --set sphere_rolling=0.1 --csv "$work/ip.csv" >"$work/out" 2>"$work/err"
rc=$?
check "run inclined_plane --solver stock --steps 120 --csv: exit 0" $rc
tail -n 1 "$work/out" |
    grep -Eq '^\{"scene":"inclined_plane","solver":"stock","steps":120,.*"sphere_accel":null,"sphere_accel_ref":1\.77179[0-9]*,'
check "run inclined_plane: JSON last (stock, 120 steps, sphere_accel_ref)" $?
grep -q '^sphere ' "$work/out"
check "run inclined_plane: the per-body lines before it" $?
[ "$(head -n 1 "$work/ip.csv")" = "t,s,v,v_ref,n,dz" ] &&
    [ "$(wc -l <"$work/ip.csv")" -eq 122 ]
check "run --csv: header t,s,v,v_ref,n,dz and 121 rows" $?

# --particles: the pictured table (sphere_pile: every sphere on the plane
# of a run with one mu_r; 3 spheres dropped at 15/s are all out by step
# 134 and on the plane by step 400)
"$rfdemo" run sphere_pile --set mu=1 --set mur=0.1 --set spheres=3 \
    --steps 400 --quiet --particles "$work/pp.csv" >"$work/out" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] && [ "$(head -n 1 "$work/pp.csv")" = "mu,mur,x,y,radius" ] &&
    [ "$(tail -n +2 "$work/pp.csv" | grep -c '^1,0\.1,.*,0\.01$')" -eq 3 ]
check "run --particles: header mu,mur,x,y,radius and the 3 spheres" $?

RFDEMO_PROGRESS_AFTER=0 "$rfdemo" run hello_world --quiet \
    >"$work/out" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -Eq '^hello_world cone: 150 steps, [0-9.]+ s$' "$work/err"
check "run, stderr not a terminal: one summary line past the threshold" $?

"$rfdemo" run inclined_plane --set sphere_rolling=-1 >"$work/out" \
    2>"$work/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'sphere_rolling = -1' "$work/err"
check "run: a failing run exits 1 with the scene's message" $?

# ---- bad arguments: exit 2, the culprit named on stderr, nothing made ----
expect2() { # name, text the message must contain, arguments...
    local name=$1 text=$2
    shift 2
    "$rfdemo" "$@" >"$work/out" 2>"$work/err"; local rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$text" "$work/err"; then
        check "$name: exit 2, names $text" 0
    else
        echo "  rc=$rc, stderr:"; sed 's/^/    /' "$work/err"
        check "$name: exit 2, names $text" 1
    fi
}
d="$work/never"
expect2 "no command" "usage: rfdemo"
expect2 "unknown command" "frob" frob
expect2 "list --bogus" "--bogus" list --bogus
expect2 "run without a scene" "scene" run
expect2 "run, unknown scene" "nope" run nope
expect2 "run --solver nope" "nope" run hello_world --solver nope
expect2 "run --steps 0" "--steps" run hello_world --steps 0
expect2 "run --set bogus=1" "bogus" run hello_world --set bogus=1
expect2 "ab without --out" "--out" ab hello_world
expect2 "ab --out without a folder" "--out" ab hello_world --out
expect2 "ab, unknown scene" "nope" ab nope --out "$d"
expect2 "ab --model foo" "foo" ab hello_world --out "$d" --model foo
expect2 "ab --steps x" "x" ab hello_world --out "$d" --steps x
expect2 "ab --dt -1" "-1" ab hello_world --out "$d" --dt -1
expect2 "ab --set of no selected scene" "sphere_rolling" \
    ab hello_world --out "$d" --set sphere_rolling=1
expect2 "ab --set without =" "sphere_rolling" \
    ab inclined_plane --out "$d" --set sphere_rolling
expect2 "ab, a scene twice" "twice" ab hello_world hello_world --out "$d"
expect2 "ab --frob" "--frob" ab hello_world --out "$d" --frob
expect2 "report with one recording" "two recordings" report a.rec --out "$d"
expect2 "report without --out" "--out" report a.rec b.rec
expect2 "report --frob" "--frob" report a.rec b.rec --out "$d" --frob
[ ! -e "$d" ]; check "ab with a bad argument creates nothing" $?
printf 'not a recording' >"$work/bad.rec"
"$rfdemo" report "$work/bad.rec" "$work/bad.rec" --out "$work/r" >"$work/out" 2>&1
rc=$?
cat "$work/out"
[ $rc -eq 1 ] && grep -q "bad.rec" "$work/out"
check "report of a file that is no recording: exit 1, the file named" $?

check_summary
