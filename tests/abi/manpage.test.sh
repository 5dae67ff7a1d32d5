#!/bin/sh
# docs/socmon.1 matches the CLI: every command `socmon --help` lists, every
# long option of every `socmon CMD --help`, every target `socmon list` names,
# and the version `socmon --version` prints. A new option without a line in
# the man page fails here.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
MAN=$SOCMON_SRC/docs/socmon.1

# groff escapes '-' as '\-' in the page; compare with the escapes removed.
sed 's/\\-/-/g' "$MAN" >"$TMP/man.txt"

cmds=$("$BIN" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[ -n "$cmds" ] && ok || bad "no commands in 'socmon --help'"
for c in $cmds; do
    grep -q "^\.B $c\$" "$TMP/man.txt" && ok || bad "command '$c' has no .B entry in docs/socmon.1"
    "$BIN" "$c" --help >"$TMP/help_$c.txt" 2>&1 || bad "socmon $c --help exited $?"
    for o in $(grep -o -- '--[a-z][a-z-]*' "$TMP/help_$c.txt" | sort -u); do
        grep -q -- "$o\\b" "$TMP/man.txt" && ok || bad "option $o of 'socmon $c' missing from docs/socmon.1"
    done
done
# The global options.
for o in --help --version; do
    grep -q -- "$o" "$TMP/man.txt" && ok || bad "global option $o missing from docs/socmon.1"
done

targets=$("$BIN" list | awk '/^[a-z]/ { print $1 }')
[ -n "$targets" ] && ok || bad "no targets in 'socmon list'"
for t in $targets; do
    sed -n '/^\.SH TARGETS/,/^\.SH /p' "$TMP/man.txt" | grep -q "^\.B $t\$" && ok ||
        bad "target '$t' missing from TARGETS in docs/socmon.1"
done

ver=$("$BIN" --version | awk '{ print $2 }')
grep -q "^\.TH SOCMON 1 .*\"socmon $ver\"" "$TMP/man.txt" && ok ||
    bad "docs/socmon.1 .TH does not say socmon $ver"

finish manpage
