#!/bin/sh
# docs/install.md's "Building a program" as written (issue 37, item 14): the build installed into a
# prefix the loader does not search, the README's program built with the docs' pkg-config lines
# (PREFIX replaced by that prefix), then run with no LD_LIBRARY_PATH: the rpath flag the docs give
# makes it find the prefix's libsocmon.so.0. And what the docs say of a link without it: the
# program does not start, and does with LD_LIBRARY_PATH=PREFIX/lib.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
: "${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}"
unset LD_LIBRARY_PATH

P="$TMP/prefix"
cmake --install "$SOCMON_BUILD" --prefix "$P" >"$TMP/install.log" 2>&1 && ok || { bad "cmake --install"; tail "$TMP/install.log"; }
python3 - "$SOCMON_SRC" "$TMP" "$P" <<'PY' && ok || bad "the README's program and docs/install.md's lines"
import re, sys
src, tmp, prefix = sys.argv[1:]
readme = open(src + "/README.md").read()
lib = readme[readme.index("## Using the library"):]
open(tmp + "/prog.c", "w").write(re.search(r"```c\n(.*?)```", lib, re.S).group(1))
doc = open(src + "/docs/install.md").read()
part = doc[doc.index("## Building a program"):]
block = re.search(r"```sh\n(export PKG_CONFIG_PATH.*?)```", part, re.S)
assert block, "no ```sh block with export PKG_CONFIG_PATH under 'Building a program'"
open(tmp + "/build.sh", "w").write(block.group(1).replace("PREFIX", prefix))
assert "LD_LIBRARY_PATH=PREFIX/lib" in part, "the docs do not say LD_LIBRARY_PATH"
PY
# a sanitizer build's library needs its runtime in the program: cc is then cc with it
san=
if ldd "$BIN" 2>/dev/null | grep -q -e libasan -e libubsan; then
    san=-fsanitize=address,undefined
    mkdir "$TMP/bin"
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$(command -v cc)" "$san" >"$TMP/bin/cc"
    chmod +x "$TMP/bin/cc"
    PATH="$TMP/bin:$PATH"
fi
(cd "$TMP" && sh -e ./build.sh) >"$TMP/run.log" 2>&1 && ok || { bad "docs/install.md's lines failed"; head -20 "$TMP/run.log"; }
grep -qx '[1-9][0-9]* counters' "$TMP/run.log" && ok || bad "the program did not run: $(head -3 "$TMP/run.log")"
# the same link without the rpath: what the docs warn of, and their other way out
PKG_CONFIG_PATH="$P/lib/pkgconfig"
export PKG_CONFIG_PATH
(cd "$TMP" && cc $san $(pkg-config --cflags socmon) prog.c -o bare $(pkg-config --libs socmon)) || bad "link without rpath"
expect 127 "libsocmon.so.0: cannot open shared object file" -- "$TMP/bare"
LD_LIBRARY_PATH="$P/lib" "$TMP/bare" | grep -qx '[1-9][0-9]* counters' && ok || bad "LD_LIBRARY_PATH=PREFIX/lib ./bare"
finish install_rpath
