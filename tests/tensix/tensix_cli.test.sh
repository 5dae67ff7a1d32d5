#!/bin/sh
# socmon stat/record/report on the "tensix" target: the bound each kernel
# shape is built for is the one shown, each workload (kernel) shows its
# signature, and bad options are named.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

expect 0 "^tensix " -- "$BIN" list
for b in math unpack pack; do
    expect 0 "dominant_bound  *$b-bound" -- "$BIN" stat -t "tensix:bound=$b,tiles=64"
    expect 0 "dominant_bound  *$b-bound" -- "$BIN" stat -t "tensix:bound=$b,tiles=64,platform=blackhole"
done
expect 0 "dominant_bound  *math-bound" -- "$BIN" stat -t "tensix:fidelity=HiFi4,tiles=64"
expect 0 "fpu.FPU_OR_SFPU_INSTRN" -- "$BIN" stat -t tensix:tiles=16
expect 0 "noc1_bytes_per_cycle" -- "$BIN" stat -t tensix:tiles=16,l1_mux=1
expect 0 "l1.NOC_RING1_OUTGOING_0" -- "$BIN" stat -t tensix:tiles=16,l1_mux=1
expect 0 "dominant_bound=pack-bound" -- "$BIN" record -t tensix:bound=pack,tiles=128 -I 5us \
    -M 'dominant_bound' -o "$TMP/t.rec"
expect 0 "pack-bound" -- "$BIN" report -i "$TMP/t.rec" --summary
expect 1 "unknown option 'bogus' (valid: tiles, format" -- "$BIN" stat -t tensix:bogus=1
expect 1 "bound 'risc' unknown" -- "$BIN" stat -t tensix:bound=risc
expect 1 "tiles '0' out of range" -- "$BIN" stat -t tensix:tiles=0
expect 1 "l1_mux=2 must be 0 or 1" -- "$BIN" stat -t tensix:l1_mux=2
expect 1 "unknown workload 'conv' (known: matmul, sfpu, reduce, topk, sync)" -- "$BIN" stat -t tensix -w conv
# The other kernels: an SFPU op is math-bound with the FPU idle; top-k searches.
expect 0 "dominant_bound  *math-bound" -- "$BIN" stat -t tensix:tiles=64 -w sfpu
expect 0 "fpu_util  *0\.000 " -- "$BIN" stat -t tensix:tiles=64 -w sfpu
expect 0 "instrn_thread.XSEARCH_INSTRN_AVAILABLE_1  *[1-9]" -- "$BIN" stat -t tensix:tiles=64 -w topk
expect 0 "instrn_thread.WAITING_FOR_MMIO_IDLE_0  *[1-9]" -- "$BIN" stat -t tensix:tiles=64 -w sync
expect 0 "workloads: matmul sfpu reduce topk sync" -- "$BIN" list

finish "tensix cli"
