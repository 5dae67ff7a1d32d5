#!/usr/bin/env python3
"""Per-function self counts of Ibex's 12 counters from the RTL's per-cycle dump (socmon_probe.sv).

  functions.py PROBE ELF            prints the table (the .functions fixture format) to stdout
  functions.py --pcs PROBE ELF      per PC instead of per function (to find where a count differs)

PROBE is the file simple_system wrote with +socmon_probe=FILE (`ibex_rtl.py run` makes it and calls
this); ELF is the program it ran. The attribution is one convention, in RTL terms, the one socmon's
exact profile follows (src/models/ibex/ibex_exec.c, docs/profile.md); each counted increment and
each CSR write of a counter (new - old) goes to one instruction:
  - minstret and NumInstrRetC (counters 2 and 10): the instruction they count (perf_instr_ret_wb:
    the one completing in WB, or in ID/EX without a writeback stage);
  - every other counter, in a cycle in which ID holds a valid instruction: that instruction;
  - in a cycle in which ID is empty: the last instruction that was in ID (a jump's, a taken
    branch's, an mret's refetch, a trap entry after the trapping instruction, a CSR flush, WFI's
    sleep states), except
  - from the cycle in which the controller decides to take an interrupt with ID empty (ctrl_fsm_ns
    = IRQ_TAKEN), through IRQ_TAKEN, to the cycle the handler's first instruction enters ID: that
    first instruction (the vector's), and the cycles before the first instruction enters ID after
    reset (RESET, BOOT_SET, FIRST_FETCH): the first instruction;
  - what the testbench's end-of-run read of minstret and NumInstrRetC adds to the raw counters (with
    the writeback stage, when the run ends with the counters running and the instruction in WB not
    counted yet, the speculative +1 of ibex_cs_registers' instr_ret_spec_i): the instruction in WB.
A function's self count is the sum over the instructions whose PC is in it. Symbols are socmon's
(src/models/ibex/ibex_syms.c): STT_FUNC and STT_NOTYPE symbols of executable sections, except
mapping symbols ($x) and .L labels; of several at one address a sized one; a symbol without a size,
or one larger than the gap, ends where the next starts (the end of RAM for the last).

Output: a comment line naming the columns, then one line per function with any nonzero count,
sorted by name: the function, then mcycle minstret mhpmcounter3 .. mhpmcounter12 (signed: a counter
write counts new - old, so the writer can be negative). PCs outside every symbol are `[unknown]`.
"""
import struct
import sys

RAM_BASE, RAM_SIZE = 0x100000, 0x100000
IRQ_TAKEN = 7
# counter index -> column; counter 1 does not exist
COUNTERS = [0, 2] + list(range(3, 13))
NAMES = ["mcycle", "minstret"] + ["mhpmcounter%d" % i for i in range(3, 13)]
RETIRE = (2, 10)
WIDTH = 40              # MHPMCounterWidth of both configurations (ibex_rtl.py COMMON)


def elf_symbols(path):
    """socmon's function symbols of a little-endian ELF32: [(addr, end, name)], sorted."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        sys.exit("functions.py: %s: not a little-endian ELF32 file" % path)
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2e)
    secs = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    syms = []
    for s in secs:
        if s[1] != 2:           # SHT_SYMTAB
            continue
        off, size, link, entsize = s[4], s[5], s[6], s[9]
        stroff = secs[link][4]
        for k in range(size // entsize):
            name_off, value, ssize, info, _, shndx = struct.unpack_from("<IIIBBH", data, off + k * entsize)
            end = data.index(b"\0", stroff + name_off)
            name = data[stroff + name_off:end].decode("utf-8", "replace")
            if not name or name.startswith("$") or name.startswith(".L"):
                continue
            if info & 15 not in (0, 2):               # STT_NOTYPE, STT_FUNC
                continue
            if shndx == 0 or shndx >= 0xff00 or not secs[shndx][2] & 4:   # SHF_EXECINSTR
                continue
            syms.append((value, value + ssize, name))
    # sorted by address, a sized symbol first; one per address
    syms.sort(key=lambda s: (s[0], 0 if s[1] > s[0] else 1))
    out = []
    for s in syms:
        if out and out[-1][0] == s[0]:
            continue
        out.append(list(s))
    for i, s in enumerate(out):
        nxt = out[i + 1][0] if i + 1 < len(out) else RAM_BASE + RAM_SIZE
        if s[1] <= s[0] or s[1] > nxt:
            s[1] = nxt
    return [tuple(s) for s in out]


def attribute(probe_path):
    """The probe's dump -> {pc: [12 counts]} under the convention above."""
    per_pc = {}
    last_id = None          # the last instruction in ID
    pending = []            # counts waiting for the next instruction to enter ID (boot, interrupt entry)
    entry = True            # boot: until the first instruction enters ID
    write_old, write_owner = {}, {}
    owner = None

    def add(pc, col, v):
        if pc is None:
            pending.append((col, v))
            return
        per_pc.setdefault(pc, [0] * len(COUNTERS))[col] += v

    with open(probe_path) as f:
        for line in f:
            p = line.split()
            if p[0] == "w":
                write_old[int(p[1])] = int(p[2], 16)
                write_owner[int(p[1])] = owner     # the CSR instruction, in ID at the write's edge
                continue
            if p[0] == "end":   # the end-of-run read's speculative part: to the instruction in WB
                for i, d in ((2, int(p[2], 16)), (10, int(p[3], 16))):
                    if d:
                        add(int(p[1], 16), COUNTERS.index(i), d)
                continue
            if p[0] == "v":
                i = int(p[1])
                if i in COUNTERS:
                    add(write_owner.pop(i), COUNTERS.index(i), int(p[2], 16) - write_old.pop(i))
                continue
            fsm, fsm_ns, idv = int(p[1]), int(p[2]), int(p[3])
            pc_id, pc_wb, inc = int(p[4], 16), int(p[6], 16), int(p[7], 16)   # p[5]: the events
            if idv == 2 and entry:
                entry = False
                for col, v in pending:
                    add(pc_id, col, v)
                pending.clear()
            if idv:
                last_id = pc_id
            elif fsm == IRQ_TAKEN or fsm_ns == IRQ_TAKEN:
                entry = True
            owner = None if entry else last_id
            for col, i in enumerate(COUNTERS):
                if inc >> i & 1:
                    add(pc_wb if i in RETIRE else owner, col, 1)
    if pending:
        per_pc.setdefault(None, [0] * len(COUNTERS))
        for col, v in pending:
            per_pc[None][col] += v
    return per_pc


def by_function(per_pc, syms):
    import bisect
    starts = [s[0] for s in syms]
    out = {}
    for pc, v in per_pc.items():
        name = "[unknown]"
        if pc is not None:
            k = bisect.bisect_right(starts, pc)
            if k and pc < syms[k - 1][1]:
                name = syms[k - 1][2]
        acc = out.setdefault(name, [0] * len(COUNTERS))
        for i, x in enumerate(v):
            acc[i] += x
    return out


def wrap(rows, width):
    """Counts modulo the counters' widths (64 bits for mcycle and minstret, `width` for the others), as
    signed values of that width: a counter write's change is new - old modulo the counter."""
    for v in rows.values():
        for col, i in enumerate(COUNTERS):
            w = 64 if i < 3 else width
            x = v[col] & ((1 << w) - 1)
            v[col] = x - (1 << w) if x >> (w - 1) else x
    return rows


def table(rows):
    lines = ["# function " + " ".join(NAMES)]
    for name in sorted(rows):
        if any(rows[name]):
            lines.append(name + " " + " ".join(str(x) for x in rows[name]))
    return "".join(l + "\n" for l in lines)


def main(argv):
    pcs = "--pcs" in argv
    args = [a for a in argv if a != "--pcs"]
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    per_pc = attribute(args[0])
    if pcs:
        for pc in sorted(per_pc, key=lambda x: -1 if x is None else x):
            print(("%08x" % pc if pc is not None else "?") + " " + " ".join(str(x) for x in per_pc[pc]))
        return 0
    sys.stdout.write(table(wrap(by_function(per_pc, elf_symbols(args[1])), WIDTH)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
