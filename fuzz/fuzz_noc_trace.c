/* libFuzzer harness for the NoC trace parser (src/models/esp/esp_trace.c). A trace that parses
 * must hold only what the format allows: a mesh within 16x16, packets sorted by cycle between
 * two different tiles of it with 1..256 flits, stalls on its tiles with FROM < TO. */
#include <stdint.h>
#include <stdlib.h>

#include "models/esp/esp_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    esp_trace t;
    if (smn_esp_trace_parse((const char *)data, size, "fuzz.trace", &t) != SOCMON_OK)
        return 0;
    unsigned n = t.rows * t.cols;
    if (t.rows < 1 || t.rows > 16 || t.cols < 1 || t.cols > 16 || t.plane > 5)
        abort();
    for (size_t i = 0; i < t.npkt; i++) {
        const esp_trace_pkt *p = &t.pkt[i];
        if (p->src >= n || p->dst >= n || p->src == p->dst || p->flits < 1 || p->flits > 256 ||
            p->cycle > ESP_TRACE_MAX_CYCLE || (i && p->cycle < t.pkt[i - 1].cycle))
            abort();
    }
    for (size_t i = 0; i < t.nstall; i++)
        if (t.stall[i].tile >= n || t.stall[i].from >= t.stall[i].to)
            abort();
    smn_esp_trace_free(&t);
    return 0;
}
