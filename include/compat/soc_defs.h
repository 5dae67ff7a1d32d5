/* soc_defs.h for socmon's built-in virtual ESP SoC (socs/esp_2x3.soc):
 * 2 rows x 3 cols, tile 0 CPU, tile 1 memory, tiles 2..4 accelerators (tile 2
 * with a private L2), tile 5 IO.
 *
 * ESP's socgen writes this file per SoC; `esp_socdefs SOCFILE OUTDIR`
 * (tools/esp_socdefs) does the same for a socmon SoC description. Put the
 * directory holding a generated one first on the include path and it replaces
 * this one; every definition below is also skipped if SOC_ROWS is already
 * defined (e.g. on the compiler's command line). */
#ifndef SOC_ROWS
#define SOC_ROWS 2
#define SOC_COLS 3
#define SOC_NCPU 1
#define SOC_NMEM 1
#define SOC_NDDR_CONTIG 1
#define SOC_NACC 3
#define ACCS_PRESENT 1
#define MONITOR_BASE_ADDR 0x60090000
#define MONITOR_TILE_SIZE 0x200
#define YX_WIDTH 3
#endif
