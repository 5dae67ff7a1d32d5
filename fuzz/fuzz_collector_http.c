/* Fuzzes what a collector makes of an HTTP answer (agent/collector_http.c): any bytes give a
 * status line and a body line that fit their buffers, are NUL-terminated and hold no control
 * byte (a peer's text goes to a terminal escaped). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/collector_internal.h"

static void check_text(const char *s, size_t cap)
{
    size_t n = strnlen(s, cap);
    if (n == cap)
        abort();   /* not terminated within its buffer */
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char status[600], said[600], small[8], tiny[1];
    collector_http_describe(data, size, status, sizeof status, said, sizeof said);
    check_text(status, sizeof status);
    check_text(said, sizeof said);
    collector_http_describe(data, size, small, sizeof small, tiny, sizeof tiny);
    check_text(small, sizeof small);
    check_text(tiny, sizeof tiny);
    return 0;
}
