#!/usr/bin/env bash
# Documentation checks (no network, no extra packages):
#   - every relative Markdown link [text](target) in README.md, docs/*.md,
#     demos/README.md, tests/demos/README.md and bench/results/README.md
#     names a file or directory that exists, relative to the linking file
#     (http(s) and mailto links and pure #anchors are not checked; an
#     #anchor after a path is dropped; fenced code blocks and inline code
#     spans are not parsed);
#   - README.md has at most 300 lines (the house rule: the README is the
#     front door, the details live in docs/).
# Usage: tests/doc_links.sh [SOURCE_DIR]   (default: this script's ../)
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || { echo "doc_links: no directory $root" >&2; exit 2; }

max_readme_lines=300
failed=0
checked=0

files=(README.md docs/*.md demos/README.md tests/demos/README.md
    bench/results/README.md)

for f in "${files[@]}"; do
    if [ ! -f "$f" ]; then
        echo "doc_links: missing file $f" >&2
        failed=1
        continue
    fi
    dir=$(dirname "$f")
    # Drop fenced code blocks (``` or ~~~), then inline code spans, then
    # print each link target as "LINE<TAB>TARGET".
    while IFS=$'\t' read -r line target; do
        [ -n "$target" ] || continue
        case "$target" in
        http://* | https://* | mailto:* | \#*) continue ;;
        esac
        path=${target%%#*}
        path=${path%%\?*}
        [ -n "$path" ] || continue
        checked=$((checked + 1))
        if [ "${path#/}" != "$path" ]; then
            resolved="$root$path"
        else
            resolved="$dir/$path"
        fi
        if [ ! -e "$resolved" ]; then
            echo "$f:$line: broken link ($target): $resolved does not exist" >&2
            failed=1
        fi
    done < <(awk '
        /^[ \t]*(```|~~~)/ { fence = !fence; next }
        fence { next }
        {
            s = $0
            gsub(/`[^`]*`/, "", s)
            while (match(s, /\]\([^)]*\)/)) {
                t = substr(s, RSTART + 2, RLENGTH - 3)
                s = substr(s, RSTART + RLENGTH)
                sub(/^[ \t]+/, "", t)
                if (t ~ /^</) { sub(/^</, "", t); sub(/>.*$/, "", t) }
                else sub(/[ \t].*$/, "", t)
                print NR "\t" t
            }
        }' "$f")
done

lines=$(wc -l <README.md)
if [ "$lines" -gt "$max_readme_lines" ]; then
    echo "README.md: $lines lines, at most $max_readme_lines (move details to docs/)" >&2
    failed=1
fi

if [ "$failed" -ne 0 ]; then
    echo "doc_links: FAILED ($checked relative links checked)" >&2
    exit 1
fi
echo "doc_links: $checked relative links resolve in ${#files[@]} files; README.md $lines lines"
