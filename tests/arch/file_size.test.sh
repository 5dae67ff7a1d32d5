#!/bin/sh
# Files small enough to read in one sitting (DEVELOPERS.md; issue 40): no source file under src/
# is over 800 lines. A planted 801-line file in a copy must fail the check.
set -eu
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
LIMIT=800
check() { # DIR: prints each file over the limit, fails if there is one
    over=$(find "$1/src" -name '*.[ch]' -exec wc -l {} + | awk -v lim=$LIMIT '$2 != "total" && $1 > lim')
    [ -z "$over" ] && return 0
    printf '%s\n' "$over" | sed "s|$1/||; s|^ *\([0-9]*\) \(.*\)|\2: \1 lines, over $LIMIT|"
    return 1
}
check "$SRC"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/src/core"
awk 'BEGIN { for (i = 0; i < 801; i++) print "/* line */" }' >"$TMP/src/core/planted.c"
if check "$TMP" >"$TMP/out"; then
    echo "file_size: an 801-line file passed"; exit 1
fi
grep -q "src/core/planted.c: 801 lines, over 800" "$TMP/out"
echo "file_size: ok ($(find "$SRC/src" -name '*.[ch]' | wc -l) files, none over $LIMIT lines)"
