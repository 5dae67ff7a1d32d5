/* Fuzzes target specs ("NAME:key=value,..."): parsing, option checks and the
 * targets' own option parsing. Specs naming files are skipped: the fuzzer
 * must not read arbitrary paths of the machine it runs on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/socmon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256)
        return 0;
    char *spec = malloc(size + 1);
    if (!spec)
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    if (!strchr(spec, '/') && !strstr(spec, "devmem") && !strstr(spec, "trace")) {
        socmon_target *t = NULL;
        if (socmon_target_open(spec, &t) == SOCMON_OK) {
            int done = 0;
            socmon_target_advance(t, 1000, &done);
            socmon_target_close(t);
        } else if (!*socmon_errmsg()) {
            abort(); /* every failure must explain itself */
        }
    }
    free(spec);
    return 0;
}
