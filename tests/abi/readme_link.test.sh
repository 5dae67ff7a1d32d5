#!/bin/sh
# The README's "Using the library" as written (issue 37, item 6): its C snippet, compiled and linked
# with the README's own command line against the build's static library (run in a directory where
# include/ and build/ are the tree's and the build's), then run. The libraries the line names are
# those the build's socmon.pc gives a static link (Requires.private and Libs.private), so the
# README cannot drift from what the library needs.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
: "${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}"

python3 - "$SOCMON_SRC/README.md" "$TMP" <<'PY' && ok || bad "the README's snippet and link line"
import re, sys
readme, tmp = sys.argv[1], sys.argv[2]
text = open(readme).read()
part = text[text.index("## Using the library"):]
part = part[:part.index("\n## ", 1)]
code = re.search(r"```c\n(.*?)```", part, re.S)
line = re.search(r"```sh\n(cc .*?)\n```", part, re.S)
assert code and line, "no ```c snippet or ```sh cc line under 'Using the library'"
open(tmp + "/prog.c", "w").write(code.group(1))
open(tmp + "/link.sh", "w").write(line.group(1) + "\n")
PY
link=$(cat "$TMP/link.sh")
case "$link" in *build/libsocmon.a*) ok ;; *) bad "the README's line does not link build/libsocmon.a: $link" ;; esac

# the libraries a static link needs, from the build's socmon.pc
pc="$SOCMON_BUILD/socmon.pc"
[ -f "$pc" ] || bad "no $pc"
need=$(sed -n 's/^Libs.private://p' "$pc")
for m in $(sed -n 's/^Requires.private://p' "$pc"); do
    case "$m" in jansson) need="$need -ljansson" ;; zlib) need="$need -lz" ;; libzstd) need="$need -lzstd" ;;
        libelf) need="$need -lelf" ;; libdw) need="$need -ldw" ;; *) bad "socmon.pc requires $m: the test knows no -l for it" ;; esac
done
for l in $need; do
    case " $link " in *" $l "*) ok ;; *) bad "the README's link line lacks $l (socmon.pc: $need)" ;; esac
done

# as written, in a directory laid out as the README assumes; -lpfm goes where CMake found no libpfm4
# (the README says so), and a sanitizer build's library needs its runtime
ln -s "$SOCMON_SRC/include" "$TMP/include"
ln -s "$SOCMON_BUILD" "$TMP/build"
case "$need" in *-lpfm*) ;; *) link=$(printf '%s' "$link" | sed 's/ -lpfm//') ;; esac
if ldd "$BIN" 2>/dev/null | grep -q -e libasan -e libubsan; then link="$link -fsanitize=address,undefined"; fi
(cd "$TMP" && sh -c "$link") >"$TMP/cc.log" 2>&1 && ok || { bad "the README's link line failed: $link"; head -20 "$TMP/cc.log"; }
out=$(cd "$TMP" && ./prog 2>&1)
printf '%s\n' "$out" | grep -qx '[1-9][0-9]* counters' && ok || bad "the README's program printed: $out"
finish readme_link
