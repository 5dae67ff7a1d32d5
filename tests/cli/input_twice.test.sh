#!/bin/sh
# Issue 28: a second -i used to replace the first without a word; report reads one recording, so two
# -i are refused and the message names both files.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

"$BIN" record -q -I 200us -o "$TMP/a.rec" >/dev/null 2>&1 || bad "record a.rec"
cp "$TMP/a.rec" "$TMP/b.rec"
expect 0 "recording of 'esp'" -- "$BIN" report -i "$TMP/a.rec"
expect 2 "-i given twice ('$TMP/a.rec' and '$TMP/b.rec')" -- "$BIN" report -i "$TMP/a.rec" -i "$TMP/b.rec"
expect 2 "-i given twice" -- "$BIN" report --input "$TMP/a.rec" --input "$TMP/b.rec"
finish "input_twice"
