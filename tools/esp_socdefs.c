/* esp_socdefs: writes soc_defs.h and soc_locs.h for an ESP SoC description,
 * so programs written for ESP's Monitors API build for that SoC.
 *
 *   esp_socdefs SOCFILE OUTDIR      (SOCFILE "-" or "default": the built-in SoC)
 *
 * Then compile with -IOUTDIR ahead of socmon's include/compat, and run with
 * SOCMON_ESP_SOC=SOCFILE (see docs/esp.md). */
#include <stdio.h>
#include <string.h>

#include "socmon/status.h"
#include "compat/esp/esp_socdefs.h"

static int usage(FILE *fp)
{
    fprintf(fp, "usage: esp_socdefs SOCFILE OUTDIR\n"
                "  Writes OUTDIR/soc_defs.h and OUTDIR/soc_locs.h for the ESP SoC described in\n"
                "  SOCFILE ('default' for socmon's built-in 2x3 SoC). OUTDIR must exist.\n");
    return fp == stdout ? 0 : 2;
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (!fp)
        perror(path);
    return fp;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
        return usage(stdout);
    if (argc != 3)
        return usage(stderr);
    socmon_esp_soc_desc d;
    const char *src = argv[1];
    if (!strcmp(src, "default") || !strcmp(src, "-")) {
        socmon_esp_soc_desc_default(&d);
        src = "the built-in SoC";
    } else if (socmon_esp_soc_desc_load(src, &d) != SOCMON_OK) {
        fprintf(stderr, "esp_socdefs: %s\n", socmon_errmsg());
        return 1;
    }
    char p1[4096], p2[4096];
    FILE *defs = open_out(argv[2], "soc_defs.h", p1, sizeof p1);
    FILE *locs = defs ? open_out(argv[2], "soc_locs.h", p2, sizeof p2) : NULL;
    if (!defs || !locs) {
        if (defs)
            fclose(defs);
        return 1;
    }
    socmon_status st = smn_esp_socdefs_write(&d, src, defs, locs);
    int werr = ferror(defs) || ferror(locs);
    werr |= fclose(defs) != 0;
    werr |= fclose(locs) != 0;
    if (st != SOCMON_OK) {
        fprintf(stderr, "esp_socdefs: %s\n", socmon_errmsg());
        remove(p1);
        remove(p2);
        return 1;
    }
    if (werr) {
        fprintf(stderr, "esp_socdefs: writing %s or %s failed\n", p1, p2);
        return 1;
    }
    return 0;
}
