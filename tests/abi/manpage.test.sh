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

# The page lints clean: mandoc (scripts/install-deps.sh installs it) at warning level, and groff
# with all warnings. Neither sees an option heading that lost its .TP (it is legal roff, and the
# option then runs into the paragraph before it): every option heading of OPTIONS follows a .TP.
if command -v mandoc >/dev/null; then
    mandoc -Tlint -W warning "$MAN" >"$TMP/lint.txt" 2>&1
    [ -s "$TMP/lint.txt" ] && bad "mandoc -Tlint: $(cat "$TMP/lint.txt")" || ok
else
    bad "mandoc is not installed (sh scripts/install-deps.sh)"
fi
groff -ww -z -man "$MAN" >"$TMP/groff.txt" 2>&1
[ -s "$TMP/groff.txt" ] && bad "groff -ww: $(cat "$TMP/groff.txt")" || ok
awk '/^\.SH/ { sec = $0 } sec ~ /OPTIONS/ && /^\.(B|BI|BR) \\-/ && prev !~ /^\.TP/ { print NR ": " $0 } { prev = $0 }' \
    "$MAN" >"$TMP/tp.txt"
[ -s "$TMP/tp.txt" ] && bad "option headings without .TP before them (they run into the text above): $(cat "$TMP/tp.txt")" || ok

finish manpage
