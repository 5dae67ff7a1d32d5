/* Example 2 of ESP's Monitors API guide (ESP_MON_READ_ALL), completed into a
 * program: every monitor of the SoC around one LLC-coherent FFT run, the
 * difference written to multifft_esp_mon_all.txt. */
#include <stdio.h>

#include "libesp.h"
#include "monitors.h"

struct fft_access {
    struct esp_access esp;
    unsigned log_len;
};

static int fail(const char *what)
{
    fprintf(stderr, "example_esp_all: %s: %s\n", what, esp_monitor_errmsg());
    return 1;
}

int main(void)
{
    const unsigned log_len = 12;
    const size_t size = (size_t)2 << log_len << 2;
    void *buf[1] = {esp_alloc(size)};
    struct fft_access fft = {.esp = {.coherence = ACC_COH_LLC}, .log_len = log_len};
    esp_thread_info_t cfg_llc[] = {{.run = true, .devname = "fft_stratus.0", .esp_desc = &fft.esp}};
    esp_monitor_args_t mon_args;

    //read all monitors on the SoC

    //statically declare monitor vals structures
    esp_monitor_vals_t vals_start, vals_end;

    //set read_mode to ALL
    mon_args.read_mode = ESP_MON_READ_ALL;

    cfg_llc[0].hw_buf = buf[0];

    printf("\n	** DONE **\n");

    //values written into vals struct argument
    esp_monitor(mon_args, &vals_start);
    if (esp_monitor_status() != SOCMON_OK)
        return fail("esp_monitor");
    esp_run(cfg_llc, 1);
    if (esp_monitor_status() != SOCMON_OK)
        return fail("esp_run");
    esp_monitor(mon_args, &vals_end);

    //calculate difference of all values
    esp_monitor_vals_t vals_diff;
    vals_diff = esp_monitor_diff(vals_start, vals_end);

    FILE *fp = fopen("multifft_esp_mon_all.txt", "w");
    if (!fp) {
        perror("multifft_esp_mon_all.txt");
        return 1;
    }
    esp_monitor_print(mon_args, vals_diff, fp);
    fclose(fp);
    if (esp_monitor_status() != SOCMON_OK)
        return fail("esp_monitor_print");

    /* Accelerator 0 ran once, and its DMA went through the memory tile. */
    int ok = vals_diff.acc_stats[0].acc_invocations == 1 && vals_diff.acc_stats[0].acc_tot_lo > 0 &&
             vals_diff.acc_stats[1].acc_invocations == 0;
    printf("\tAccelerator 0: %u invocation(s), %u total cycles; stats in multifft_esp_mon_all.txt\n",
           vals_diff.acc_stats[0].acc_invocations, vals_diff.acc_stats[0].acc_tot_lo);
    esp_free(buf[0]);
    esp_monitor_free();
    if (!ok) {
        fprintf(stderr, "example_esp_all: accelerator statistics do not show the one run\n");
        return 1;
    }
    return 0;
}
