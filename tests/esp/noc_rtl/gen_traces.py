#!/usr/bin/env python3
"""Synthetic packet traces for the ESP NoC RTL oracle fixture (tests/esp/noc_rtl/README.md).

  gen_traces.py write DIR   writes every synthetic trace into DIR (traces/syn_*.txt)
  gen_traces.py check DIR   exits 1 if a trace in DIR differs from what `write` would write

Each trace is a mesh, a pattern and a load. Every tile starts a packet in a cycle with
probability RATE / mean length (RATE in flits/cycle/tile) during the first CYCLES cycles;
lengths are uniform in 1..5 flits. The generator uses only random.Random.random(), whose
sequence for a given seed is stable across Python versions, so the files are reproducible.
"""
import os
import random
import sys

# Saturation loads (flits/cycle/tile) of ESP's router measured on the RTL
# (/work/shared/specs/esp_noc_rtl.md: mean source wait <= 10 cycles); tornado is not in that table:
# its values were measured the same way on this oracle (README.md).
SAT = {
    "2x3": {"uniform": 0.64, "transpose": 0.46, "bitcomp": 0.90, "hotspot": 0.62,
            "neighbor": 0.69, "tornado": 0.88},
    "4x4": {"uniform": 0.48, "transpose": 0.32, "bitcomp": 0.41, "hotspot": 0.27,
            "neighbor": 0.71, "tornado": 0.88},
    "8x8": {"uniform": 0.29, "transpose": 0.15, "bitcomp": 0.19, "hotspot": 0.06,
            "neighbor": 0.72, "tornado": 0.26},
}
LOADS = [("below", 0.5), ("near", 0.9), ("above", 1.3)]
CYCLES = {"2x3": 1000, "4x4": 600, "8x8": 400}
LENS = (1, 5)
PATTERNS = ["uniform", "transpose", "bitcomp", "hotspot", "neighbor", "tornado"]
HOTSPOT_SHARE = 0.25


def dest(pattern, src, rows, cols, rng):
    """Destination of a packet from src, or None when the pattern maps src to itself."""
    n = rows * cols
    y, x = divmod(src, cols)
    if pattern == "uniform":
        d = int(rng.random() * (n - 1))
        return d + (d >= src)
    if pattern == "transpose":          # (y, x) -> (x, y), folded into a non-square mesh
        d = (x % rows) * cols + (y % cols)
    elif pattern == "bitcomp":          # ~src for a power-of-two tile count
        d = n - 1 - src
    elif pattern == "hotspot":
        hot = (rows // 2) * cols + cols // 2
        if src != hot and rng.random() < HOTSPOT_SHARE:
            return hot
        return dest("uniform", src, rows, cols, rng)
    elif pattern == "neighbor":         # one hop east, wrapping
        d = y * cols + (x + 1) % cols
    elif pattern == "tornado":          # half-way round each dimension, less one
        d = ((y + (rows + 1) // 2 - 1) % rows) * cols + (x + (cols + 1) // 2 - 1) % cols
    else:
        raise ValueError(pattern)
    return None if d == src else d


def trace(mesh, pattern, load_name, factor, seed):
    rows, cols = map(int, mesh.split("x"))
    rate = round(SAT[mesh][pattern] * factor, 4)
    mean = (LENS[0] + LENS[1]) / 2
    rng = random.Random(seed)
    lines = ["# synthetic: %s on %s, %s saturation: %.4f flits/cycle/tile, %d..%d flits, "
             "%d cycles, seed %d (gen_traces.py)" % (pattern, mesh, load_name, rate, LENS[0],
                                                      LENS[1], CYCLES[mesh], seed),
             "mesh %d %d" % (rows, cols)]
    for c in range(CYCLES[mesh]):
        for s in range(rows * cols):
            if rng.random() >= rate / mean:
                continue
            d = dest(pattern, s, rows, cols, rng)
            flits = LENS[0] + int(rng.random() * (LENS[1] - LENS[0] + 1))
            if d is not None:
                lines.append("%d %d %d %d" % (c, s, d, flits))
    return "\n".join(lines) + "\n"


def all_traces():
    seed = 1000
    for mesh in ("2x3", "4x4", "8x8"):
        for pattern in PATTERNS:
            for load_name, factor in LOADS:
                seed += 1
                yield "syn_%s_%s_%s.txt" % (mesh, pattern, load_name), \
                    trace(mesh, pattern, load_name, factor, seed)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "check"):
        sys.exit(__doc__)
    bad = 0
    for name, text in all_traces():
        path = os.path.join(sys.argv[2], name)
        if sys.argv[1] == "write":
            with open(path, "w") as f:
                f.write(text)
        else:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print("gen_traces: %s differs from what gen_traces.py writes" % path)
                bad = 1
    sys.exit(bad)


if __name__ == "__main__":
    main()
