#!/bin/sh
# `make run`, the README's first command, shows the run once (issue 28: it printed the same table
# twice, stat's and then the recording summary's, 878 lines): the commands of its recipe (read with
# make -n), run on this build, print no counter or metric line twice and fit on a few screens.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

make -n -s -C "$SOCMON_SRC" run BUILD=build 2>/dev/null | grep '^\./build/socmon ' >"$TMP/cmds"
[ "$(wc -l <"$TMP/cmds")" -ge 2 ] && ok || bad "make -n run lists no socmon commands: $(cat "$TMP/cmds")"
cd "$TMP"
while read -r line; do
    # shellcheck disable=SC2086
    set -- ${line#./build/socmon }
    "$BIN" "$@" >>"$TMP/out" 2>&1 || bad "socmon $*: exit $?"
done <"$TMP/cmds"
n=$(wc -l <"$TMP/out")
[ "$n" -lt 250 ] && ok || bad "make run prints $n lines"
# a line of a counter or metric table: two spaces, a name, a number
grep -E '^  [a-z][a-z0-9_.]+ +[a-z0-9]* +[-0-9.,]+ ' "$TMP/out" | sort | uniq -d >"$TMP/dup"
[ -s "$TMP/dup" ] && bad "lines printed twice: $(head -5 "$TMP/dup")" || ok
grep -q "stayed 0" "$TMP/out" && ok || bad "the summary does not fold the counters that stayed 0"
grep -q "Where the time went" "$TMP/out" && ok || bad "no findings in make run's output"
grep -q "socmon-esp.html" "$TMP/out" && [ -s "$TMP/socmon-esp.html" ] && ok || bad "no page written"
# The README's quick start shows what the user sees: every line of its sample output (those
# not shortened with "...") is a line make run printed.
awk '/^`make run` records/ { on = 1 } on && /^```$/ { n++; if (n == 2) exit; next } on && n == 1' \
    "$SOCMON_SRC/README.md" | grep -v '\.\.\.' | grep -v '^$' >"$TMP/readme"
[ "$(wc -l <"$TMP/readme")" -ge 10 ] && ok || bad "README's make run sample not found"
while IFS= read -r l; do
    grep -qxF -- "$l" "$TMP/out" || bad "README shows a line make run does not print: '$l'"
done <"$TMP/readme"
finish make_run
