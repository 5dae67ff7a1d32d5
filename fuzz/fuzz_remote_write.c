/* Fuzzes what the remote writer parses (serve/rw_encode.h): any bytes as a receiver's answer
 * body give a log text that is terminated within its buffer and holds no control byte; any
 * bytes as an exposition are either refused (SOCMON_EPARSE) or gathered into series whose
 * encoded WriteRequest snappy and protobuf-c read back with the same number of series. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

#include "serve/remote_write.pb-c.h"
#include "serve/rw_encode.h"

static void check_text(const char *s, size_t cap)
{
    size_t n = strnlen(s, cap);
    if (n == cap)
        abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char said[400], tiny[7];
    long status = size ? 100 + data[0] * 2 : 0;
    smn_rw_answer_text(said, sizeof said, status, (const char *)data, size);
    check_text(said, sizeof said);
    smn_rw_answer_text(tiny, sizeof tiny, status, (const char *)data, size);
    check_text(tiny, sizeof tiny);

    smn_rw_batch b = {0};
    smn_rw_label extra[] = {{"instance", "fuzz"}, {"job", "socmon"}};
    socmon_status st = smn_rw_batch_add_text(&b, (const char *)data, size, 1, extra, 2);
    if (st == SOCMON_OK)   /* the same text again: the same series, a second sample each */
        st = smn_rw_batch_add_text(&b, (const char *)data, size, 2, extra, 2);
    if (st != SOCMON_OK && st != SOCMON_EPARSE)
        abort();
    uint8_t *body = NULL;
    size_t len = 0;
    if (st == SOCMON_OK && smn_rw_batch_encode(&b, &body, &len) == SOCMON_OK) {
        size_t plen = 0;
        if (snappy_uncompressed_length((const char *)body, len, &plen) != SNAPPY_OK)
            abort();
        char *pb = malloc(plen + 1);
        if (!pb || snappy_uncompress((const char *)body, len, pb, &plen) != SNAPPY_OK)
            abort();
        Smnrw__WriteRequest *wr = smnrw__write_request__unpack(NULL, plen, (const uint8_t *)pb);
        if (!wr || wr->n_timeseries != b.n)
            abort();
        for (size_t i = 0; i < wr->n_timeseries; i++)
            if (wr->timeseries[i]->n_samples < 2 || wr->timeseries[i]->n_samples % 2 || wr->timeseries[i]->n_labels < 1)
                abort();
        smnrw__write_request__free_unpacked(wr, NULL);
        free(pb);
    }
    free(body);
    smn_rw_batch_clear(&b);
    return 0;
}
