/* Example 1 of ESP's Monitors API guide (ESP_MON_READ_SINGLE), completed into
 * a program: off-chip memory accesses of one non-coherent FFT run.
 *
 * The guide's code is kept as written, with one correction: it reads the DDR
 * monitor at MEM_TILE_IDX = 0, which in ESP's own example SoC (and here) is
 * not the memory tile, so it always prints 0. SINGLE mode takes a global tile
 * index; we take the memory tile's from soc_locs.h. See docs/esp.md. */
#include <stdio.h>

#include "libesp.h"
#include "monitors.h"

struct fft_access {        /* what ESP's fft_stratus.h adds after struct esp_access */
    struct esp_access esp;
    unsigned log_len;
};

int main(void)
{
#include "soc_locs.h"
    (void)cpu_locs;
    (void)acc_locs;
    (void)acc_has_l2;
    const unsigned log_len = 12;
    const size_t size = (size_t)2 << log_len << 2;   /* 2^log_len complex 32-bit words */
    void *buf = esp_alloc(size);
    struct fft_access fft = {.esp = {.coherence = ACC_COH_NONE}, .log_len = log_len};
    esp_thread_info_t cfg_nc[] = {
        {.run = true, .devname = "fft_stratus.0", .hw_buf = buf, .esp_desc = &fft.esp},
    };

    //read a single monitor from the tile number and monitor offset

    //statically declare monitor arg structure
    esp_monitor_args_t mon_args;

    //set up argument structure using READ_SINGLE mode
    //the off-chip memory accesses are read from the memory tile at the DDR_WORD_TRANSFER monitor
    const int MEM_TILE_IDX = mem_locs[0].row * SOC_COLS + mem_locs[0].col;  /* guide: 0 */
    mon_args.read_mode = ESP_MON_READ_SINGLE;
    mon_args.tile_index = MEM_TILE_IDX;
    mon_args.mon_index = MON_DDR_WORD_TRANSFER_INDEX;

    //in the READ_SINGLE mode, the monitor value is returned directly
    //read before and after
    unsigned int ddr_accesses_start, ddr_accesses_end;
    ddr_accesses_start = esp_monitor(mon_args, NULL);
    esp_run(cfg_nc, 1);
    if (esp_monitor_status() != SOCMON_OK) {
        fprintf(stderr, "esp_run: %s\n", esp_monitor_errmsg());
        return 1;
    }
    ddr_accesses_end = esp_monitor(mon_args, NULL);

    printf("\n	** DONE **\n");

    //calculate differnce, accounting for overflow
    unsigned int ddr_accesses_diff;
    ddr_accesses_diff = sub_monitor_vals(ddr_accesses_start, ddr_accesses_end);
    printf("\tOff-chip memory accesses: %d\n", ddr_accesses_diff);

    esp_free(buf);
    esp_monitor_free();
    /* A non-coherent run moves its whole buffer through DDR. */
    if (ddr_accesses_diff == 0) {
        fprintf(stderr, "example_esp_single: expected off-chip accesses from a non-coherent run\n");
        return 1;
    }
    return 0;
}
