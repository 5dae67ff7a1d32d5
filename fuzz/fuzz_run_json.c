/* Fuzzes the reader of stat's JSON as `socmon diff` takes it (src/analysis/run_json.c) and the
 * diff over what it reads: any bytes in a file become a run (or a clear error), which is then
 * compared with itself and with a fixed run, and rendered in every diff format. Besides "never
 * crash", it checks that a run against itself has no changed row and nothing significant. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/output.h"
#include "socmon/compare.h"

static char path[64];
static socmon_run *fixed;

static void render(const socmon_diff *d)
{
    static const char *const formats[] = {"table", "csv", "json"};
    for (size_t f = 0; f < 3; f++) {
        smn_sink *s;
        smn_output *o;
        if (smn_sink_memory(&s) != SOCMON_OK)
            abort();
        if (smn_output_open(formats[f], s, NULL, &o) != SOCMON_OK)
            abort();
        if (smn_output_diff(o, d) == SOCMON_OK)
            smn_output_end(o);
        smn_output_free(o);
        smn_sink_close(s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/fuzz_run_json.%d", (int)getpid());
        FILE *fp = fopen(path, "w");
        fputs("{\"runs\": 3, \"counters\": [{\"name\": \"a\", \"value\": 1, \"stddev\": 0.5}],"
              " \"metrics\": [{\"name\": \"m\", \"instance\": \"t0\", \"value\": 2.5}]}", fp);
        fclose(fp);
        if (socmon_run_open(path, NULL, &fixed) != SOCMON_OK)
            abort();
    }
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return 0;
    fwrite(data, 1, size, fp);
    fclose(fp);
    socmon_run *r = NULL;
    if (socmon_run_open(path, NULL, &r) != SOCMON_OK)
        return 0;
    socmon_diff *d = NULL;
    if (socmon_diff_new(r, r, NULL, &d) != SOCMON_OK)
        abort();
    for (size_t i = 0; i < socmon_diff_count(d); i++) {
        const socmon_diff_row *row = socmon_diff_row_at(d, i);
        if (!row->a || !row->b || row->change != 0 || row->significant == 1)
            abort();
    }
    render(d);
    socmon_diff_free(d);
    if (socmon_diff_new(fixed, r, NULL, &d) == SOCMON_OK)
        render(d);
    socmon_diff_free(d);
    socmon_run_free(r);
    return 0;
}
