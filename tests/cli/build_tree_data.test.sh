#!/bin/sh
# A socmon run from its build tree finds the source tree's socs/ and metrics/ without
# SOCMON_DATADIR (the file socmon-source-tree beside it: include/socmon/data.h), from any
# directory; a copy of the program without that file, or with one naming a tree that is gone,
# fails with a message that says where it looked.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

BUILD=$(dirname "$BIN")
[ -f "$BUILD/socmon-source-tree" ] && ok || bad "no socmon-source-tree in $BUILD"
cd "$TMP"

# soc=NAME as README and docs write it: the 4x4 SoC has 16 tiles, the built-in one 6
out=$(env -u SOCMON_DATADIR "$BIN" stat -t esp:soc=esp_4x4 -w multifft -x, 2>&1) && ok ||
    bad "stat -t esp:soc=esp_4x4 from the build tree without SOCMON_DATADIR: $out"
printf '%s\n' "$out" | grep -q ",tile15\." && ok || bad "esp_4x4 ran without tile15: $(printf '%s' "$out" | head -5)"

# SOCMON_DATADIR still comes first
mkdir -p "$TMP/data/socs" "$TMP/data/metrics"
expect 1 "in $TMP/data/socs" -- env SOCMON_DATADIR="$TMP/data" "$BIN" stat -t esp:soc=esp_4x4 -w multifft

# A build tree whose source tree moved away: said, not guessed
mkdir "$TMP/b"
cp "$BIN" "$TMP/b/socmon"
echo "$TMP/gone" > "$TMP/b/socmon-source-tree"
expect 1 "socmon-source-tree names no source tree" -- env -u SOCMON_DATADIR "$TMP/b/socmon" stat -t esp:soc=esp_4x4 -w multifft

# The same program without the file: no path into the source tree is compiled in
mkdir "$TMP/c"
cp "$BIN" "$TMP/c/socmon"
out=$(env -u SOCMON_DATADIR "$TMP/c/socmon" stat -t esp:soc=esp_4x4 -w multifft 2>&1) &&
    bad "a copy without socmon-source-tree found esp_4x4" || ok
case "$out" in *"$SOCMON_SRC/socs"*) bad "a copy without socmon-source-tree looked in the source tree: $out" ;; *) ok ;; esac

finish build_tree_data
