/* Host-side Tensix counters API: configure, read, print and export counters. */
#include <stdlib.h>
#include <string.h>

#include "compat/tensix/llk_perf_host_internal.h"
#include "compat/tensix/llk_perf_text.h"
#include "llk_perf_host.h"
#include "socmon/tensix.h"

socmon_status llk_perf_results_new(llk_perf_results **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "llk_perf_results_new: out is NULL");
    *out = calloc(1, sizeof **out);
    return *out ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "llk_perf_results_new: out of memory");
}

void llk_perf_results_free(llk_perf_results *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nnames; i++)
        free(r->names[i]);
    free(r->names);
    free(r->rows);
    free(r);
}

socmon_status llk_perf_results_add(llk_perf_results *r, unsigned thread, unsigned bank,
                                   unsigned counter_id, unsigned l1_mux, uint32_t cycles,
                                   uint32_t count, int undefined)
{
    if (!r)
        return socmon_fail(SOCMON_EINVAL, "llk_perf_results_add: results is NULL");
    if (thread >= SOCMON_TENSIX_NTHREADS)
        return socmon_fail(SOCMON_ERANGE, "llk_perf_results_add: thread %u out of range 0..2", thread);
    if (bank >= SOCMON_TENSIX_NBANKS)
        return socmon_fail(SOCMON_ERANGE, "llk_perf_results_add: bank %u out of range 0..4", bank);
    if (l1_mux > 1)
        return socmon_fail(SOCMON_ERANGE, "llk_perf_results_add: l1_mux %u out of range 0..1", l1_mux);
    if (counter_id > 511)
        return socmon_fail(SOCMON_ERANGE, "llk_perf_results_add: counter id %u out of range 0..511",
                           counter_id);
    if (l1_mux && bank != SOCMON_TENSIX_BANK_L1)
        return socmon_fail(SOCMON_EINVAL, "llk_perf_results_add: l1_mux %u on bank %s (L1 only)", l1_mux,
                           socmon_tensix_bank_name(bank));
    const socmon_tensix_event *e = socmon_tensix_event_find(bank, counter_id, l1_mux);
    const char *name = e ? e->name : NULL;
    if (!e) {
        /* An id the guide does not list: tt-llk's name for it, kept with the results. */
        char buf[48];
        socmon_tensix_counter_name(bank, counter_id, l1_mux, buf, sizeof buf);
        for (size_t i = 0; i < r->nnames && !name; i++)
            if (strcmp(r->names[i], buf) == 0)
                name = r->names[i];
        if (!name) {
            if (r->nnames == r->capnames) {
                size_t cap = r->capnames ? 2 * r->capnames : 8;
                char **names = realloc(r->names, cap * sizeof *names);
                if (!names)
                    return socmon_fail(SOCMON_ENOMEM, "llk_perf_results_add: out of memory");
                r->names = names;
                r->capnames = cap;
            }
            if (!(r->names[r->nnames] = strdup(buf)))
                return socmon_fail(SOCMON_ENOMEM, "llk_perf_results_add: out of memory");
            name = r->names[r->nnames++];
        }
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        llk_perf_row *rows = realloc(r->rows, cap * sizeof *rows);
        if (!rows)
            return socmon_fail(SOCMON_ENOMEM, "llk_perf_results_add: out of memory");
        r->rows = rows;
        r->cap = cap;
    }
    r->rows[r->n++] = (llk_perf_row){
        .thread = thread, .bank = bank, .counter_id = counter_id,
        .l1_mux = bank == SOCMON_TENSIX_BANK_L1 ? (int)l1_mux : -1,
        .cycles = undefined ? 0 : cycles, .count = undefined ? 0 : count, .undefined = !!undefined,
        .thread_name = socmon_tensix_thread_name(thread), .bank_name = socmon_tensix_bank_name(bank),
        .counter_name = name,
    };
    return SOCMON_OK;
}

size_t llk_perf_results_count(const llk_perf_results *r)
{
    return r ? r->n : 0;
}

const llk_perf_row *llk_perf_results_row(const llk_perf_results *r, size_t i)
{
    return r && i < r->n ? &r->rows[i] : NULL;
}

static socmon_status new_drv(socmon_bus *bus, uint64_t l1_base, socmon_tensix_drv **d)
{
    /* The host only touches L1: the register base is never used. */
    return socmon_tensix_drv_new(bus, SOCMON_TENSIX_REGS_BASE, l1_base, d);
}

socmon_status llk_perf_configure_slots(socmon_bus *bus, uint64_t l1_base, unsigned thread,
                                       const uint32_t *words, size_t n)
{
    socmon_tensix_drv *d;
    socmon_status st = socmon_tensix_slots_check(words, n, NULL, NULL);
    if (st != SOCMON_OK)
        return socmon_fail_prefix(st, "configure_counters (thread %s): ", socmon_tensix_thread_name(thread));
    if ((st = new_drv(bus, l1_base, &d)) != SOCMON_OK)
        return st;
    st = socmon_tensix_drv_store_config(d, thread, words, n);
    socmon_tensix_drv_free(d);
    return st;
}

socmon_status llk_perf_configure_counters(socmon_bus *bus, uint64_t l1_base)
{
    uint32_t w[SOCMON_TENSIX_CONFIG_WORDS];
    size_t n = socmon_tensix_default_slots(w, SOCMON_TENSIX_CONFIG_WORDS);
    for (unsigned t = 0; t < SOCMON_TENSIX_NTHREADS; t++) {
        socmon_status st = llk_perf_configure_slots(bus, l1_base, t, w, n);
        if (st != SOCMON_OK)
            return st;
    }
    return SOCMON_OK;
}

socmon_status llk_perf_read_counters(socmon_bus *bus, uint64_t l1_base, llk_perf_results **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "read_counters: out is NULL");
    *out = NULL;
    socmon_tensix_drv *d;
    llk_perf_results *r;
    socmon_status st = new_drv(bus, l1_base, &d);
    if (st != SOCMON_OK)
        return st;
    if ((st = llk_perf_results_new(&r)) != SOCMON_OK) {
        socmon_tensix_drv_free(d);
        return st;
    }
    for (unsigned t = 0; t < SOCMON_TENSIX_NTHREADS && st == SOCMON_OK; t++) {
        uint32_t w[SOCMON_TENSIX_CONFIG_WORDS];
        socmon_tensix_slot s[SOCMON_TENSIX_CONFIG_WORDS];
        if ((st = socmon_tensix_drv_load_config(d, t, w)) != SOCMON_OK)
            break;
        if ((st = socmon_tensix_slots_check(w, SOCMON_TENSIX_CONFIG_WORDS, s, NULL)) != SOCMON_OK) {
            st = socmon_fail_prefix(st, "read_counters (thread %s): ", socmon_tensix_thread_name(t));
            break;
        }
        uint64_t data = l1_base + socmon_tensix_data_addr(t);
        size_t k = 0;
        for (size_t i = 0; i < SOCMON_TENSIX_CONFIG_WORDS && st == SOCMON_OK; i++) {
            if (!s[i].valid)
                continue;
            /* Pairs are compacted: the k-th valid slot owns pair k. */
            uint32_t cyc, cnt;
            if ((st = socmon_bus_read32(bus, data + 8 * k, &cyc)) != SOCMON_OK ||
                (st = socmon_bus_read32(bus, data + 8 * k + 4, &cnt)) != SOCMON_OK)
                break;
            k++;
            int undef = cyc == SOCMON_TENSIX_UNDEF_WORD && cnt == SOCMON_TENSIX_UNDEF_WORD;
            st = llk_perf_results_add(r, t, s[i].bank, s[i].counter_id, s[i].l1_mux, cyc, cnt, undef);
        }
    }
    socmon_tensix_drv_free(d);
    if (st != SOCMON_OK) {
        llk_perf_results_free(r);
        return st;
    }
    *out = r;
    return SOCMON_OK;
}

static const unsigned bank_order[] = {SOCMON_TENSIX_BANK_INSTRN_THREAD, SOCMON_TENSIX_BANK_FPU,
                                      SOCMON_TENSIX_BANK_TDMA_UNPACK, SOCMON_TENSIX_BANK_L1,
                                      SOCMON_TENSIX_BANK_TDMA_PACK};

static void format_counters(const llk_perf_results *r, tx_text *t)
{
    if (!r || r->n == 0) {
        smn_tx_text_add(t, "No counter results to display.\n");
        return;
    }
    smn_tx_text_add(t, "\n");
    smn_tx_text_rep(t, "=", 100);
    smn_tx_text_add(t, "\nPERFORMANCE COUNTER RESULTS\n");
    smn_tx_text_rep(t, "=", 100);
    smn_tx_text_add(t, "\nNOTE: Each bank has one output register; all threads read the same bank values.\n"
                   "NOTE: L1 mux0/mux1 cannot be measured simultaneously.\n");
    for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS; th++) {
        int any = 0;
        for (size_t i = 0; i < r->n; i++)
            any |= r->rows[i].thread == th;
        if (!any)
            continue;
        smn_tx_text_add(t, "\n");
        smn_tx_text_rep(t, "\xe2\x94\x80", 100);
        smn_tx_text_add(t, "\n  THREAD: %s\n", socmon_tensix_thread_name(th));
        smn_tx_text_rep(t, "\xe2\x94\x80", 100);
        smn_tx_text_add(t, "\n");
        for (unsigned b = 0; b < SOCMON_TENSIX_NBANKS; b++) {
            const llk_perf_row *first = NULL;
            for (size_t i = 0; i < r->n && !first; i++)
                if (r->rows[i].thread == th && r->rows[i].bank == bank_order[b])
                    first = &r->rows[i];
            if (!first)
                continue;
            smn_tx_text_add(t, "\n  \xe2\x94\x8c\xe2\x94\x80 %s (cycles: ", first->bank_name);
            smn_tx_text_commas(t, first->cycles, 0);
            smn_tx_text_add(t, ")\n  \xe2\x94\x82 %-40s %15s %12s\n  \xe2\x94\x82 ", "Counter Name", "Count", "Rate");
            smn_tx_text_rep(t, "\xe2\x94\x80", 40);
            smn_tx_text_add(t, " ");
            smn_tx_text_rep(t, "\xe2\x94\x80", 15);
            smn_tx_text_add(t, " ");
            smn_tx_text_rep(t, "\xe2\x94\x80", 12);
            smn_tx_text_add(t, "\n");
            for (size_t i = 0; i < r->n; i++) {
                const llk_perf_row *w = &r->rows[i];
                if (w->thread != th || w->bank != bank_order[b])
                    continue;
                char name[64];
                if (w->l1_mux >= 0)
                    snprintf(name, sizeof name, "%s (mux%d)", w->counter_name, w->l1_mux);
                else
                    snprintf(name, sizeof name, "%s", w->counter_name);
                smn_tx_text_add(t, "  \xe2\x94\x82 %-40s ", name);
                if (w->undefined) {
                    smn_tx_text_add(t, "%15s %12s\n", "undefined", "-");
                    continue;
                }
                smn_tx_text_commas(t, w->count, 15);
                smn_tx_text_add(t, " %12.4f\n", w->cycles ? (double)w->count / w->cycles : 0.0);
            }
            smn_tx_text_add(t, "  \xe2\x94\x94");
            smn_tx_text_rep(t, "\xe2\x94\x80", 70);
            smn_tx_text_add(t, "\n");
        }
    }
    smn_tx_text_add(t, "\n");
    smn_tx_text_rep(t, "=", 100);
    smn_tx_text_add(t, "\n\n");
}

socmon_status llk_perf_format_counters(const llk_perf_results *r, char *buf, size_t cap, size_t *len)
{
    tx_text t = {0};
    format_counters(r, &t);
    return smn_tx_text_finish(&t, buf, cap, len);
}

socmon_status llk_perf_print_counters(const llk_perf_results *r, FILE *fp)
{
    tx_text t = {0};
    format_counters(r, &t);
    return smn_tx_text_print(&t, fp);
}

#define COUNTER_COLUMNS "thread,bank,counter_name,counter_id,cycles,count,l1_mux"

socmon_status llk_perf_export_counters(const llk_perf_results *r, const char *filename,
                                       const socmon_kv *params, size_t nparams, const char *worker_id)
{
    if (!r)
        return socmon_fail(SOCMON_EINVAL, "export_counters: results is NULL");
    if (nparams && !params)
        return socmon_fail(SOCMON_EINVAL, "export_counters: %zu params but params is NULL", nparams);
    if (r->n == 0)
        return SOCMON_OK;   /* as counters.py: nothing to write */
    tx_text head = {0}, rows = {0};
    smn_tx_text_add(&head, COUNTER_COLUMNS);
    smn_tx_csv_params_header(&head, params, nparams);
    for (size_t i = 0; i < r->n; i++) {
        const llk_perf_row *w = &r->rows[i];
        smn_tx_text_add(&rows, "%s,%s,%s,%u,", w->thread_name, w->bank_name, w->counter_name, w->counter_id);
        if (w->undefined)
            smn_tx_text_add(&rows, ",,");   /* never a number for an undefined result */
        else
            smn_tx_text_add(&rows, "%u,%u,", w->cycles, w->count);
        if (w->l1_mux >= 0)
            smn_tx_text_add(&rows, "%d", w->l1_mux);
        smn_tx_csv_params_values(&rows, params, nparams);
        smn_tx_text_add(&rows, "\n");
    }
    return smn_tx_csv_export(filename, worker_id, &head, &rows);
}
