#!/bin/sh
# report's views of a program's exact profile (issue 27): a recording of tests/ibex/profile's
# callgraph (recursion, mutual recursion, a tail call, a function pointer, a trap; built with -g)
# and of the committed cprog.elf; profile_check.py checks the chain of totals across --by-symbol,
# --children, --call-tree, --by-line, --folded and --annotate, and the HOT line. Then bad input:
# a stripped ELF, corrupt DWARF, an unknown function, an unknown event, a recording without a
# profile, views that do not mix.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
PY=${PYTHON:-python3}
E=$SOCMON_SRC/tests/cli/baseline/elf
progs="$E/cprog.elf"
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    make -s -C "$SOCMON_SRC/tests/ibex/profile" O="$TMP/b" >"$TMP/make.log" 2>&1 ||
        { cat "$TMP/make.log"; bad "building tests/ibex/profile"; finish profile_views; }
    progs="$progs $TMP/b/callgraph.elf"
else
    echo "note: riscv64-unknown-elf-gcc not installed: callgraph (the -g program) is not checked"
fi
mkdir -p "$TMP/v"
grep -n '/\* HOT \*/' "$SOCMON_SRC/tests/ibex/profile/callgraph.c" | cut -d: -f1 >"$TMP/v/hot_line"
for elf in $progs; do
    n=$(basename "$elf" .elf)
    expect 0 "wrote" -- "$BIN" record -q -t ibex -o "$TMP/$n.rec" -- "$elf"
    "$BIN" report -i "$TMP/$n.rec" --by-symbol --json >"$TMP/v/$n.bysym.json" && ok || bad "$n: --by-symbol"
    "$BIN" report -i "$TMP/$n.rec" --children --json >"$TMP/v/$n.children.json" && ok || bad "$n: --children"
    "$BIN" report -i "$TMP/$n.rec" --call-tree --json >"$TMP/v/$n.tree.json" && ok || bad "$n: --call-tree"
    "$BIN" report -i "$TMP/$n.rec" --by-line --json >"$TMP/v/$n.lines.json" && ok || bad "$n: --by-line"
    "$BIN" report -i "$TMP/$n.rec" --folded >"$TMP/v/$n.folded.cycles" && ok || bad "$n: --folded"
    "$BIN" report -i "$TMP/$n.rec" --folded --event instret >"$TMP/v/$n.folded.instret" && ok || bad "$n: --folded --event"
    # the human and CSV forms of every view
    for view in --children --call-tree --by-line; do
        expect 0 "" -- "$BIN" report -i "$TMP/$n.rec" $view
        expect 0 "cycles" -- "$BIN" report -i "$TMP/$n.rec" $view -x,
    done
done
if [ -f "$TMP/b/callgraph.elf" ]; then
    "$BIN" report -i "$TMP/callgraph.rec" --annotate hot --json >"$TMP/v/callgraph.annotate.json" && ok ||
        bad "callgraph: --annotate hot"
    expect 0 "Annotated: hot" -- "$BIN" report -i "$TMP/callgraph.rec" --annotate hot
    expect 0 "callgraph.c:60" -- "$BIN" report -i "$TMP/callgraph.rec" --by-line
    # the tree's shape in the human view: fib calls itself, the handler under the trapping function
    expect 0 "fib -> fib" -- "$BIN" report -i "$TMP/callgraph.rec" --call-tree
    expect 0 "raise_trap -> \[trap\] sm_exception" -- "$BIN" report -i "$TMP/callgraph.rec" --call-tree
    expect 0 "main -> tail_callee" -- "$BIN" report -i "$TMP/callgraph.rec" --call-tree
    expect 0 "apply -> square" -- "$BIN" report -i "$TMP/callgraph.rec" --call-tree

    # bad input: a stripped ELF gives a note and rows per instruction, never an error
    riscv64-unknown-elf-strip -o "$TMP/stripped.elf" "$TMP/b/callgraph.elf"
    expect 0 "no DWARF line table" -- "$BIN" report -i "$TMP/callgraph.rec" --by-line --elf "$TMP/stripped.elf"
    expect 0 "(no line)" -- "$BIN" report -i "$TMP/callgraph.rec" --by-line --elf "$TMP/stripped.elf"
    expect 0 "no DWARF line table" -- "$BIN" report -i "$TMP/callgraph.rec" --annotate hot --elf "$TMP/stripped.elf"
    # corrupt DWARF: .debug_line and .debug_info overwritten with garbage
    "$PY" - "$TMP/b/callgraph.elf" "$TMP/corrupt.elf" <<'PYEOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<I', b, 0x20)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x2e)
def sh(i):
    return struct.unpack_from('<IIIIIIIIII', b, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
for i in range(shnum):
    name, typ, flags, addr, off, size = sh(i)[:6]
    n = bytes(b[stroff + name:stroff + name + 32]).split(b'\0')[0]
    if n in (b'.debug_line', b'.debug_info', b'.debug_abbrev'):
        for j in range(size):
            b[off + j] = (j * 37 + 11) & 0xff
open(sys.argv[2], 'wb').write(b)
PYEOF
    for view in --by-line "--annotate hot"; do
        out=$("$BIN" report -i "$TMP/callgraph.rec" $view --elf "$TMP/corrupt.elf" 2>&1); rc=$?
        [ $rc -eq 0 ] && ok || { bad "corrupt DWARF: report $view exited $rc"; echo "$out" | head; }
    done
    expect 0 "cannot open the program file" -- "$BIN" report -i "$TMP/callgraph.rec" --by-line --elf "$TMP/none.elf"
    expect 0 "not an ELF file" -- "$BIN" report -i "$TMP/callgraph.rec" --by-line --elf "$TMP/callgraph.rec"
    # an unknown function: the nearest names
    expect 1 "nearest: hot" -- "$BIN" report -i "$TMP/callgraph.rec" --annotate hott
    expect 1 "no function 'zzzzzzzzzzzzzz'" -- "$BIN" report -i "$TMP/callgraph.rec" --annotate zzzzzzzzzzzzzz
fi
# counters the program stopped (item 4): a program that never inhibits gets no note; one that stops
# every counter for a stretch, without writing one, gets it, and mcycle + the inhibited cycles is
# the run's cycles exactly; cprog (crt0 brackets its window) gets one line for all twelve
if [ -f "$TMP/b/callgraph.elf" ]; then
    for p in noinhibit inhibit_half; do
        riscv64-unknown-elf-gcc -march=rv32imc_zicsr -mabi=ilp32 -nostdlib -static -Wl,-Ttext=0x100080 \
            -Wl,--no-warn-rwx-segments -o "$TMP/$p.elf" "$SOCMON_SRC/tests/ibex/profile/$p.S" && ok || bad "building $p.S"
    done
    out=$("$BIN" stat -t ibex -- "$TMP/noinhibit.elf" 2>&1)
    printf '%s' "$out" | grep -q "note:" && bad "noinhibit: a note: $out" || ok
    "$BIN" stat -t ibex --json -- "$TMP/noinhibit.elf" 2>"$TMP/ni.json" >/dev/null && ok || bad "noinhibit --json"
    "$BIN" record -q -t ibex -o "$TMP/ni.rec" -- "$TMP/noinhibit.elf" >/dev/null 2>&1 && ok || bad "noinhibit record"
    out=$("$BIN" report -i "$TMP/ni.rec" 2>&1; "$BIN" report -i "$TMP/ni.rec" --summary 2>&1)
    printf '%s' "$out" | grep -q "note:" && bad "noinhibit report: a note" || ok
    expect 0 "note: cycles (mcycle), instret (minstret) and 10 more counted 25.5 % of the run's cycles: the program inhibited them for 1,202 cycles" \
        -- "$BIN" stat -t ibex -- "$TMP/inhibit_half.elf"
    "$BIN" stat -t ibex --json -- "$TMP/inhibit_half.elf" 2>"$TMP/ih.json" >/dev/null && ok || bad "inhibit_half --json"
    "$BIN" record -q -t ibex -o "$TMP/ih.rec" -- "$TMP/inhibit_half.elf" >/dev/null 2>&1 && ok || bad "inhibit_half record"
    expect 0 "ih.rec: note: cycles (mcycle), instret (minstret) and 10 more counted 25.5 %" -- "$BIN" report -i "$TMP/ih.rec" --by-symbol
    expect 0 "  note: cycles (mcycle), instret (minstret) and 10 more" -- "$BIN" report -i "$TMP/ih.rec" --summary
    "$BIN" report -i "$TMP/ih.rec" --summary --json >"$TMP/ihs.json" && ok || bad "inhibit_half --summary --json"
    "$PY" - "$TMP/ni.json" "$TMP/ih.json" "$TMP/ihs.json" <<'PYEOF' && ok || bad "the inhibited counters as data"
import json, sys
ni, ih, ihs = (json.load(open(f)) for f in sys.argv[1:4])
assert 'inhibited' not in ni, ni.get('inhibited')
c = {x['name']: x['value'] for x in ih['counters']}
assert len(ih['inhibited']) == 12, ih['inhibited']
for x in ih['inhibited']:
    assert x['run_cycles'] == c['cycles'] + x['inhibited_cycles'], (x, c['cycles'])
    assert abs(x['counted_share'] - c['cycles'] / x['run_cycles']) < 1e-12, x
assert ihs['inhibited'] == ih['inhibited'], (ihs['inhibited'], ih['inhibited'])
PYEOF
fi
expect 0 "note: cycles (mcycle), instret (minstret) and 10 more counted 65.8 % of the run's cycles: the program inhibited them for 3,851 cycles" \
    -- "$BIN" stat -t ibex -- "$E/cprog.elf"
expect 1 "no event 'bogus'.*cycles, instret" -- "$BIN" report -i "$TMP/cprog.rec" --folded --event bogus
expect 2 "views of their own" -- "$BIN" report -i "$TMP/cprog.rec" --children --by-line
expect 2 "cannot be combined with --summary" -- "$BIN" report -i "$TMP/cprog.rec" --children --summary
expect 2 "--event applies" -- "$BIN" report -i "$TMP/cprog.rec" --event cycles
# a recording without a profile
expect 0 "wrote" -- "$BIN" record -q -t esp -I 1ms -d 3ms -o "$TMP/esp.rec"
expect 1 "has no program profile" -- "$BIN" report -i "$TMP/esp.rec" --children

"$PY" "$SOCMON_SRC/tests/ibex/profile_check.py" "$TMP/v" && ok || bad "profile_check.py"
finish profile_views
