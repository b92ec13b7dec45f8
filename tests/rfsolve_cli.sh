#!/usr/bin/env bash
# rfsolve command-line contract: JSON summary last, exit codes
# 0 converged / 1 not converged / 2 bad input, solution file layout.
# usage: rfsolve_cli.sh RFSOLVE DATA_DIR
set -u
rfsolve=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() { # name, condition result (0 = pass)
    if [ "$2" -eq 0 ]; then passes=$((passes + 1)); echo "[ OK ] $1"
    else fails=$((fails + 1)); echo "[FAIL] $1"; fi
}

"$rfsolve" --help >"$tmp/out" 2>&1; rc=$?
grep -q "usage: rfsolve" "$tmp/out"; check "--help prints usage, exit 0" $((rc + $?))

"$rfsolve" "$data/RFC3D_sphere_1.dat" --model desaxce --write-solution "$tmp/sol" >"$tmp/out" 2>&1; rc=$?
last=$(tail -n 1 "$tmp/out")
check "sphere file converges (exit 0)" $rc
case "$last" in
  '{'*'"contacts":1,'*'"converged":true'*'}') check "last line is the JSON summary" 0 ;;
  *) echo "last line: $last"; check "last line is the JSON summary" 1 ;;
esac
res=$(printf '%s\n' "$last" | sed -n 's/.*"residual":\([^,]*\),.*/\1/p')
awk -v r="$res" 'BEGIN { exit !(r != "" && r + 0 <= 1e-10) }'
check "reported residual <= 1e-10 ($res)" $?
[ "$(wc -l <"$tmp/sol")" -eq 1 ] && [ "$(awk '{print NF}' "$tmp/sol")" -eq 5 ]
check "solution: 1 line of 5 numbers for a dimension-5 file" $?

# W symmetric to round-off: a 1x1-contact file whose W has
# W(1,2) = 1 + 2e-5, W(2,1) = 1 - 2e-5 (largest entry 3): accepted, the
# figure 4e-5 / 3 in the report and the JSON
printf '5\n1\n0\n5\n5\n5\t5\n3 0 0 0 0\n0 3 1.00002 0 0\n0 0.99998 3 0 0\n0 0 0 1 0\n0 0 0 0 1\n-1 0 0 0 0\n0.5\n0.1\n' >"$tmp/asym.dat"
"$rfsolve" "$tmp/asym.dat" >"$tmp/out" 2>&1; rc=$?
grep -q "W is symmetric to 1.33e-05 of its largest entry" "$tmp/out" &&
  tail -n 1 "$tmp/out" | grep -q '"w_asymmetry":1.333333e-05'
check "round-off asymmetry: accepted (exit $rc), figure reported" $((rc + $?))
sed -i 's/1.00002/1.2/; s/0.99998/0.8/' "$tmp/asym.dat"
"$rfsolve" "$tmp/asym.dat" >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "not symmetric.*0.133 of its largest entry" "$tmp/out"
check "gross asymmetry: exit 2 with the figure" $?

"$rfsolve" "$data/RFC3D_cube_1.dat" --solver jacobi --max-iter 2 --quiet >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 1 ] && tail -n 1 "$tmp/out" | grep -q '"converged":false'
check "2 Jacobi iterations on the cube file: not converged, exit 1" $?

printf '5\n1\n0\n5\n5\n5 5\n1 0 0 0 0\n0 1 0 0\n' >"$tmp/bad.dat"
"$rfsolve" "$tmp/bad.dat" >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "bad.dat:8" "$tmp/out"
check "malformed file: exit 2 and the line named" $?

"$rfsolve" "$tmp/missing.dat" >"$tmp/out" 2>&1
check "missing file: exit 2" $(( $? == 2 ? 0 : 1 ))
"$rfsolve" "$data/RFC3D_cube_1.dat" --solver nope >"$tmp/out" 2>&1
check "unknown solver: exit 2" $(( $? == 2 ? 0 : 1 ))
"$rfsolve" "$data/RFC3D_cube_1.dat" --tol -1 >"$tmp/out" 2>&1
check "negative tolerance: exit 2" $(( $? == 2 ? 0 : 1 ))
"$rfsolve" "$data/RFC3D_cube_1.dat" --bogus >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "unknown option --bogus" "$tmp/out"
check "an unknown last option: named as unknown, exit 2" $?
# a finite coefficient so large the residual overflows: the JSON stays
# JSON (null and a note, never nan)
n=$(wc -l <"$data/RFC3D_cube_1.dat")
sed "$((n - 1))s/.*/ 1e308 1e308/" "$data/RFC3D_cube_1.dat" >"$tmp/huge.dat"
"$rfsolve" "$tmp/huge.dat" --max-iter 10 --quiet >"$tmp/out" 2>&1
tail -n 1 "$tmp/out" | grep -q '"residual":null, "residual_note":"not finite' &&
    ! tail -n 1 "$tmp/out" | grep -qi 'nan'
check "mu = 1e308: residual null with a note, no nan in the JSON" $?
"$rfsolve" "$data/RFC3D_cube_1.dat" --max-iter 200000 --tol 0 --solver gs --quiet >"$tmp/out" 2>&1
grep -q "warning: --max-iter 200000 with --tol 0 runs all of them" "$tmp/out"
check "200000 iterations and no tolerance: warned" $?
"$rfsolve" "$data/RFC3D_cube_1.dat" --tol 1 >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "tol = 1 >= 1 ends no solve sooner than one sweep" "$tmp/out"
check "tol 1: refused, exit 2" $?
"$rfsolve" "$data/RFC3D_cube_1.dat" --tol 0.1 --quiet >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "warning: --tol 0.1 is loose (above 0.01)" "$tmp/out"
check "tol 0.1: solved, warned as loose" $?
"$rfsolve" "$data/RFC3D_cube_1.dat" --threads 100000 >"$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "threads = 100000 > RF_MAX_THREADS" "$tmp/out"
check "100000 threads: refused before OpenMP, exit 2" $?
"$rfsolve" >"$tmp/out" 2>&1
check "no file: exit 2" $(( $? == 2 ? 0 : 1 ))

# --cohesion C: every normal impulse >= -C (gamma + C e_n in the
# cone), and the cube's first contact, separating without cohesion
# (gamma = 0), now pulls with all of it (-C: the solver's tolerance 1e-10
# on a unit-size problem, 1e-8 here)
"$rfsolve" "$data/RFC3D_cube_1.dat" --cohesion 0.5 --write-solution "$tmp/coh" >"$tmp/out" 2>&1; rc=$?
check "--cohesion 0.5 converges (exit 0)" $rc
tail -n 1 "$tmp/out" | grep -q '"cohesion":5.000000e-01'
check "--cohesion in the JSON summary" $?
awk 'NR == 1 { first = $1 } $1 < -0.5 - 1e-8 { bad = 1 }
     END { exit !(!bad && first < -0.5 + 1e-8) }' "$tmp/coh"
check "--cohesion: gamma_n >= -C everywhere, the separating contact pulls with -C" $?
"$rfsolve" "$data/RFC3D_cube_1.dat" --cohesion -1 >"$tmp/out" 2>&1
check "negative cohesion: exit 2" $(( $? == 2 ? 0 : 1 ))

# --compliance C (Tasora 6.2's Tikhonov term): the sphere file's
# normal row of W is (1, 0, 0, 0, 0), so its normal impulse solves
# (1 + C) gamma_n = -q_n: with C = 1 it is half the rigid one (1e-9: the
# solver's tolerance 1e-10 on a unit-size problem)
"$rfsolve" "$data/RFC3D_sphere_1.dat" --write-solution "$tmp/rigid" >/dev/null 2>&1
"$rfsolve" "$data/RFC3D_sphere_1.dat" --compliance 1 --write-solution "$tmp/soft" >"$tmp/out" 2>&1; rc=$?
check "--compliance 1 converges (exit 0)" $rc
awk 'NR == FNR { r = $1; next } { d = $1 - r / 2; exit !(d < 1e-9 && d > -1e-9) }' "$tmp/rigid" "$tmp/soft"
check "--compliance 1: gamma_n = rigid gamma_n / 2" $?
"$rfsolve" "$data/RFC3D_cube_1.dat" --compliance -1 >"$tmp/out" 2>&1
check "negative compliance: exit 2" $(( $? == 2 ? 0 : 1 ))

# --model pyramid (Pang-Trinkle's LCP by Lemke's method): the
# sphere file's single contact (W_nn = 1, normal row decoupled): the normal
# impulse is -q_n as in the cone models (1e-9), and the LCP residual ~0
"$rfsolve" "$data/RFC3D_sphere_1.dat" --model pyramid --write-solution "$tmp/pyr" >"$tmp/out" 2>&1; rc=$?
check "--model pyramid converges (exit 0)" $rc
tail -n 1 "$tmp/out" | grep -q '"model":"pyramid"'
check "--model pyramid in the JSON summary" $?
awk 'NR == FNR { r = $1; next } { d = $1 - r; exit !(d < 1e-9 && d > -1e-9) }' "$tmp/rigid" "$tmp/pyr"
check "--model pyramid: the sphere's normal impulse as the cone's" $?

# --normal-max C (the yield cap): the sphere file's rigid normal
# impulse 8.92 capped at 4 exactly (the projection onto the cap's plane)
"$rfsolve" "$data/RFC3D_sphere_1.dat" --normal-max 4 --write-solution "$tmp/cap" >"$tmp/out" 2>&1; rc=$?
check "--normal-max 4 converges (exit 0)" $rc
awk '{ exit !($1 == 4) }' "$tmp/cap"
check "--normal-max 4: gamma_n = 4" $?
"$rfsolve" "$data/RFC3D_cube_1.dat" --normal-max -1 >"$tmp/out" 2>&1
check "negative normal-max: exit 2" $(( $? == 2 ? 0 : 1 ))

# --local-mdp: Gauss-Seidel with Preclik's local step; the
# sphere file's contact has rolling friction, so it keeps the cone's
# local solve: the same normal impulse (1e-9)
"$rfsolve" "$data/RFC3D_sphere_1.dat" --local-mdp --write-solution "$tmp/mdp" >"$tmp/out" 2>&1; rc=$?
check "--local-mdp converges (exit 0)" $rc
tail -n 1 "$tmp/out" | grep -q '"solver":"gs"'
check "--local-mdp runs Gauss-Seidel" $?
awk 'NR == FNR { r = $1; next } { d = $1 - r; exit !(d < 1e-9 && d > -1e-9) }' "$tmp/rigid" "$tmp/mdp"
check "--local-mdp: a rolling contact keeps the cone's local law" $?

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
