/* Example 3 of ESP's Monitors API guide (ESP_MON_READ_MANY), completed into a
 * program: a subset of the monitors around one fully coherent FFT run, the
 * difference written to multifft_esp_mon_many.txt.
 *
 * As in ESP's example, the NoC injections are read at ACC_TILE_INDEX, meant
 * as the accelerator's tile; its global index here comes from soc_locs.h. */
#include <stdio.h>

#include "libesp.h"
#include "monitors.h"

struct fft_access {
    struct esp_access esp;
    unsigned log_len;
};

int main(void)
{
#include "soc_locs.h"
    (void)cpu_locs;
    (void)mem_locs;
    (void)acc_has_l2;
    const unsigned log_len = 12;
    const size_t size = (size_t)2 << log_len << 2;
    void *buf[1] = {esp_alloc(size)};
    struct fft_access fft = {.esp = {.coherence = ACC_COH_FULL}, .log_len = log_len};
    esp_thread_info_t cfg_fc[] = {{.run = true, .devname = "fft_stratus.0", .esp_desc = &fft.esp}};
    esp_monitor_args_t mon_args;
    esp_monitor_vals_t vals_diff;
    FILE *fp;

    //read a specified subset of the monitors on the SoC

    //dynamically allocate monitor arg structure
    esp_monitor_vals_t *vals_start_ptr = esp_monitor_vals_alloc();
    esp_monitor_vals_t *vals_end_ptr = esp_monitor_vals_alloc();

    //set read_mode to MANY
    mon_args.read_mode = ESP_MON_READ_MANY;
    mon_args.read_mask = 0;

    //enable reading memory accesses
    mon_args.read_mask |= 1 << ESP_MON_READ_DDR_ACCESSES;

    //enable reading L2 statistics
    mon_args.read_mask |= 1 << ESP_MON_READ_L2_STATS;

    //enable reading LLC statistics
    mon_args.read_mask |= 1 << ESP_MON_READ_LLC_STATS;

    //enable reading acc statistics - requires the index of the accelerator
    mon_args.acc_index = 0;
    mon_args.read_mask |= 1 << ESP_MON_READ_ACC_STATS;

    //enable reading noc injections - requires the index of the tile
    const int ACC_TILE_INDEX = acc_locs[0].row * SOC_COLS + acc_locs[0].col;  /* guide: 0 */
    mon_args.tile_index = ACC_TILE_INDEX;
    mon_args.read_mask |= 1 << ESP_MON_READ_NOC_INJECTS;

    //enable reading noc backpressure on a plane - requires the index of the noc plane
    const int NOC_PLANE = 0;
    mon_args.noc_index = NOC_PLANE;
    mon_args.read_mask |= 1 << ESP_MON_READ_NOC_QUEUE_FULL_PLANE;

    cfg_fc[0].hw_buf = buf[0];

    //values written into vals struct argument
    esp_monitor(mon_args, vals_start_ptr);
    esp_run(cfg_fc, 1);
    if (esp_monitor_status() != SOCMON_OK) {
        fprintf(stderr, "esp_run: %s\n", esp_monitor_errmsg());
        return 1;
    }
    esp_monitor(mon_args, vals_end_ptr);
    if (esp_monitor_status() != SOCMON_OK) {
        fprintf(stderr, "esp_monitor: %s\n", esp_monitor_errmsg());
        return 1;
    }

    printf("\n	** DONE **\n");

    //calculate difference of all values
    vals_diff = esp_monitor_diff(*vals_start_ptr, *vals_end_ptr);

    //write results to file
    fp = fopen("multifft_esp_mon_many.txt", "w");
    if (!fp) {
        perror("multifft_esp_mon_many.txt");
        return 1;
    }
    esp_monitor_print(mon_args, vals_diff, fp);
    fclose(fp);

    //when done with monitors, free all allocated structures, and unmap the address space
    esp_monitor_free();
    esp_free(buf[0]);

    /* The run shows in the accelerator's counters and its tile injected
     * packets; what MANY did not ask for (DVFS, coherence traffic) stays 0. */
    unsigned inj = 0;
    for (int p = 0; p < NOC_PLANES; p++)
        inj += vals_diff.noc_injects[ACC_TILE_INDEX][p];
    int ok = vals_diff.acc_stats[0].acc_invocations == 1 && inj > 0 &&
             vals_diff.dvfs_op[ACC_TILE_INDEX][0] == 0 && vals_diff.mem_reqs[0].coh_reqs == 0;
    printf("\tAccelerator 0: %u invocation(s); tile %d injected %u packets; "
           "stats in multifft_esp_mon_many.txt\n",
           vals_diff.acc_stats[0].acc_invocations, ACC_TILE_INDEX, inj);
    if (!ok) {
        fprintf(stderr, "example_esp_many: results do not show the run\n");
        return 1;
    }
    return 0;
}
