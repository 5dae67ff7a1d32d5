#!/bin/sh
# An install moved elsewhere finds its data next to its code (review finding
# 2): the socmon program copied into FAKE/bin finds FAKE/share/socmon/socs
# with SOCMON_DATADIR unset, whether started by a path, through PATH (argv[0]
# without '/') or by a relative path; libsocmon.so copied into FAKE/lib
# reports FAKE/share/socmon too. Neither ever falls back to the source tree.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
unset SOCMON_DATADIR
F=$TMP/fake
mkdir -p "$F/bin" "$F/lib" "$F/share/socmon/socs" "$TMP/elsewhere"
cp "$BIN" "$F/bin/socmon"
printf 'rows 1\ncols 2\ntile 0 0 cpu\ntile 0 1 mem\n' >"$F/share/socmon/socs/tiny.soc"
real=$(cd "$F/share/socmon/socs" && pwd -P)

cd "$TMP/elsewhere"
expect 0 "tile1\." -- "$F/bin/socmon" read -a -t esp:soc=tiny --zeros
expect 0 "tile1\." -- env PATH="$F/bin:$PATH" socmon read -a -t esp:soc=tiny --zeros
expect 0 "tile1\." -- ../fake/bin/socmon read -a -t esp:soc=tiny --zeros
# A name that is not there: the message names the directory next to the program.
expect 1 "no file nosuch.soc in $real" -- "$F/bin/socmon" read -t esp:soc=nosuch
# The source tree's own descriptions are not found without SOCMON_DATADIR.
out=$("$F/bin/socmon" read -t esp:soc=esp_4x4 2>&1) && bad "esp_4x4 found outside FAKE: $out" || ok
printf '%s' "$out" | grep -q "$SOCMON_SRC/socs" && bad "looked in the source tree: $out" || ok

# The shared library (not under a sanitizer: python3 would need its runtime).
lib=${SOCMON_LIBDIR:-}/libsocmon.so.0
if [ -n "${SOCMON_LIBDIR:-}" ] && [ -f "$lib" ] && ! ldd "$lib" | grep -q 'lib[a-z]*san'; then
    cp "$lib" "$F/lib/"
    got=$(python3 - "$F/lib/libsocmon.so.0" <<'PY'
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
buf = ctypes.create_string_buffer(4096)
st = lib.socmon_data_dir(b"socs", buf, ctypes.c_size_t(len(buf)))
print(st, buf.value.decode())
PY
    )
    [ "$got" = "0 $real" ] && ok || bad "libsocmon.so in FAKE/lib: socmon_data_dir gave '$got', expected '0 $real'"
fi
finish datapath
