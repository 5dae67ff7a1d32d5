#!/bin/sh
# Issue 37, item 7: docs/check.md's Ibex gate, as the doc writes it, passes a layout-only change
# (a function moved by two bytes: the same instructions, other fetch cycles) in both directions and
# still fails a real one (a function that runs more); an exact `fn.*.cycles +0` gate fails the
# layout-only change, and check's output then explains it (instret unchanged: code layout); built
# with -falign-functions=4 (the doc's fix) the same change moves no cycle.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
P=$SOCMON_SRC/tests/ibex/programs
if ! riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    echo "SKIP: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh installs gcc-riscv64-unknown-elf)"
    exit 0
fi
cc() {
    out=$1
    shift
    riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -O2 -nostdlib -ffreestanding \
        -static -fno-builtin -Wall -Werror -I"$P" -T "$P/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
        "$@" -o "$TMP/$out.elf" "$P/crt0.S" "$SOCMON_SRC/tests/compare/layout_fw.c" && ok || bad "building $out"
}
cc base
cc pad -DPAD
cc slow -DEXTRA=8
# the doc's fix: functions aligned to 4 bytes cannot be moved by two, and the cycles are exact again
cc abase -falign-functions=4
cc apad -falign-functions=4 -DPAD
for v in base pad slow abase apad; do
    "$BIN" record -q -t ibex -o "$TMP/$v.rec" -- "$TMP/$v.elf" >/dev/null 2>&1 || bad "record $v"
done
# the layout moved: crc32 starts two bytes later, and its cycles changed
a=$(riscv64-unknown-elf-nm "$TMP/base.elf" | awk '$3 == "crc32" {print $1}')
b=$(riscv64-unknown-elf-nm "$TMP/pad.elf" | awk '$3 == "crc32" {print $1}')
[ $((0x$b - 0x$a)) = 2 ] && ok || bad "crc32 at $a and $b: not moved by 2 bytes"

# the gate of docs/check.md, taken from the doc: the block after "`perf.rules`:"
awk '/^`perf.rules`:/ {f = 1; next} f && /^```$/ {if (n++) exit; next} f && n == 1' "$SOCMON_SRC/docs/check.md" \
    >"$TMP/perf.rules"
grep -q '^fn\.\*\.instret *+0$' "$TMP/perf.rules" && grep -q '^fn\.\*\.cycles *+[0-9]*%' "$TMP/perf.rules" && ok ||
    { bad "docs/check.md's gate: instret exact, cycles with a tolerance"; cat "$TMP/perf.rules"; }
expect 0 "0 of .* rules failed" -- "$BIN" check "$TMP/base.rec" "$TMP/pad.rec" --rules "$TMP/perf.rules"
expect 0 "0 of .* rules failed" -- "$BIN" check "$TMP/pad.rec" "$TMP/base.rec" --rules "$TMP/perf.rules"
expect 1 "FAIL  fn\.\*\.instret +0" -- "$BIN" check "$TMP/base.rec" "$TMP/slow.rec" --rules "$TMP/perf.rules"
expect 1 "fn\.sum\.instret .*beyond the limit +0" -- "$BIN" check "$TMP/base.rec" "$TMP/slow.rec" --rules "$TMP/perf.rules"

# the exact gate fails the layout-only change, and says why
printf 'fn.*.cycles +0\ncycles +0\n' >"$TMP/exact.rules"
"$BIN" check "$TMP/pad.rec" "$TMP/base.rec" --rules "$TMP/exact.rules" >"$TMP/exact.txt" 2>&1
[ $? = 1 ] && ok || { bad "fn.*.cycles +0 passed a layout change"; cat "$TMP/exact.txt"; }
grep -q "hint: fn\.[a-z_0-9]*\.instret.* did not change: the same instructions took more cycles" "$TMP/exact.txt" &&
    grep -q "hint: instret did not change" "$TMP/exact.txt" && grep -q 'Cycles and code layout' "$TMP/exact.txt" && ok ||
    { bad "no layout hint under the failing cycles rules"; cat "$TMP/exact.txt"; }
# a real change is no layout: its cycles rose with its instructions, so no hint
printf 'fn.sum.cycles +0\n' >"$TMP/sum.rules"
"$BIN" check "$TMP/base.rec" "$TMP/slow.rec" --rules "$TMP/sum.rules" >"$TMP/sum.txt" 2>&1
[ $? = 1 ] && ! grep -q "hint:" "$TMP/sum.txt" && ok || { bad "a real change got the layout hint"; cat "$TMP/sum.txt"; }
printf 'fn.*.cycles +0\n' >"$TMP/exact_fn.rules"
expect 0 "0 of 1 rule failed" -- "$BIN" check "$TMP/abase.rec" "$TMP/apad.rec" --rules "$TMP/exact_fn.rules"
finish check_layout
