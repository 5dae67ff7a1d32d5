#!/bin/sh
# libsocmon.a has no internal global with the public socmon_ prefix and none without a prefix
# (tests/arch/internal_names.py), and the checker catches what it exists for: a static library
# with hidden socmon_ functions must fail, naming them, and so must one with bare ones (ibex_*);
# the same functions named smn_ must pass.
set -u
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
BUILD=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}
CHECK="$SRC/tests/arch/internal_names.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

if python3 "$CHECK" "$BUILD/libsocmon.a" "$BUILD/libsocmon.so"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: libsocmon.a leaks internal names with the public prefix"; fi

planted() { # PREFIX: a library of 11 hidden PREFIXplanted_N functions; prints its path
    : > "$TMP/p.c"
    for i in 0 1 2 3 4 5 6 7 8 9 10; do
        printf '__attribute__((visibility("hidden"))) int %splanted_%s(void) { return %s; }\n' \
            "$1" "$i" "$i" >> "$TMP/p.c"
    done
    printf 'int socmon_planted_public(void) { return 0; }\n' >> "$TMP/p.c"
    ${CC:-cc} -fPIC -c -o "$TMP/p.o" "$TMP/p.c" && rm -f "$TMP/p.a" && ar rc "$TMP/p.a" "$TMP/p.o" &&
        ${CC:-cc} -shared -o "$TMP/p.so" "$TMP/p.o"
}
if ! planted socmon_; then fail=$((fail + 1)); echo "FAIL: cannot build the planted library"; fi
if out=$(python3 "$CHECK" "$TMP/p.a" "$TMP/p.so" 2>&1); then
    fail=$((fail + 1)); echo "FAIL: 11 internal socmon_ globals were not caught"
elif printf '%s' "$out" | grep -q 'socmon_planted_10' &&
     ! printf '%s' "$out" | grep -q 'socmon_planted_public'; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: the message does not name the internal globals (or names the exported one)"
    echo "$out"
fi
if ! planted ibex_; then fail=$((fail + 1)); echo "FAIL: cannot build the planted library"; fi
if out=$(python3 "$CHECK" "$TMP/p.a" "$TMP/p.so" 2>&1); then
    fail=$((fail + 1)); echo "FAIL: internal globals without a prefix were not caught"
elif printf '%s' "$out" | grep -q 'without a prefix: ibex_planted_3'; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: the message does not name the bare globals"; echo "$out"
fi
if ! planted smn_; then fail=$((fail + 1)); echo "FAIL: cannot build the planted library"; fi
if python3 "$CHECK" "$TMP/p.a" "$TMP/p.so" >/dev/null 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: internal globals named smn_ were reported"; fi
# a missing library is a failure, not a pass
if python3 "$CHECK" "$TMP/none.a" "$TMP/none.so" >/dev/null 2>&1; then
    fail=$((fail + 1)); echo "FAIL: the check passed without libraries"; else pass=$((pass + 1)); fi

echo "internal names: $pass passed, $fail failed"
[ "$fail" = 0 ]
