/* libFuzzer harness for the ESP Monitors API's argument handling: any bytes
 * become a sequence of calls with arbitrary args. Besides "never crash", it
 * checks that a failing call leaves vals untouched, that a SINGLE read
 * returns the monitor's live value, and that the model's counters never
 * change because of a read (the API must not write monitor registers). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esp_monitors.h"
#include "libesp.h"
#include "compat/esp/esp_api.h"

static FILE *sink;

static void one(const uint8_t *p)
{
    esp_monitor_args_t a;
    memset(&a, 0, sizeof a);
    a.read_mode = (esp_monitor_mode_t)(p[1] % 5);   /* include unknown modes 3, 4 */
    a.read_mask = (uint16_t)(p[2] | p[3] << 8);
    a.tile_index = p[4];
    a.acc_index = p[5];
    a.mon_index = p[6];
    a.noc_index = p[7];
    static esp_monitor_vals_t v, w;
    switch (p[0] % 6) {
    case 0: {   /* a read into vals (or NULL) */
        esp_monitor_vals_t before;
        memset(&v, p[8], sizeof v);
        before = v;
        unsigned r = esp_monitor(a, (p[9] & 1) ? NULL : &v);
        if (esp_monitor_status() != SOCMON_OK && (r != 0 || memcmp(&v, &before, sizeof v) != 0))
            abort();
        if (a.read_mode == ESP_MON_READ_SINGLE && esp_monitor_status() == SOCMON_OK) {
            socmon_esp_soc *soc = smn_esp_api_virtual_soc();
            if (!soc || r != socmon_esp_soc_peek(soc, a.tile_index, a.mon_index))
                abort();
        }
        break;
    }
    case 1:
        memset(&w, p[9], sizeof w);
        v = esp_monitor_diff(v, w);
        break;
    case 2:
        esp_monitor_print(a, v, sink);
        break;
    case 3: {   /* counts move between reads */
        socmon_esp_soc *soc = smn_esp_api_virtual_soc();
        uint32_t val = (uint32_t)p[8] << 24 | p[9];
        if (soc && socmon_esp_soc_poke(soc, p[4] % SOC_NTILES, p[6] % 59, val) != SOCMON_OK)
            socmon_clear_error();
        break;
    }
    case 4: {
        char name[16];
        snprintf(name, sizeof name, "%s.%u", (p[8] & 1) ? "fft_stratus" : "x", p[9] % 5);
        struct esp_access acc = {.coherence = (enum accelerator_coherence)(p[5] % 6),
                                 .footprint = (unsigned)(p[6] % 4) * 64};
        esp_thread_info_t cfg = {.run = p[7] & 1, .devname = name, .esp_desc = &acc};
        esp_run(&cfg, 1);
        break;
    }
    default:   /* allocate and/or tear down; a later call maps again */
        if (p[9] & 1)
            esp_monitor_vals_alloc();
        esp_monitor_free();
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink)
        sink = fopen("/dev/null", "w");
    for (size_t i = 0; i + 10 <= size && i < 10 * 16; i += 10)
        one(data + i);
    /* The SoC persists across inputs (building one per input would dominate
     * the run time); op 5 frees and remaps it. */
    return 0;
}
