/* report --stats as a document of the output interface (smn_output_file_facts): the table,
 * csv and json formats write the facts of a recording file byte for byte as report always has
 * (tests/cli/recording_v2.test.sh and recording_gaps.test.sh read them end to end); other
 * formats refuse them, and the document is the facts then end. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "export/output.h"

/* A damaged file: one gap, one damaged block; a name a CSV field must quote. */
static smn_file_facts facts(void)
{
    /* bytes per value exact in binary: JSON writes reals to 17 digits */
    smn_file_facts f = {.file = "my, rec", .samples = 1234567, .counters = 3, .bytes_per_value = 0.5,
                           .clock = "real", .attachments = 1, .attachment_bytes = 5000,
                           .attachment_names = "profile"};
    f.info.version = 2, f.info.blocks = 4321, f.info.file_bytes = 1911111;
    f.info.blocks_lost = 1, f.info.bytes_lost = 200, f.info.samples_lost = 20, f.info.ns_lost = 20000;
    f.info.flush_ns = 1000000000, f.info.gaps = 1, f.info.gap_samples = 4, f.info.gap_ns = 4000;
    snprintf(f.info.what, sizeof f.info.what, "1 damaged block \"x\"");
    return f;
}

/* What format `name` writes for f (no_big_num as given); st gets file_facts' status. */
static void render(const char *name, const smn_file_facts *f, int no_big_num, char *out, size_t cap,
                   socmon_status *st)
{
    smn_sink *s = NULL;
    smn_output *o = NULL;
    smn_output_opts oo = {.sep = ',', .no_big_num = no_big_num};
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    assert_int_equal(smn_output_open(name, s, &oo, &o), SOCMON_OK);
    *st = smn_output_file_facts(o, f);
    if (*st == SOCMON_OK) {
        /* the facts are the whole document: only end may follow */
        assert_int_equal(smn_output_note(o, "x"), SOCMON_ESTATE);
        assert_int_equal(smn_output_end(o), SOCMON_OK);
    }
    snprintf(out, cap, "%s", smn_sink_memory_data(s, NULL));
    smn_output_free(o);
    smn_sink_close(s);
}

static void table_as_report_prints_it(void **state)
{
    (void)state;
    smn_file_facts f = facts();
    char got[2048];
    socmon_status st;
    render("table", &f, 0, got, sizeof got, &st);
    assert_int_equal(st, SOCMON_OK);
    assert_string_equal(got, "recording my, rec\n"
                             "  format version:  2\n"
                             "  samples:         1,234,567\n"
                             "  counters:        3\n"
                             "  blocks:          4,321\n"
                             "  file bytes:      1,911,111\n"
                             "  bytes per value: 0.50\n"
                             "  lost:            1 damaged block \"x\"\n"
                             "  clock:           real\n"
                             "  attachments:     1 (5,000 bytes: profile)\n");
    render("table", &f, 1, got, sizeof got, &st);
    assert_non_null(strstr(got, "  samples:         1234567\n"));
    f.info.complete = 1;
    render("table", &f, 0, got, sizeof got, &st);
    assert_non_null(strstr(got, "  lost:            nothing\n"));
}

static void csv_one_header_one_row(void **state)
{
    (void)state;
    smn_file_facts f = facts();
    char got[2048];
    socmon_status st;
    render("csv", &f, 0, got, sizeof got, &st);
    assert_int_equal(st, SOCMON_OK);
    assert_string_equal(got, "file,version,samples,counters,blocks,file_bytes,bytes_per_value,complete,blocks_lost,"
                             "bytes_lost,samples_lost,samples_lost_known,ns_lost,flush_ns,gaps,gap_samples,gap_ns,"
                             "lost,clock,attachments,attachment_bytes\n"
                             "\"my, rec\",2,1234567,3,4321,1911111,0.5000,0,1,200,20,0,20000,1000000000,1,4,4000,"
                             "\"1 damaged block \"\"x\"\"\",real,1,5000\n");
}

static void json_one_object(void **state)
{
    (void)state;
    smn_file_facts f = facts();
    char got[2048];
    socmon_status st;
    render("json", &f, 0, got, sizeof got, &st);
    assert_int_equal(st, SOCMON_OK);
    assert_string_equal(got, "{\n  \"file\": \"my, rec\",\n  \"version\": 2,\n  \"samples\": 1234567,\n"
                             "  \"counters\": 3,\n  \"blocks\": 4321,\n  \"file_bytes\": 1911111,\n"
                             "  \"bytes_per_value\": 0.5,\n  \"complete\": false,\n  \"blocks_lost\": 1,\n"
                             "  \"bytes_lost\": 200,\n  \"samples_lost\": 20,\n  \"samples_lost_known\": false,\n"
                             "  \"ns_lost\": 20000,\n  \"flush_ns\": 1000000000,\n  \"gaps\": 1,\n"
                             "  \"gap_samples\": 4,\n  \"gap_ns\": 4000,\n  \"lost\": \"1 damaged block \\\"x\\\"\",\n"
                             "  \"clock\": \"real\",\n  \"attachments\": 1,\n  \"attachment_bytes\": 5000\n}\n");
    /* a name that is not UTF-8 cannot be a JSON string: an error, not a broken document */
    f.file = "bad\xff";
    render("json", &f, 0, got, sizeof got, &st);
    assert_int_equal(st, SOCMON_EINVAL);
    assert_string_equal(got, "");
}

static void other_formats_refuse(void **state)
{
    (void)state;
    smn_file_facts f = facts();
    char got[256];
    socmon_status st;
    render("live", &f, 0, got, sizeof got, &st);
    assert_int_equal(st, SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "live"));
    assert_string_equal(got, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_as_report_prints_it),
        cmocka_unit_test(csv_one_header_one_row),
        cmocka_unit_test(json_one_object),
        cmocka_unit_test(other_formats_refuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
