#!/usr/bin/env python3
"""A second process standing in for a Zynq board's counters (issue 37, item 15): it writes the
files `zynq:hw=1,apm_dev=APM,mem_dev=MEM` maps, counting at plausible rates from the wall clock,
and after set times makes the three faults socmon must flag:
  backwards: cpu0.ccnt set back to 0 (software reset the cycle counter) and counting from there;
  jump:      slot0.rd_bytes jumps by 2^31;
  ones:      the whole APM window reads all-ones (its slave no longer answers).
Offsets: src/hw/zynq_apm.h (sampled metric counter k at 0x200 + 16k, k = 6 x slot + j) and
src/hw/a9_pmu.h (PMCCNTR at 0x07C of the CPU0 window at 0xF8891000).

Usage: fault_writer.py APM MEM SECONDS BACK_AT JUMP_AT ONES_AT READY
(times in seconds from its start; READY: a file it creates once the counters hold values)"""
import os, struct, sys, time

APM_WINDOW = 0x10000
CPU0 = 0xF8891000
PMCCNTR = 0x07C
SMC = lambda k: 0x100 + 16 * k + 0x100
WR_BYTES, RD_BYTES = 0, 3

apm, mem, secs, back_at, jump_at, ones_at = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:7])
ready = sys.argv[7]
fa = os.open(apm, os.O_RDWR)
fm = os.open(mem, os.O_RDWR)
put = lambda fd, off, v: os.pwrite(fd, struct.pack("<I", v & 0xFFFFFFFF), off)
t0 = time.monotonic()
ones = False
while True:
    t = time.monotonic() - t0
    if t > secs:
        break
    # 100 M cycles/s on a 667 MHz core, 10 MB/s on a slot: far below what either can do
    ccnt = int((t - back_at if t >= back_at else t) * 1e8)
    rd = int(t * 1e7) + (1 << 31 if t >= jump_at else 0)
    put(fm, CPU0 + PMCCNTR, ccnt)
    if t >= ones_at:
        if not ones:
            os.pwrite(fa, b"\xff" * APM_WINDOW, 0)
            ones = True
    else:
        put(fa, SMC(WR_BYTES), int(t * 2e7))
        put(fa, SMC(RD_BYTES), rd)
    if ready:
        open(ready, "w").close()
        ready = None
    time.sleep(0.002)
