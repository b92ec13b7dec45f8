#!/bin/bash
# The shared libraries export the documented API and nothing else (issue
# #24 item 6): every symbol a library defines for others (nm -D
# --defined-only) is a function or variable declared in
# include/rollfric/*.h.  Before shim/exports.map, libstdc++'s
# std::vector instantiations and OpenMP's named critical-section lock
# (.gomp_critical_user_*) leaked out.
# And the other way: every function a public header declares
# with RF_API is exported, so that a binding can load it by name
# (plNewBulletSdk, which the header maps to its precision's name, under
# both names).
# usage: exported_symbols.sh INCLUDE_DIR LIB...
set -u
inc=$1
shift
status=0
for lib in "$@"; do
    syms=$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//')
    n=0
    for s in $syms; do
        n=$((n + 1))
        if ! grep -qw -- "$s" "$inc"/rollfric/*.h; then
            echo "$(basename "$lib"): exports $s, which no public header declares"
            status=1
        fi
    done
    declared=$(cat "$inc"/rollfric/*.h | tr '\n' ' ' |
        grep -o 'RF_API[^;(]*(' | sed 's/($//' | awk '{print $NF}' |
        sed 's/^\*//' | grep -E '^(rf|pl)[_A-Z]')
    for f in $declared plNewBulletSdk; do
        if ! printf '%s\n' $syms | grep -qx -- "$f"; then
            echo "$(basename "$lib"): does not export $f, which a public header declares"
            status=1
        fi
    done
    if [ "$n" -lt 50 ]; then # the API itself is there (rf_*, pl*)
        echo "$(basename "$lib"): only $n symbols exported"
        status=1
    fi
    echo "$(basename "$lib"): $n symbols, all declared in the public headers"
done
exit $status
