#!/bin/sh
# tools/esp_noc_rtl/esp_noc_rtl.py, the script that regenerates the RTL oracle fixture
# (tests/esp/noc_rtl/README.md), as far as it runs without ESP and Verilator: --help, and the bad
# arguments it refuses with exit 2 and a message naming the bad value, before building anything.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
TOOL="$SOCMON_SRC/tools/esp_noc_rtl/esp_noc_rtl.py"

expect 0 "usage: esp_noc_rtl.py" -- python3 "$TOOL" --help
expect 0 "regenerates the fixture" -- python3 "$TOOL" --help
expect 2 "usage:" -- python3 "$TOOL"
expect 2 "ESP checkout '$TMP/no-esp' does not exist" -- python3 "$TOOL" "$TMP/no-esp" --build "$TMP/b"
mkdir "$TMP/not-esp"
expect 2 "'$TMP/not-esp' is neither an ESP work tree" -- python3 "$TOOL" "$TMP/not-esp" --build "$TMP/b"
expect 2 "no trace 'no_such_trace'" -- python3 "$TOOL" "$TMP/not-esp" no_such_trace --build "$TMP/b"
expect 2 "'0' is not a positive integer" -- python3 "$TOOL" "$TMP/not-esp" --jobs 0
expect 2 "'x' is not a positive integer" -- python3 "$TOOL" "$TMP/not-esp" --jobs x
expect 2 "is inside the repository" -- python3 "$TOOL" "$TMP/not-esp" --build "$SOCMON_SRC/build-rtl"
expect 2 "--speed takes no TRACE" -- python3 "$TOOL" "$TMP/not-esp" --speed dir_2x3_hol --build "$TMP/b"
# A git repository without ESP's router files: named, exit 2.
if command -v git >/dev/null 2>&1; then
    git init -q --bare "$TMP/empty.git" 2>/dev/null &&
        expect 2 "revision 'HEAD' is not in '$TMP/empty.git'" -- python3 "$TOOL" "$TMP/empty.git" --build "$TMP/b"
fi
# Nothing was built or written on the way.
[ ! -e "$TMP/b" ] && ok || bad "a refused run created its build directory"
[ ! -e "$SOCMON_SRC/build-rtl" ] && ok || bad "a refused run created build-rtl in the source tree"
finish noc_rtl_tool
