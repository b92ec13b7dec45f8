#!/usr/bin/env bash
# The drop-in as a user meets it: dropin_app (tests/preload/dropin_app.cpp)
# gives every surface its mu through Bullet's anisotropic friction and
# sets no rolling friction.  Under the preload:
#   - mu is kept: the mu = 0.3 box slides down the 20 deg ramp at stock's
#     acceleration (2%), g (sin 20 - 0.3 cos 20) = 0.590 m/s^2;
#   - without ROLLFRIC_ROLLING_FRICTION nothing brakes the balls, as under
#     stock (the application set none);
#   - with ROLLFRIC_ROLLING_FRICTION=0.036 the 1 kg and the 500 kg ball
#     stop within 1% of v0^2 / 2a, a = rho g / (R (1 + 2/5)) (Tasora-
#     Anitescu §6.1): 3.9642 m for v0 = 2, R = 0.5, and within 1% of each
#     other; the same with ROLLFRIC_MATERIALS (a rule for the spheres);
#   - a bad materials file: one message, and the world runs stock.
# usage: dropin.sh APP PRELOAD
set -u
app=$1 pre=$2
fail=0
check() { if [ "$2" -eq 0 ]; then echo "[ OK ] $1"; else echo "[FAIL] $1"; fail=1; fi; }
field() { echo "$1" | awk -v k="$2" -v n="$3" '{for (i = 1; i < NF; ++i) if ($i == k) print $(i + n)}'; }
unset ROLLFRIC ROLLFRIC_SOLVER ROLLFRIC_ITERATIONS ROLLFRIC_TOLERANCE \
      ROLLFRIC_THREADS ROLLFRIC_VERBOSE ROLLFRIC_MODEL ROLLFRIC_RECORD \
      ROLLFRIC_RECORD_CONTACTS ROLLFRIC_QUIET ROLLFRIC_CONVERGED \
      ROLLFRIC_ROLLING_FRICTION ROLLFRIC_SPINNING_FRICTION

stock=$("$app")
plain=$(LD_PRELOAD="$pre" "$app" 2>/tmp/rf_dropin_err.$$)
rolled=$(ROLLFRIC_ROLLING_FRICTION=0.036 LD_PRELOAD="$pre" "$app" 2>>/tmp/rf_dropin_err.$$)
echo "stock:                          $stock"
echo "preloaded:                      $plain"
echo "ROLLFRIC_ROLLING_FRICTION=0.036: $rolled"
cat /tmp/rf_dropin_err.$$

for out in "$plain" "$rolled"; do
    awk -v a="$(field "$out" slide 1)" -v s="$(field "$stock" slide 1)" \
        'BEGIN { exit !(a / s - 1 < 0.02 && 1 - a / s < 0.02 && s > 0.57 && s < 0.61) }'
    check "mu through anisotropic friction: stock's acceleration (2%)" $?
done
! grep -q "anisotropic" /tmp/rf_dropin_err.$$
check "no warning about anisotropic friction" $?
awk -v l="$(field "$plain" light 2)" -v h="$(field "$plain" heavy 2)" \
    -v sl="$(field "$stock" light 2)" 'BEGIN { exit !(l > 1.9 && h > 1.9 && sl > 1.9) }'
check "no rolling friction set: the balls roll on, as under stock" $?
# both balls of an output line stopped at v0^2 / 2a and together (1%)
both_stop() {
    awk -v dl="$(field "$1" light 1)" -v dh="$(field "$1" heavy 1)" \
        -v sl="$(field "$1" light 2)" -v sh="$(field "$1" heavy 2)" \
        'BEGIN { ref = 3.9642
                 ok = sl < 1e-3 && sh < 1e-3
                 ok = ok && dl / ref - 1 < 0.01 && 1 - dl / ref < 0.01
                 ok = ok && dh / ref - 1 < 0.01 && 1 - dh / ref < 0.01
                 ok = ok && dh / dl - 1 < 0.01 && 1 - dh / dl < 0.01
                 exit !ok }'
}
both_stop "$rolled"
check "ROLLFRIC_ROLLING_FRICTION: 1 kg and 500 kg stop at v0^2/2a (1%)" $?
grep -q "rolling friction 0.036 m" /tmp/rf_dropin_err.$$
check "the attach line names the default" $?

# the same through a materials file: rho = 0.072 r for dynamic spheres
# (0.036 m at R = 0.5; the ground's friction 1 keeps it so combined)
mat=$(mktemp)
printf '[balls]\nkind = dynamic\nshape = sphere\nrolling = 0.072 r\n' >"$mat"
filed=$(ROLLFRIC_MATERIALS="$mat" LD_PRELOAD="$pre" "$app" 2>/tmp/rf_dropin_err.$$)
echo "ROLLFRIC_MATERIALS:             $filed"
cat /tmp/rf_dropin_err.$$
both_stop "$filed" && grep -q "materials: 1 rule)" /tmp/rf_dropin_err.$$
check "ROLLFRIC_MATERIALS: both balls stop at v0^2/2a (1%), named at attach" $?
# a bad file: one message with the line and the key, and stock's run
printf '[balls]\nshape = sphere\nrolling = -1\n' >"$mat"
bad=$(ROLLFRIC_MATERIALS="$mat" LD_PRELOAD="$pre" "$app" 2>/tmp/rf_dropin_err.$$)
cat /tmp/rf_dropin_err.$$
[ "$bad" = "$stock" ] &&
    grep -q "ROLLFRIC_MATERIALS: materials: line 3: \[balls\] rolling = '-1'.*Bullet's own solver" /tmp/rf_dropin_err.$$ &&
    [ "$(wc -l </tmp/rf_dropin_err.$$)" -eq 1 ]
check "bad ROLLFRIC_MATERIALS: one message (line, key), stock's run" $?
rm -f "$mat"
rm -f /tmp/rf_dropin_err.$$
exit $fail
