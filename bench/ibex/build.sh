#!/bin/sh
# Builds bench_ibex's programs (README.md) into $OUT (default: this directory) from a checkout of
# lowRISC/ibex (its CoreMark port for simple_system and its vendored CoreMark) and of
# embench/embench-iot, with Debian's gcc-riscv64-unknown-elf (no libc: stub/ has the little the
# programs need).
#   sh bench/ibex/build.sh IBEX_DIR EMBENCH_DIR
set -eu
IBEX=${1:?usage: build.sh IBEX_DIR EMBENCH_DIR}
EMB=${2:?usage: build.sh IBEX_DIR EMBENCH_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE}
CC=${CC:-riscv64-unknown-elf-gcc}
STUB=$HERE/stub
C=$IBEX/examples/sw/simple_system/common
P=$IBEX/examples/sw/benchmarks/coremark/ibex
V=$IBEX/vendor/eembc_coremark
# the toolchain's rv32im/ilp32 libgcc (soft float for ee_printf's %f): -march=..._zicsr selects no multilib
# the images name their sources /ibex/..., /embench-iot/... and /socmon/bench/ibex/stub/... whatever the
# checkouts' paths, so they do not depend on where they were built
MAP="-fdebug-prefix-map=$(pwd)=/build -fdebug-prefix-map=$IBEX=/ibex -fdebug-prefix-map=$EMB=/embench-iot -fdebug-prefix-map=$STUB=/socmon/bench/ibex/stub"
LIBGCC=$($CC -march=rv32im -mabi=ilp32 -print-libgcc-file-name)
# CoreMark as Ibex builds it (examples/sw/benchmarks/coremark/ibex/core_portme.mak), 10 and 100 iterations
for it in 10 100; do
  $CC $MAP -g -march=rv32im_zicsr -mabi=ilp32 -static -mcmodel=medlow -mtune=sifive-3-series -O3 \
    -falign-functions=16 -funroll-all-loops -finline-functions -falign-jumps=4 -nostdlib -nostartfiles \
    -ffreestanding -mstrict-align -DTOTAL_DATA_SIZE=2000 -DMAIN_HAS_NOARGC=1 -DPERFORMANCE_RUN=1 \
    -DITERATIONS=$it -DFLAGS_STR='"-O3"' -I"$STUB" -I"$C" -I"$P" -I"$V" \
    "$V"/core_list_join.c "$V"/core_main.c "$V"/core_matrix.c "$V"/core_state.c "$V"/core_util.c \
    "$P"/core_portme.c "$P"/ee_printf.c "$V"/barebones/cvt.c "$STUB"/modf.c "$C"/crt0.S \
    "$C"/simple_system_common.c -T "$C"/link.ld "$LIBGCC" -o "$OUT"/coremark_i$it.elf
done
# Embench's sglib-combined (lists, trees, hash tables: call-heavy), scale factor 1, no warm-up
$CC $MAP -g -march=rv32imc_zicsr -mabi=ilp32 -static -mcmodel=medany -O2 -nostdlib -nostartfiles -ffreestanding \
  -fno-builtin -DCPU_MHZ=1 -DGLOBAL_SCALE_FACTOR=1 -DWARMUP_HEAT=0 -I"$STUB" -I"$EMB"/support -I"$C" \
  "$EMB"/src/sglib-combined/combined.c "$EMB"/support/main.c "$EMB"/support/beebsc.c "$EMB"/support/board.c \
  "$STUB"/string.c "$C"/crt0.S "$C"/simple_system_common.c -T "$C"/link.ld "$LIBGCC" -o "$OUT"/embench_sglib.elf
