#!/bin/sh
# Target options on the command line (issue 23): a key given twice is refused naming it,
# and whole numbers are read exactly: zynq's seed takes its maximum, 2^53, and refuses
# one more however it is written (it was rounded to the maximum and accepted).
. "$SOCMON_SRC/tests/support/expect.sh"

expect 1 "target 'zynq': option 'wr_mbps' given twice (wr_mbps=1, then wr_mbps=2)" -- \
    "$BIN" stat -t zynq:wr_mbps=1,wr_mbps=2 -d 1ms
expect 1 "target 'esp': option 'devmem' given twice (devmem=0, then devmem=0)" -- \
    "$BIN" stat -t esp:devmem=0,devmem=0 -d 1ms
expect 0 "" -- "$BIN" stat -t zynq:seed=9007199254740992 -d 1ms
expect 1 "zynq: seed=9007199254740993 out of range 0..9007199254740992" -- \
    "$BIN" stat -t zynq:seed=9007199254740993 -d 1ms
expect 1 "zynq: seed=9.007199254740993e15 out of range 0..9007199254740992" -- \
    "$BIN" stat -t zynq:seed=9.007199254740993e15 -d 1ms
expect 1 "zynq: seed=18446744073709551616 out of range 0..9007199254740992" -- \
    "$BIN" stat -t zynq:seed=18446744073709551616 -d 1ms
expect 0 "seed=N .*(0\.\.9007199254740992)" -- "$BIN" list zynq
finish options
