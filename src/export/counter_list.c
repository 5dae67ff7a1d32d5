/* A target's counters as socmon list shows them (counter_list.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "export/counter_list.h"
#include "export/table.h"

/* The counters of set as one JSON document: each counter's name, instance, width, unit,
 * description and, where the device numbers its counters (ESP's "monitor"), that number (null
 * for a counter the vendor has none for). */
static socmon_status counters_json(FILE *fp, const char *spec, const socmon_device *dev, socmon_set *set)
{
    const char *iname = socmon_device_index_name(dev);
    json_t *arr = json_array(), *doc = json_pack("{s:s, s:s, s:o}", "target", spec, "device",
                                                 socmon_device_name(dev), "counters", arr);
    if (!doc)
        return socmon_fail(SOCMON_ENOMEM, "list: out of memory");
    if (iname)
        json_object_set_new(doc, "index", json_string(iname));
    for (size_t i = 0; i < socmon_set_size(set); i++) {
        const socmon_counter *c = socmon_set_counter(set, i);
        json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:s}", "name", socmon_set_full_name(set, i), "instance",
                              c->instance ? c->instance : "", "width", (json_int_t)c->width, "unit",
                              c->unit ? c->unit : "", "description", c->desc ? c->desc : "");
        uint64_t v;
        if (o && iname)
            json_object_set_new(o, iname, socmon_device_counter_index(dev, socmon_set_index(set, i), &v)
                                              ? json_integer((json_int_t)v) : json_null());
        if (!o || json_array_append_new(arr, o)) {
            json_decref(doc);
            return socmon_fail(SOCMON_ENOMEM, "list: out of memory");
        }
    }
    int bad = json_dumpf(doc, fp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', fp) == EOF;
    json_decref(doc);
    return bad ? socmon_fail(SOCMON_EIO, "list: writing stdout failed") : SOCMON_OK;
}

static void counters_table(FILE *fp, const socmon_device *dev, socmon_set *set)
{
    const char *hdr[] = {"counter", "bits", "unit", "description"};
    smn_table *tab;
    if (smn_table_new(4, "lrll", hdr, &tab) == SOCMON_OK) {
        for (size_t i = 0; i < socmon_set_size(set); i++) {
            const socmon_counter *c = socmon_set_counter(set, i);
            char bits[8];
            snprintf(bits, sizeof bits, "%u", c->width);
            const char *row[] = {socmon_set_full_name(set, i), bits, c->unit, c->desc};
            smn_table_add(tab, row);
        }
        smn_table_print(tab, fp, "");
        smn_table_free(tab);
    }
    fprintf(fp, "%zu counters on %s\n", socmon_set_size(set), socmon_device_name(dev));
}

socmon_status smn_counter_list_write(FILE *fp, const char *spec, const socmon_device *dev, socmon_set *set, int json)
{
    if (json)
        return counters_json(fp, spec, dev, set);
    counters_table(fp, dev, set);
    return SOCMON_OK;
}
