/* Escaping outside text for a terminal (core/text.h): printable UTF-8 stays as it is; C0
 * controls, DEL, C1 controls and bytes that are not UTF-8 become \xNN; the result is cut
 * before an escape that does not fit, never inside one, and the length needed is returned. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

static void check(const char *in, const char *want)
{
    char out[256];
    assert_int_equal(smn_text_escape(out, sizeof out, in), strlen(want));
    assert_string_equal(out, want);
    char *d = smn_text_escape_dup(in);
    assert_non_null(d);
    assert_string_equal(d, want);
    free(d);
    assert_int_equal(smn_text_clean(in), strcmp(in, want) == 0);
}

static void test_escapes_what_a_terminal_obeys(void **state)
{
    (void)state;
    check("plain text, 100%", "plain text, 100%");
    check("back\\slash", "back\\slash");                   /* kept: only control bytes change */
    check("\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80", "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80");  /* UTF-8 */
    check("a\x1b[2Jb", "a\\x1b[2Jb");
    check("line\nFORGED\r\n", "line\\x0aFORGED\\x0d\\x0a");
    check("\t\x7f\x01", "\\x09\\x7f\\x01");
    check("csi \xc2\x9b" "31m", "csi \\xc2\\x9b31m");         /* U+009B, a C1 control */
    check("raw \x9b", "raw \\x9b");                          /* not UTF-8 */
    check("\xc0\xaf \xed\xa0\x80", "\\xc0\\xaf \\xed\\xa0\\x80"); /* overlong, surrogate */
    check("cut \xe2\x82", "cut \\xe2\\x82");
    check("", "");
    char *d = smn_text_escape_dup(NULL);
    assert_string_equal(d, "");
    free(d);
}

static void test_cut_between_escapes(void **state)
{
    (void)state;
    char out[8];
    /* "ab\x1b" needs "ab\\x1b" (6) + "cd": 8 with the NUL would not hold "c" and "d" too */
    assert_int_equal(smn_text_escape(out, sizeof out, "ab\x1b" "cd"), 8);
    assert_string_equal(out, "ab\\x1bc");
    char small[5];
    assert_int_equal(smn_text_escape(small, sizeof small, "a\x1b"), 5);
    assert_string_equal(small, "a");   /* "\x1b" does not fit after "a": not half of it */
    assert_int_equal(smn_text_escape(NULL, 0, "\n\n"), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes_what_a_terminal_obeys),
        cmocka_unit_test(test_cut_between_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
