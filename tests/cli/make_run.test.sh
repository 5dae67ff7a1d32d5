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
# The files make run writes in the checkout (its commands ran in $TMP as they run in the tree's
# root) are ignored by git: a checkout stays clean (issue 37)
if git -C "$SOCMON_SRC" rev-parse --git-dir >/dev/null 2>&1; then
    for f in $(cd "$TMP" && ls); do
        case "$f" in cmds|out|dup|readme) continue ;; esac
        git -C "$SOCMON_SRC" check-ignore -q --no-index "$f" && ok || bad "make run leaves $f untracked in the checkout"
    done
fi

# The build's own output stays out of make run's (issue 37: 240 lines before the run), and a failed
# build still shows its error: the recipe of `make cli` (read with make -n) run on a stand-in build
# tree whose socmon_cli target prints 300 lines, then fails with an error.
mkdir "$TMP/proj"
cat >"$TMP/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(standin NONE)
add_custom_target(socmon_cli COMMAND sh ${CMAKE_SOURCE_DIR}/noisy.sh)
add_custom_target(socmon_shared)
CM
cat >"$TMP/proj/noisy.sh" <<'SH'
i=0; while [ $i -lt 300 ]; do echo "[ $i%] Building C object src/x$i.c.o"; i=$((i + 1)); done
if [ -e "$(dirname "$0")/fail" ]; then echo "src/x.c:3:1: error: boom in the build" >&2; exit 1; fi
SH
cmake -S "$TMP/proj" -B "$TMP/standin" >/dev/null 2>&1 || bad "configure the stand-in build"
make -n -s -C "$SOCMON_SRC" cli BUILD="$TMP/standin" 2>/dev/null | sed -n '/^cmake --build /,$p' >"$TMP/recipe"
grep -q "cmake --build $TMP/standin" "$TMP/recipe" && ok || bad "make -n cli: no cmake --build line: $(cat "$TMP/recipe")"
(cd "$SOCMON_SRC" && sh "$TMP/recipe") >"$TMP/quiet.out" 2>&1 && ok || bad "the stand-in build failed: $(tail -3 "$TMP/quiet.out")"
n=$(wc -l <"$TMP/quiet.out")
[ "$n" -le 5 ] && ok || bad "make cli prints the build's $n lines"
touch "$TMP/proj/fail"
(cd "$SOCMON_SRC" && sh "$TMP/recipe") >"$TMP/fail.out" 2>&1 && bad "a failed build exits 0" || ok
grep -q "error: boom in the build" "$TMP/fail.out" && ok || bad "a failed build hides its error: $(cat "$TMP/fail.out")"
[ "$(wc -l <"$TMP/fail.out")" -le 70 ] && ok || bad "a failed build prints all of its progress"
finish make_run
