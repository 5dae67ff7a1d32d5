/* soc_locs.h for socmon's built-in virtual ESP SoC (see soc_defs.h).
 *
 * As ESP's socgen output, these are definitions, meant to be included inside
 * a function body (ESP's libmonitors does exactly that); the global tile
 * index of a location is row * SOC_COLS + col. */
soc_loc_t cpu_locs[SOC_NCPU] = {{0, 0}};
soc_loc_t mem_locs[SOC_NMEM] = {{0, 1}};
soc_loc_t acc_locs[SOC_NACC] = {{0, 2}, {1, 0}, {1, 1}};
unsigned int acc_has_l2[SOC_NACC] = {1, 0, 0};
