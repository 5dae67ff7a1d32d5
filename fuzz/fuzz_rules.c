/* Fuzzes the rules parser of socmon check (src/analysis/rules.c) and the check over a fixed
 * diff, rendered in its three formats. Besides "never crash": an accepted file has at least one
 * rule, every rule has a pattern, a limit as written and an amount >= 0, lines ascend, and an
 * error message names the file. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/output.h"
#include "socmon/check.h"

static socmon_run *run;
static socmon_diff *diff;

static void setup(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_rules.%d.json", (int)getpid());
    FILE *fp = fopen(path, "w");
    fputs("{\"counters\": [{\"name\": \"cycles\", \"value\": 100}, {\"name\": \"tile0.l2_hits\", \"value\": 0}],"
          " \"metrics\": [{\"name\": \"ipc\", \"value\": 0.5}, {\"name\": \"x\", \"value\": null}]}", fp);
    fclose(fp);
    if (socmon_run_open(path, NULL, &run) != SOCMON_OK || socmon_diff_new(run, run, NULL, &diff) != SOCMON_OK)
        abort();
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!run)
        setup();
    socmon_rules *r = NULL;
    if (socmon_rules_parse((const char *)data, size, "f.rules", &r) != SOCMON_OK) {
        if (strncmp(socmon_errmsg(), "f.rules", 7) != 0)
            abort();
        return 0;
    }
    unsigned last = 0;
    if (socmon_rules_count(r) == 0)
        abort();
    for (size_t i = 0; i < socmon_rules_count(r); i++) {
        const socmon_rule *u = socmon_rules_at(r, i);
        if (!*u->pattern || !*u->limit || !(u->amount >= 0) || !isfinite(u->amount) || u->line <= last)
            abort();
        last = u->line;
    }
    socmon_check *c = NULL;
    if (socmon_check_new(diff, r, &c) == SOCMON_OK) {
        if (socmon_check_failed(c) > socmon_check_count(c))
            abort();
        static const char *const formats[] = {"table", "junit", "markdown"};
        for (size_t f = 0; f < 3; f++) {
            smn_sink *s;
            smn_output *o;
            if (smn_sink_memory(&s) != SOCMON_OK || smn_output_open(formats[f], s, NULL, &o) != SOCMON_OK)
                abort();
            if (smn_output_check(o, c) != SOCMON_OK || smn_output_end(o) != SOCMON_OK)
                abort();
            smn_output_free(o);
            smn_sink_close(s);
        }
        socmon_check_free(c);
    }
    socmon_rules_free(r);
    return 0;
}
