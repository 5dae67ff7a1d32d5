/* Source lines from an ELF whose DWARF string section lacks its final NUL (issue 37, item 17):
 * libdw takes a string at an offset as running to the next NUL, so in such a section it read past
 * the section's heap buffer (AddressSanitizer: heap-buffer-overflow in dwarf_getsrclines, through
 * report --by-line and --annotate). socmon checks the string sections before libdw sees them:
 * such a file gives rows per instruction and a note naming the section, as a stripped one does.
 * The ELF is the DWARF fuzzer's seed fuzz/corpus/fuzz_dwarf_lines/nonul_line_str.elf: tiny_g.elf
 * with the last byte of .debug_line_str ("/tmp\0tiny.c\0") made 'X'. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "socmon/profile.h"

static char elf_good[512], elf_bad[512];

/* A profile of tiny_g.elf's 13 instructions (f at 0x100080, _start's loop at 0x10009c), one cycle
 * each. */
static socmon_profile *profile(void)
{
    socmon_profile *p = NULL;
    assert_int_equal(socmon_profile_new(1, 3, 13, 1, 0, &p), SOCMON_OK);
    p->events[0] = strdup("cycles");
    p->widths[0] = 64;
    p->funcs[0] = (socmon_profile_func){.name = strdup("_unknown")};
    p->funcs[1] = (socmon_profile_func){.name = strdup("f"), .lo = 0x100080, .hi = 0x10009c};
    p->funcs[2] = (socmon_profile_func){.name = strdup("_start"), .lo = 0x10009c, .hi = 0x10009e};
    static const uint32_t pcs[13] = {0x100080, 0x100082, 0x100086, 0x100088, 0x10008a, 0x10008c, 0x10008e,
                                     0x100090, 0x100092, 0x100096, 0x100098, 0x10009a, 0x10009c};
    for (size_t i = 0; i < p->ninsns; i++) {
        p->insns[i].pc = pcs[i];
        p->insns[i].func = i < 12 ? 1 : 2;
        p->insns[i].v[0] = 1;
    }
    p->nodes[0].v[0] = p->total[0] = p->ninsns;
    p->program = strdup(elf_good);
    return p;
}

static void good_strings_give_lines(void **state)
{
    (void)state;
    socmon_profile *p = profile();
    socmon_profile_lines *l = NULL;
    assert_int_equal(socmon_profile_lines_new(p, elf_good, &l), SOCMON_OK);
    assert_null(l->note);
    int tiny_c = 0;
    for (size_t i = 0; i < l->n; i++)
        tiny_c |= strstr(l->rows[i].file, "tiny.c") != NULL && l->rows[i].line > 0;   /* /tmp/tiny.c */
    assert_true(tiny_c);
    socmon_profile_lines_free(l);
    socmon_profile_free(p);
}

static void no_final_nul_gives_a_note(void **state)
{
    (void)state;
    socmon_profile *p = profile();
    socmon_profile_lines *l = NULL;
    assert_int_equal(socmon_profile_lines_new(p, elf_bad, &l), SOCMON_OK);
    assert_non_null(l->note);
    if (!strstr(l->note, ".debug_line_str does not end with a NUL byte"))
        fail_msg("the note does not name the section: %s", l->note);
    uint64_t sum = 0;
    for (size_t i = 0; i < l->n; i++) {
        assert_true(l->rows[i].pc != UINT64_MAX);   /* rows per instruction, no line */
        sum += l->rows[i].v[0];
    }
    assert_int_equal(sum, p->total[0]);   /* every count still there */
    socmon_profile_lines_free(l);

    socmon_profile_annotation *a = NULL;
    assert_int_equal(socmon_profile_annotate(p, "f", elf_bad, &a), SOCMON_OK);
    assert_non_null(a->note);
    assert_non_null(strstr(a->note, ".debug_line_str"));
    for (size_t i = 0; i < a->n; i++)
        assert_null(a->rows[i].file);
    socmon_profile_annotation_free(a);
    socmon_profile_free(p);
}

int main(void)
{
    const char *src = getenv("SOCMON_SRC");
    if (!src)
        src = ".";
    snprintf(elf_good, sizeof elf_good, "%s/fuzz/corpus/fuzz_dwarf_lines/tiny_g.elf", src);
    snprintf(elf_bad, sizeof elf_bad, "%s/fuzz/corpus/fuzz_dwarf_lines/nonul_line_str.elf", src);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_strings_give_lines),
        cmocka_unit_test(no_final_nul_gives_a_note),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
