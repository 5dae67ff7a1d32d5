/* Rules and their verdicts (src/results/rules.c, check.c): every limit form, comments, syntax
 * errors with their line numbers, and verdicts over diffs of stat-JSON runs written here: rise,
 * fall and both ways, absolute and relative, a baseline of 0, values of one run only, undefined
 * values, and a change beyond the limit that is not significant. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_files.h"
#include "socmon/check.h"

static socmon_rules *parse(const char *text)
{
    socmon_rules *r = NULL;
    assert_int_equal(socmon_rules_parse(text, strlen(text), "t.rules", &r), SOCMON_OK);
    return r;
}

static void limits(void **state)
{
    (void)state;
    socmon_rules *r = parse("# a comment\n\n  fn.*.cycles   +0  # trailing comment\n"
                            "cycles +0.5%\nipc -2%\n*.noc_bp* \xc2\xb1" "10%\nx +-3\ny -0.25\r\n\tz\t+7");
    assert_int_equal(socmon_rules_count(r), 7);
    assert_string_equal(socmon_rules_name(r), "t.rules");
    static const struct { unsigned line; const char *pat, *lim; socmon_limit_dir dir; double amount; int pct; } want[] = {
        {3, "fn.*.cycles", "+0", SOCMON_LIMIT_RISE, 0, 0},      {4, "cycles", "+0.5%", SOCMON_LIMIT_RISE, 0.5, 1},
        {5, "ipc", "-2%", SOCMON_LIMIT_FALL, 2, 1},             {6, "*.noc_bp*", "\xc2\xb1" "10%", SOCMON_LIMIT_BOTH, 10, 1},
        {7, "x", "+-3", SOCMON_LIMIT_BOTH, 3, 0},              {8, "y", "-0.25", SOCMON_LIMIT_FALL, 0.25, 0},
        {9, "z", "+7", SOCMON_LIMIT_RISE, 7, 0},
    };
    for (size_t i = 0; i < 7; i++) {
        const socmon_rule *u = socmon_rules_at(r, i);
        assert_int_equal(u->line, want[i].line);
        assert_string_equal(u->pattern, want[i].pat);
        assert_string_equal(u->limit, want[i].lim);
        assert_int_equal(u->dir, want[i].dir);
        assert_true(u->amount == want[i].amount);
        assert_int_equal(u->percent, want[i].pct);
    }
    assert_null(socmon_rules_at(r, 7));
    socmon_rules_free(r);
}

static void syntax_errors(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } bad[] = {
        {"a +1\nb\n", "t.rules:2: a rule is PATTERN LIMIT"},
        {"a +1\n\nb 5\n", "t.rules:3: a limit starts with +, - or"},
        {"a +x\n", "t.rules:1: the limit needs a number after its sign: '+x'"},
        {"a +1.5.2\n", "t.rules:1: not a limit"},
        {"a +5%%\n", "t.rules:1: not a limit"},
        {"a +1 b\n", "t.rules:1: a rule is PATTERN LIMIT; this word is one too many: 'b'"},
        {"# only comments\n\n", "t.rules: no rules"},
        {"", "t.rules: no rules"},
        {"tile[0 +1\n", "t.rules:1: the pattern has a '[' without its ']'"},
        {"a +inf\n", "t.rules:1: the limit needs a number after its sign: '+inf'"},
        {"a \xc2\n", "t.rules:1: a limit starts with"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        socmon_rules *r = NULL;
        assert_int_equal(socmon_rules_parse(bad[i].text, strlen(bad[i].text), "t.rules", &r), SOCMON_EINVAL);
        assert_null(r);
        if (!strstr(socmon_errmsg(), bad[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, socmon_errmsg(), bad[i].msg);
    }
    /* a NUL byte is no text; an escape byte in a message is escaped */
    socmon_rules *r = NULL;
    assert_int_equal(socmon_rules_parse("a +1\nb\0 +1\n", 11, "t.rules", &r), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "t.rules:2: a NUL byte"));
    assert_int_equal(socmon_rules_parse("a \x1b[31m\n", 8, "t.rules", &r), SOCMON_EINVAL);
    assert_null(strchr(socmon_errmsg(), '\x1b'));
    assert_int_equal(socmon_rules_load("/nonexistent/r.rules", &r), SOCMON_ENOENT);
    assert_int_equal(socmon_rules_parse(NULL, 0, NULL, &r), SOCMON_EINVAL);
}

static const socmon_check_item *item(const socmon_check *c, size_t rule, const char *key)
{
    const socmon_check_rule *r = socmon_check_at(c, rule);
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(socmon_diff_row_key(r->items[i].row), key) == 0)
            return &r->items[i];
    fail_msg("rule %zu matched no '%s'", rule, key);
    return NULL;
}

static void verdicts(void **state)
{
    (void)state;
    socmon_run *a = load("a.json", "{\"counters\": [{\"name\": \"up\", \"value\": 1000}, {\"name\": \"down\", \"value\": 1000},"
                                   "{\"name\": \"same\", \"value\": 7}, {\"name\": \"zero\", \"value\": 0},"
                                   "{\"name\": \"gone\", \"value\": 1}],"
                                   "\"metrics\": [{\"name\": \"ipc\", \"value\": 1.0}, {\"name\": \"u\", \"value\": null},"
                                   "{\"name\": \"lost\", \"value\": 2.0}]}");
    socmon_run *b = load("b.json", "{\"counters\": [{\"name\": \"up\", \"value\": 1010}, {\"name\": \"down\", \"value\": 970},"
                                   "{\"name\": \"same\", \"value\": 7}, {\"name\": \"zero\", \"value\": 1},"
                                   "{\"name\": \"new\", \"value\": 1}],"
                                   "\"metrics\": [{\"name\": \"ipc\", \"value\": 0.97}, {\"name\": \"u\", \"value\": null},"
                                   "{\"name\": \"lost\", \"value\": null}]}");
    socmon_diff *d = NULL;
    assert_int_equal(socmon_diff_new(a, b, NULL, &d), SOCMON_OK);
    socmon_rules *r = parse("up +10\n"          /* 0: +10 is allowed exactly */
                            "up +0.9%\n"        /* 1: +1 % is beyond */
                            "down +0\n"         /* 2: a fall passes a rise limit */
                            "down -2%\n"        /* 3: -3 % is beyond */
                            "down \xc2\xb1" "30\n"  /* 4: |-30| <= 30 */
                            "ipc -3%\n"         /* 5: -3 % (a real, within rounding) */
                            "zero +50%\n"       /* 6: from 0, any rise is beyond a % limit */
                            "same +0\n"         /* 7 */
                            "gone +100%\n"      /* 8: only in the baseline */
                            "new +100%\n"       /* 9: only in the new run */
                            "u +0\n"            /* 10: undefined on both: passes */
                            "lost +100%\n");    /* 11: defined in the baseline only */
    socmon_check *c = NULL;
    assert_int_equal(socmon_check_new(d, r, &c), SOCMON_OK);
    assert_int_equal(socmon_check_count(c), 12);
    int fails[12] = {0, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1};
    const char *keys[12] = {"up", "up", "down", "down", "down", "ipc", "zero", "same", "gone", "new", "u", "lost"};
    size_t nfailed = 0;
    for (size_t i = 0; i < 12; i++) {
        const socmon_check_item *it = item(c, i, keys[i]);
        if (it->failed != fails[i])
            fail_msg("rule %zu on %s: failed %d, want %d (%s)", i, keys[i], it->failed, fails[i], it->why ? it->why : "");
        assert_int_equal(socmon_check_at(c, i)->failed, (size_t)fails[i]);
        assert_true(!it->failed == !it->why);
        nfailed += fails[i];
    }
    assert_int_equal(socmon_check_failed(c), nfailed);
    assert_string_equal(item(c, 1, "up")->why, "+10 (+1.00%) beyond the limit +0.9%");
    assert_string_equal(item(c, 8, "gone")->why, "only in the baseline");
    assert_string_equal(item(c, 9, "new")->why, "only in the new run");
    assert_string_equal(item(c, 11, "lost")->why, "undefined in the new run");
    assert_ptr_equal(socmon_check_diff(c), d);
    socmon_check_free(c);
    socmon_rules_free(r);
    /* a rule that matches nothing is an error naming its line */
    r = parse("up +0\nnosuch* +0\n");
    assert_int_equal(socmon_check_new(d, r, &c), SOCMON_EINVAL);
    assert_null(c);
    assert_non_null(strstr(socmon_errmsg(), "t.rules:2: 'nosuch*' matches no value"));
    socmon_rules_free(r);
    socmon_diff_free(d);
    socmon_run_free(a);
    socmon_run_free(b);
}

/* noisy runs: beyond the limit but not significant passes; significant and beyond fails */
static void with_statistics(void **state)
{
    (void)state;
    socmon_run *a = load("sa.json", "{\"runs\": 10, \"counters\": [{\"name\": \"t\", \"value\": 100, \"mean\": 100.0, \"sd\": 10.0},"
                                    "{\"name\": \"f\", \"value\": 100, \"mean\": 100.0, \"sd\": 1.0}]}");
    socmon_run *b = load("sb.json", "{\"runs\": 10, \"counters\": [{\"name\": \"t\", \"value\": 105, \"mean\": 105.0, \"sd\": 10.0},"
                                    "{\"name\": \"f\", \"value\": 110, \"mean\": 110.0, \"sd\": 1.0}]}");
    socmon_diff *d = NULL;
    assert_int_equal(socmon_diff_new(a, b, NULL, &d), SOCMON_OK);
    socmon_rules *r = parse("t +1%\nf +1%\n");
    socmon_check *c = NULL;
    assert_int_equal(socmon_check_new(d, r, &c), SOCMON_OK);
    assert_int_equal(item(c, 0, "t")->row->significant, 0);
    assert_false(item(c, 0, "t")->failed);   /* +5 % is beyond +1 % but within the noise */
    assert_true(item(c, 1, "f")->failed);    /* +10 % with tight intervals */
    assert_int_equal(socmon_check_failed(c), 1);
    socmon_check_free(c);
    socmon_rules_free(r);
    socmon_diff_free(d);
    socmon_run_free(a);
    socmon_run_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits),
        cmocka_unit_test(syntax_errors),
        cmocka_unit_test(verdicts),
        cmocka_unit_test(with_statistics),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
