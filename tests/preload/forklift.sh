#!/usr/bin/env bash
# The application's choice of solver (docs/bullet.md, "Solvers the
# application chose"), on forklift_app (tests/preload/forklift_app.cpp: a
# 350 kg load on a 5 kg fork lifted by a slider motor, as Bullet's
# ForkLiftDemo, which installs btMLCPSolver for it).  Reference: the
# application's own MLCP run.  Targets: the load rises at least to
# MLCP's height - 5%, and the fork strays from the slider's axis at most
# MLCP's + 2 mm.
#   - preloaded, MLCP world: left to MLCP, said at attach, the same run;
#   - preloaded with ROLLFRIC_CONVERGED=1: the converged cone solve
#     replaces MLCP and meets the targets;
#   - sequential impulse at the world's 10 iterations: the cone on an SI
#     world lifts the load as stock's SI does (at least its height - 5%,
#     the axis within its + 2 mm), both short of MLCP's (printed: the
#     reason MLCP is left in place);
#   - the application switching to MLCP after 0.5 s (setConstraintSolver):
#     rollfric follows, says so, and leaves MLCP in place, which lifts the
#     load for the last 1.5 s.
# usage: forklift.sh APP PRELOAD
set -u
app=$1 pre=$2
fail=0
check() { if [ "$2" -eq 0 ]; then echo "[ OK ] $1"; else echo "[FAIL] $1"; fail=1; fi; }
field() { echo "$1" | awk -v k="$2" '{for (i = 1; i < NF; ++i) if ($i == k) print $(i + 1)}'; }
unset ROLLFRIC ROLLFRIC_SOLVER ROLLFRIC_ITERATIONS ROLLFRIC_TOLERANCE \
      ROLLFRIC_THREADS ROLLFRIC_VERBOSE ROLLFRIC_MODEL ROLLFRIC_RECORD \
      ROLLFRIC_RECORD_CONTACTS ROLLFRIC_QUIET ROLLFRIC_CONVERGED \
      ROLLFRIC_ROLLING_FRICTION ROLLFRIC_SPINNING_FRICTION
err=/tmp/rf_forklift_err.$$

mlcp=$("$app" mlcp)
si=$("$app" si)
cone_si=$(ROLLFRIC_QUIET=1 LD_PRELOAD="$pre" "$app" si)
left=$(LD_PRELOAD="$pre" "$app" mlcp 2>$err)
echo "stock MLCP:               $mlcp"
echo "stock SI (10 iterations): $si"
echo "cone on an SI world:      $cone_si"
echo "preloaded, MLCP world:    $left"
cat $err
[ "$left" = "$mlcp" ] && grep -q "btMLCPSolver left in place" $err
check "MLCP world, preloaded: left to MLCP, said, the same run" $?

awk -v c="$(field "$cone_si" load)" -v s="$(field "$si" load)" \
    -v co="$(field "$cone_si" off)" -v so="$(field "$si" off)" \
    'BEGIN { exit !(s > 0.3 && c >= 0.95 * s && co <= so + 0.002) }'
check "cone on an SI world: lifted to stock SI's height - 5%, axis within its + 2 mm" $?

conv=$(ROLLFRIC_CONVERGED=1 LD_PRELOAD="$pre" "$app" mlcp 2>$err)
echo "ROLLFRIC_CONVERGED=1:     $conv"
cat $err
grep -q "btMLCPSolver replaced by the cone solver (APGD" $err
check "ROLLFRIC_CONVERGED=1: the cone replaces MLCP" $?
awk -v c="$(field "$conv" load)" -v m="$(field "$mlcp" load)" \
    -v co="$(field "$conv" off)" -v mo="$(field "$mlcp" off)" \
    'BEGIN { exit !(m > 0.5 && c >= 0.95 * m && co <= mo + 0.002) }'
check "ROLLFRIC_CONVERGED=1: lifted to MLCP's height - 5%, axis within MLCP's + 2 mm" $?

switched=$(LD_PRELOAD="$pre" "$app" mlcp --switch 2>$err)
echo "SI, then MLCP at 0.5 s:   $switched"
cat $err
# after the switch MLCP lifts the load
grep -q "installed another solver (setConstraintSolver): rollfric follows it" $err &&
    grep -q "btMLCPSolver left in place" $err &&
    awk -v l="$(field "$switched" load)" 'BEGIN { exit !(l > 0.3) }'
check "setConstraintSolver after attaching: followed, said, MLCP lifts" $?
rm -f $err
exit $fail
