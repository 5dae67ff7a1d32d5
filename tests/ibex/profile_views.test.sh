#!/bin/sh
# report's views of a program's exact profile (issue 27): a recording of tests/ibex/profile's
# callgraph (recursion, mutual recursion, a tail call, a function pointer, a trap; built with -g),
# of the committed cprog.elf and of the committed tests/ibex/profile/elf/trapframes.elf (issue 39:
# trap frames, tail calls, file names); profile_check.py checks the chain of totals across --by-symbol,
# --children, --call-tree, --by-line, --folded and --annotate, and the HOT line. Then bad input:
# a stripped ELF, corrupt DWARF, an unknown function, an unknown event, a recording without a
# profile, views that do not mix.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
PY=${PYTHON:-python3}
E=$SOCMON_SRC/tests/cli/baseline/elf
TF=$SOCMON_SRC/tests/ibex/profile/elf/trapframes.elf
progs="$E/cprog.elf $TF"
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    make -s -C "$SOCMON_SRC/tests/ibex/profile" O="$TMP/b" >"$TMP/make.log" 2>&1 ||
        { cat "$TMP/make.log"; bad "building tests/ibex/profile"; finish profile_views; }
    progs="$progs $TMP/b/callgraph.elf"
    # the committed image is trapframes.c as `make image` builds it (tests/ibex/profile/README.md):
    # with the compiler it was built with, the same bytes; with another, a note (it is kept, not rebuilt)
    make -s -C "$SOCMON_SRC/tests/ibex/profile" image IO="$TMP/img" >>"$TMP/make.log" 2>&1 && ok ||
        { cat "$TMP/make.log"; bad "make image"; }
    if cmp -s "$TF" "$TMP/img/trapframes.elf"; then ok
    elif riscv64-unknown-elf-gcc --version | grep -q '12.2.0-14+deb12u1+11+b2'; then
        bad "elf/trapframes.elf is not what make image builds from trapframes.c (rebuild and commit it)"
    else
        echo "note: this riscv64-unknown-elf-gcc is not the one elf/trapframes.elf was built with: not compared"
    fi
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
# trapframes (issue 39, item 3), the committed image: each trap a frame under the function it
# interrupted, marked as one in the call tree (table, CSV, JSON) and the folded stacks; mret back
# in that function's frame; the tail call and the fall-through as calls from main; every file
# name joined with the compile directory as addr2line gives it (crt0.S's is relative)
tf=$TMP/trapframes.rec
for e in "do_ecall -> \[trap\] sm_vectors" "do_ecall -> \[trap\] sm_exception" "spin -> \[trap\] sm_vectors" \
         "spin -> \[trap\] sm_timer_irq" " 2  main -> leaf$" " 2  main -> hop$" " 1  main -> fall_a$" " 1  main -> fall_b$"; do
    expect 0 "$e" -- "$BIN" report -i "$tf" --call-tree
done
out=$("$BIN" report -i "$tf" --call-tree 2>&1)
printf '%s\n' "$out" | grep -E -- '-> (sm_vectors|sm_exception|sm_timer_irq)$' && bad "a trap shown as a call" || ok
printf '%s\n' "$out" | grep -E -- '(hop -> leaf|fall_a -> fall_b)$' && bad "a tail call or fall-through under the function it left" || ok
expect 0 "^spin,sm_timer_irq,1,1," -- "$BIN" report -i "$tf" --call-tree -x,
expect 0 "^main,leaf,0,2," -- "$BIN" report -i "$tf" --call-tree -x,
"$BIN" report -i "$tf" --folded >"$TMP/tf.folded" 2>/dev/null && ok || bad "trapframes --folded"
for l in "_start;main;spin;\[trap\] sm_timer_irq [0-9]" "_start;main;spin;\[trap\] sm_vectors [0-9]" \
         "_start;main;do_ecall;\[trap\] sm_exception [0-9]" "_start;main;leaf [0-9]" "_start;main;fall_b [0-9]"; do
    grep -q "^$l" "$TMP/tf.folded" && ok || { bad "trapframes --folded lacks '$l'"; cat "$TMP/tf.folded"; }
done
grep -E ';(sm_vectors|sm_exception|sm_timer_irq)( |;)' "$TMP/tf.folded" && bad "a trap's frame unmarked in --folded" || ok
"$PY" - "$TMP/v/trapframes.tree.json" "$TMP/v/trapframes.children.json" "$TMP/v/trapframes.lines.json" <<'PYEOF' && ok || bad "trapframes: the views as data"
import json, sys
tree, children, lines = (json.load(open(f)) for f in sys.argv[1:4])
traps = sorted((r['caller'], r['callee']) for r in tree['edges'] if r['trap'])
assert traps == [('do_ecall', 'sm_exception'), ('do_ecall', 'sm_vectors'), ('spin', 'sm_timer_irq'),
                 ('spin', 'sm_vectors')], traps
assert all(r['calls'] == 1 for r in tree['edges'] if r['trap']), tree['edges']
fn = {r['function']: r for r in children['functions']}
# mret went back into the interrupted frames: each entered once, not again after its trap
assert fn['spin']['calls'] == 1 and fn['do_ecall']['calls'] == 1, (fn['spin'], fn['do_ecall'])
assert fn['leaf']['calls'] == 2 and fn['fall_b']['calls'] == 1, (fn['leaf'], fn['fall_b'])
files = {r['file'] for r in lines['lines']}
assert '/socmon/tests/ibex/profile/../programs/crt0.S' in files, files
assert '/socmon/tests/ibex/profile/trapframes.c' in files, files
assert all(f.startswith('/') or f == '??' for f in files), files
PYEOF
expect 0 "/socmon/tests/ibex/profile/../programs/crt0.S:[0-9]" -- "$BIN" report -i "$tf" --by-line
expect 0 "trapframes.c:[0-9]" -- "$BIN" report -i "$tf" --annotate spin
if command -v riscv64-unknown-elf-addr2line >/dev/null 2>&1; then
    # the same names as binutils: every instruction of crt0's sm_puts and of spin against addr2line
    for f in sm_puts spin; do
        "$BIN" report -i "$tf" --annotate $f -x, >"$TMP/tf.$f.csv" 2>/dev/null && ok || bad "--annotate $f -x,"
        "$PY" - "$TMP/tf.$f.csv" "$TF" <<'PYEOF' && ok || bad "--annotate $f: file names other than addr2line's"
import csv, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ours = [f"{r['file']}:{r['line']}" for r in rows]
a2l = subprocess.run(['riscv64-unknown-elf-addr2line', '-e', sys.argv[2]] + [r['pc'] for r in rows],
                     capture_output=True, text=True, check=True).stdout.split()
assert rows and ours == a2l, list(zip(ours, a2l))
PYEOF
    done
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
