# Shared by the rfdemo test scripts (sourced, not run): check NAME STATUS
# counts a check and prints its line, check_summary prints the totals and
# returns 0 when nothing failed.
fails=0 passes=0
check() { # name, status (0 = pass)
    if [ "$2" -eq 0 ]; then passes=$((passes + 1)); echo "[ OK ] $1"
    else fails=$((fails + 1)); echo "[FAIL] $1"; fi
}
check_summary() {
    echo "$passes passed, $fails failed"
    [ "$fails" -eq 0 ]
}
