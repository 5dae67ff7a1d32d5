#!/bin/sh
# Files small enough to read in one sitting (DEVELOPERS.md; issue 40): no source file under src/
# is over 800 lines, and src/cli/ (the command: argv to a plan and its consumers) is at most 3,300
# lines in all. A planted 801-line file, and a planted CLI file past the total, in a copy must
# fail the checks.
set -eu
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
LIMIT=800
check() { # DIR: prints each file over the limit, fails if there is one
    over=$(find "$1/src" -name '*.[ch]' -exec wc -l {} + | awk -v lim=$LIMIT '$2 != "total" && $1 > lim')
    [ -z "$over" ] && return 0
    printf '%s\n' "$over" | sed "s|$1/||; s|^ *\([0-9]*\) \(.*\)|\2: \1 lines, over $LIMIT|"
    return 1
}
CLI_LIMIT=3300
check_cli() { # DIR: fails when DIR/src/cli/ is over CLI_LIMIT lines in all
    n=$(cat "$1"/src/cli/*.[ch] | wc -l)
    [ "$n" -le $CLI_LIMIT ] && return 0
    echo "src/cli/: $n lines, over $CLI_LIMIT"
    return 1
}
check "$SRC"
check_cli "$SRC"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/src/core"
awk 'BEGIN { for (i = 0; i < 801; i++) print "/* line */" }' >"$TMP/src/core/planted.c"
if check "$TMP" >"$TMP/out"; then
    echo "file_size: an 801-line file passed"; exit 1
fi
grep -q "src/core/planted.c: 801 lines, over 800" "$TMP/out"
mkdir -p "$TMP/src/cli"
cp "$SRC"/src/cli/*.[ch] "$TMP/src/cli/"
check_cli "$TMP" || { echo "file_size: the copied src/cli/ failed"; exit 1; }
awk -v n=$((CLI_LIMIT + 1)) 'BEGIN { for (i = 0; i < n; i++) print "/* line */" }' >"$TMP/src/cli/planted.c"
if check_cli "$TMP" >"$TMP/out"; then
    echo "file_size: a src/cli/ over $CLI_LIMIT lines passed"; exit 1
fi
grep -q "src/cli/: .* lines, over $CLI_LIMIT" "$TMP/out"
echo "file_size: ok ($(find "$SRC/src" -name '*.[ch]' | wc -l) files, none over $LIMIT lines; src/cli/ $(cat "$SRC"/src/cli/*.[ch] | wc -l) lines)"
