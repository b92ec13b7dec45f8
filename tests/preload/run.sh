#!/usr/bin/env bash
# LD_PRELOAD drop-in: run a Bullet program that never mentions
# rollfric, built for float and for float64 Bullet, with and without the
# preload library, and check what the environment variables do.
# usage: run.sh APP_FLOAT APP_FLOAT64 PRELOAD_FLOAT PRELOAD_FLOAT64 RFRECORD
#
# Reference: a ball rolling without slip under rolling friction rho stops
# after v0^2 / 2a, a = rho g / (R (1 + 2/5)) (Tasora-Anitescu §6.1):
# 3.9642 m for v0 = 2, rho = 0.036, R = 0.5; the cone solver's discrete
# distance is within 1% (0.42% short, DESIGN §5).  The stock solver caps
# the rolling impulse at rho, so the 100 kg ball is still rolling at 6 s.
set -u
app=$1 app64=$2 pre=$3 pre64=$4 rfrecord=$5
fail=0
check() { # name, condition result (0 = ok)
    if [ "$2" -eq 0 ]; then echo "[ OK ] $1"; else echo "[FAIL] $1"; fail=1; fi
}
field() { echo "$1" | awk -v k="$2" '{for (i = 1; i < NF; ++i) if ($i == k) print $(i + 1)}'; }
stopped_at_analytic() { # output line
    awk -v d="$(field "$1" distance)" -v s="$(field "$1" speed)" \
        'BEGIN { ref = 3.9642; exit !(s < 1e-3 && d / ref - 1 < 0.01 && 1 - d / ref < 0.01) }'
}
unset ROLLFRIC ROLLFRIC_SOLVER ROLLFRIC_ITERATIONS ROLLFRIC_TOLERANCE \
      ROLLFRIC_THREADS ROLLFRIC_VERBOSE ROLLFRIC_MODEL ROLLFRIC_RECORD \
      ROLLFRIC_RECORD_CONTACTS ROLLFRIC_QUIET ROLLFRIC_CONVERGED \
      ROLLFRIC_ROLLING_FRICTION ROLLFRIC_SPINNING_FRICTION

stock=$("$app")
echo "stock:              $stock"
awk -v s="$(field "$stock" speed)" 'BEGIN { exit !(s > 0.1) }'
check "stock solver: the 100 kg ball is still rolling" $?

cone=$(LD_PRELOAD="$pre" "$app" 2>/tmp/rf_preload_err.$$)
echo "preloaded:          $cone"
stopped_at_analytic "$cone"
check "preloaded: stopped within 1% of v0^2/2a" $?
cat /tmp/rf_preload_err.$$
# one line at attach: the world, the solver it replaced, the budget
[ "$(wc -l </tmp/rf_preload_err.$$)" -eq 1 ] &&
    grep -q "^rollfric: btDiscreteDynamicsWorld: btSequentialImpulseConstraintSolver replaced by the cone solver (.*the world's 10 iterations" /tmp/rf_preload_err.$$
check "preloaded: one line at attach says what it does" $?
quiet=$(ROLLFRIC_QUIET=1 LD_PRELOAD="$pre" "$app" 2>/tmp/rf_preload_err.$$)
[ "$quiet" = "$cone" ] && [ ! -s /tmp/rf_preload_err.$$ ]
check "ROLLFRIC_QUIET=1: same run, nothing on stderr" $?

# the multithreaded world (btDiscreteDynamicsWorldMt) is attached too
stock_mt=$("$app" --mt)
echo "stock, Mt world:    $stock_mt"
awk -v s="$(field "$stock_mt" speed)" 'BEGIN { exit !(s > 0.1) }'
check "stock solver, Mt world: the 100 kg ball is still rolling" $?
cone_mt=$(ROLLFRIC_QUIET=yes LD_PRELOAD="$pre" "$app" --mt 2>/tmp/rf_preload_err.$$)
echo "preloaded, Mt world: $cone_mt"
stopped_at_analytic "$cone_mt" && [ ! -s /tmp/rf_preload_err.$$ ]
check "preloaded, Mt world: stopped within 1%, nothing on stderr" $?
# the off switch in the usual spellings, any case: stock, and silent
for v in off OFF False no 0; do
    off=$(ROLLFRIC=$v LD_PRELOAD="$pre" "$app" 2>/tmp/rf_preload_err.$$)
    [ "$off" = "$stock" ] && [ ! -s /tmp/rf_preload_err.$$ ]
    check "ROLLFRIC=$v: identical to stock, nothing on stderr" $?
done
# a value that is no switch: said, and rollfric stays off
off=$(ROLLFRIC=disabled LD_PRELOAD="$pre" "$app" 2>/tmp/rf_preload_err.$$)
cat /tmp/rf_preload_err.$$
[ "$off" = "$stock" ] && grep -q "ROLLFRIC='disabled' is not a switch" /tmp/rf_preload_err.$$
check "ROLLFRIC=disabled: reported, stock" $?
# a misspelt variable is named with the nearest known one
ROLLFRIC_ITERATION=5 LD_PRELOAD="$pre" "$app" >/dev/null 2>/tmp/rf_preload_err.$$
cat /tmp/rf_preload_err.$$
grep -q "ROLLFRIC_ITERATION is not a variable rollfric reads (did you mean ROLLFRIC_ITERATIONS?)" /tmp/rf_preload_err.$$
check "ROLLFRIC_ITERATION=5: named, with ROLLFRIC_ITERATIONS" $?
ROLLFRIC_VERBOSE=loud LD_PRELOAD="$pre" "$app" >/dev/null 2>/tmp/rf_preload_err.$$
grep -q "ROLLFRIC_VERBOSE='loud' is not a switch" /tmp/rf_preload_err.$$
check "ROLLFRIC_VERBOSE=loud: reported" $?
# warnings name the body, and their counts are summed up at exit
LD_PRELOAD="$pre" "$app" --bad-friction >/dev/null 2>/tmp/rf_preload_err.$$
cat /tmp/rf_preload_err.$$
grep -q "coefficient was used as 0: between body 0x[0-9a-f]* (SPHERE) and object 0x[0-9a-f]* (STATICPLANE)" /tmp/rf_preload_err.$$ &&
    grep -q "^rollfric: warnings during this run:" /tmp/rf_preload_err.$$ &&
    awk '/^rollfric:   [0-9]+ x coefficient used as 0/ { n = $2 }
         END { exit !(n >= 360) }' /tmp/rf_preload_err.$$ # one a step at least
check "warnings: the first names the bodies, the counts at exit" $?
# a thread count past any machine's: named, and the world runs stock
threads=$(ROLLFRIC_THREADS=100000 LD_PRELOAD="$pre" "$app" 2>/tmp/rf_preload_err.$$)
[ "$threads" = "$stock" ] &&
    grep -q "ROLLFRIC_THREADS='100000' is not an integer from 0 to 1024; the world goes on with Bullet's own solver" /tmp/rf_preload_err.$$
check "ROLLFRIC_THREADS=100000: refused with the variable named, stock" $?
# a budget no tolerance ends: warned, naming the variable to set
ROLLFRIC_ITERATIONS=1000000 LD_PRELOAD="$pre" "$app" --steps 1 >/dev/null 2>/tmp/rf_preload_err.$$
grep -q "ROLLFRIC_ITERATIONS=1000000 with no tolerance: every step runs all of them .*ROLLFRIC_TOLERANCE" /tmp/rf_preload_err.$$
check "ROLLFRIC_ITERATIONS=1000000: warned, with ROLLFRIC_TOLERANCE named" $?
# a tolerance zero impulses meet: refused, stock; a loose one: warned
tol1=$(ROLLFRIC_TOLERANCE=1 LD_PRELOAD="$pre" "$app" 2>/tmp/rf_preload_err.$$)
[ "$tol1" = "$stock" ] &&
    grep -q "ROLLFRIC_TOLERANCE='1' is not a number in \[0, 1); the world goes on with Bullet's own solver" /tmp/rf_preload_err.$$
check "ROLLFRIC_TOLERANCE=1: refused with the variable named, stock" $?
ROLLFRIC_TOLERANCE=0.1 LD_PRELOAD="$pre" "$app" --steps 1 >/dev/null 2>/tmp/rf_preload_err.$$
grep -q "ROLLFRIC_TOLERANCE=0.1 is loose (above 0.01): rolling and spinning torques" /tmp/rf_preload_err.$$
check "ROLLFRIC_TOLERANCE=0.1: warned as loose" $?
# a multibody world is not taken, and that is said
mb=$(LD_PRELOAD="$pre" "$app" --multibody 2>/tmp/rf_preload_err.$$)
cat /tmp/rf_preload_err.$$
[ "$mb" = "multibody" ] &&
    grep -q "btMultiBodyDynamicsWorld .*; the world goes on with Bullet's own solver" /tmp/rf_preload_err.$$
check "multibody world: said to go on with Bullet's own solver" $?
# APGD at the world's budget: refused in the preload's own words
ROLLFRIC_SOLVER=apgd LD_PRELOAD="$pre" "$app" >/tmp/rf_preload_out.$$ 2>/tmp/rf_preload_err.$$
cat /tmp/rf_preload_err.$$
grep -q "ROLLFRIC_SOLVER=apgd .*ROLLFRIC_ITERATIONS.*ROLLFRIC_CONVERGED=1.*Bullet's own solver" /tmp/rf_preload_err.$$ &&
    [ "$(cat /tmp/rf_preload_out.$$)" = "$stock" ]
check "ROLLFRIC_SOLVER=apgd alone: the variables to set, stock behaviour" $?

verbose=$(ROLLFRIC_VERBOSE=1 LD_PRELOAD="$pre" "$app" 2>&1 >/dev/null)
echo "$verbose" | head -n 3
echo "$verbose" | grep -q "^rollfric: .*contacts.*iterations.*residual not measured"
check "ROLLFRIC_VERBOSE=1: progress lines (the residual: not measured)" $?

for s in jacobi gs apgd; do
    out=$(ROLLFRIC_SOLVER=$s ROLLFRIC_ITERATIONS=200 ROLLFRIC_TOLERANCE=1e-9 \
          LD_PRELOAD="$pre" "$app")
    stopped_at_analytic "$out"
    check "ROLLFRIC_SOLVER=$s: stopped within 1%" $?
done

out=$(ROLLFRIC_ITERATIONS=1 ROLLFRIC_THREADS=1 LD_PRELOAD="$pre" "$app")
echo "1 iteration:        $out"
[ -n "$out" ]
check "ROLLFRIC_ITERATIONS=1 ROLLFRIC_THREADS=1 runs" $?

err=$(ROLLFRIC_SOLVER=newton LD_PRELOAD="$pre" "$app" 2>&1 >/tmp/rf_preload_out.$$)
echo "$err"
echo "$err" | grep -q "ROLLFRIC_SOLVER='newton'" &&
    [ "$(cat /tmp/rf_preload_out.$$)" = "$stock" ]
check "bad ROLLFRIC_SOLVER: message, stock behaviour" $?

stock64=$("$app64")
cone64=$(LD_PRELOAD="$pre64" "$app64")
echo "float64 stock:      $stock64"
echo "float64 preloaded:  $cone64"
stopped_at_analytic "$cone64"
check "float64 app + float64 preload: stopped within 1%" $?

err=$(LD_PRELOAD="$pre" "$app64" 2>&1 >/tmp/rf_preload_out.$$)
echo "$err"
echo "$err" | grep -q "librollfric_preload-float64.so" &&
    [ "$(cat /tmp/rf_preload_out.$$)" = "$stock64" ]
check "float64 app + float preload: refused with a message, stock behaviour" $?

# ROLLFRIC_RECORD: an unmodified program recorded with the
# cone solver and, with ROLLFRIC=off, with its own; recording changes
# nothing in the run, both files read back whole, and the ball's recorded
# travel is the distance the program printed (float precision of the
# format: 1e-3 m)
rec=$(mktemp -d)
cone_rec=$(ROLLFRIC_RECORD=$rec/cone.rec ROLLFRIC_RECORD_CONTACTS=1 \
           LD_PRELOAD="$pre" "$app")
stock_rec=$(ROLLFRIC=off ROLLFRIC_RECORD=$rec/stock.rec LD_PRELOAD="$pre" "$app")
[ "$cone_rec" = "$cone" ] && [ "$stock_rec" = "$stock" ]
check "ROLLFRIC_RECORD: the runs are unchanged" $?
for side in cone stock; do
    info=$("$rfrecord" info $rec/$side.rec)
    echo "$side recording:    $info"
    # "version 1 bodies B frames F time T contacts C complete 1": the
    # ground and the ball; 360 steps of 1/60 s at 60 frames per simulated
    # second: each step's start, 360 frames, to 359/60 s.  The app removes
    # its bodies before deleting the world, so the closing frame (the
    # state after the last step) would be empty and is left out: the
    # recording ends on the last frame that had bodies
    echo "$info" | awk '{ exit !($4 == 2 && $6 == 360 && $8 > 5.983 &&
                                 $8 < 5.984 && $12 == 1) }'
    check "ROLLFRIC_RECORD: $side recording complete, bodies and frames" $?
done
"$rfrecord" info $rec/cone.rec | awk '{ exit !($10 > 0) }'
check "ROLLFRIC_RECORD_CONTACTS=1: contact points recorded" $?
travel() { # recording: the dynamic body's (the sphere's) travel, m
    paste <("$rfrecord" first "$1") <("$rfrecord" last "$1") |
        awk '$2 == "sphere" { dx = $8 - $3; dz = $10 - $5;
                              printf "%.6f\n", sqrt(dx * dx + dz * dz) }'
}
awk -v t="$(travel $rec/cone.rec)" -v d="$(field "$cone" distance)" \
    'BEGIN { exit !(t - d < 1e-3 && d - t < 1e-3) }'
check "ROLLFRIC_RECORD: the cone ball's recorded travel = its distance" $?
awk -v c="$(travel $rec/cone.rec)" -v s="$(travel $rec/stock.rec)" \
    'BEGIN { exit !(s - c > 0.5) }'
check "ROLLFRIC_RECORD: stock's ball ends elsewhere (rolls on)" $?
# a program that never deletes its world: the recording is ended at exit
# (the end mark, every step's frame, no last frame: 360 frames to 5.983 s)
leak_rec=$(ROLLFRIC_RECORD=$rec/leak.rec LD_PRELOAD="$pre" "$app" --no-cleanup)
[ "$leak_rec" = "$cone" ]
check "ROLLFRIC_RECORD, world never deleted: the run is unchanged" $?
info=$("$rfrecord" info $rec/leak.rec)
echo "no-cleanup recording: $info"
echo "$info" | awk '{ exit !($4 == 2 && $6 == 360 && $8 > 5.98 &&
                             $8 < 5.99 && $12 == 1) }'
check "ROLLFRIC_RECORD, world never deleted: recording complete at exit" $?
rm -rf "$rec"

rm -f /tmp/rf_preload_err.$$ /tmp/rf_preload_out.$$
exit $fail
