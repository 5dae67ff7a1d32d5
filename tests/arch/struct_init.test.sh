#!/bin/sh
# No public struct is initialised by position (tests/arch/struct_init.py), and
# the checker catches what it exists for: a copy of the tree with a positional
# initialiser of a public struct (a declaration, an array element, a compound
# literal) must fail, naming the file and the type; the same initialisers with
# named members, {0} or in a comment must pass.
set -u
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
CHECK="$SRC/tests/arch/struct_init.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

if python3 "$CHECK" "$SRC"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: the tree has positional initialisers of public structs"; fi

# One copy holds every planted initialiser (one run of the checker), another every one that must
# pass: the check reads the whole tree, so runs are what costs.
rm -rf "$TMP/t" && mkdir -p "$TMP/t" && cp -R "$SRC/src" "$SRC/include" "$TMP/t/"
cp -R "$TMP/t" "$TMP/k"
plant() { printf '%s\n' "$3" >> "$TMP/t/$1"; echo "$1 $2" >> "$TMP/want"; }   # FILE TYPE LINE
: > "$TMP/want"
plant src/recording/timeline.c socmon_kv 'static const socmon_kv planted = {"a", "b"};'
plant src/targets/esp.c socmon_sampler_opts 'static socmon_sampler_opts planted = {1000, 0, 0};'
plant src/drivers/esp/esp_driver.c socmon_counter 'static const socmon_counter planted[] = {{.name = "a"}, {"b", "c"}};'
plant src/models/esp/esp_soc.c socmon_kv 'static socmon_kv planted(void) { return (socmon_kv){"a", "b"}; }'
plant include/socmon/bus.h socmon_bus_ops 'static const struct socmon_bus_ops planted = {0, 0};'
if out=$(python3 "$CHECK" "$TMP/t" 2>&1); then
    fail=$((fail + 1)); echo "FAIL: planted positional initialisers were not caught"
fi
while read -r f t; do
    if printf '%s' "$out" | grep -q "^$f:[0-9]*: $t initialised by position"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: planted $t in $f: not named"; fi
done < "$TMP/want"
if [ "$(printf '%s\n' "$out" | grep -c 'initialised by position')" -ne 5 ]; then
    fail=$((fail + 1)); echo "FAIL: expected exactly the 5 planted initialisers"; echo "$out"; fi

printf '%s\n' 'static const socmon_kv planted[] = {{.key = "a", .value = "b"}, {0}};' \
    'static socmon_sampler_opts planted2 = {0};' \
    '/* socmon_kv old = {"a", "b"}; was how this was written */' >> "$TMP/k/src/recording/timeline.c"
if out=$(python3 "$CHECK" "$TMP/k" 2>&1); then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: named members, {0} or a comment were reported"; echo "$out"; fi

echo "struct init: $pass passed, $fail failed"
[ "$fail" = 0 ]
