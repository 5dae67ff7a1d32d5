/* Gating changes: rules over a diff (socmon check; docs/compare.md).
 *
 * A rules file has one rule a line, `PATTERN LIMIT`; `#` starts a comment, blank lines are
 * skipped. PATTERN is a glob over the keys of a diff's rows (socmon_value.key: counter names,
 * `instance.metric` or `metric`, `fn.FUNCTION.EVENT`). LIMIT is the change allowed:
 *   +N, +N%    a rise beyond it fails (falls are fine): +0 allows no rise at all
 *   -N, -N%    a fall beyond it fails (rises are fine)
 *   ±N, ±N%    (also +-N) a change beyond it either way fails
 * N is absolute (in the value's unit) or, with %, relative to the baseline. Where a side has
 * repeat statistics (stat -r) a change beyond the limit fails only when it is also significant. */
#ifndef SOCMON_CHECK_H
#define SOCMON_CHECK_H

#include "socmon/export.h"

#include <stddef.h>
#include "socmon/compare.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef enum socmon_limit_dir {
    SOCMON_LIMIT_RISE,            /* +N */
    SOCMON_LIMIT_FALL,            /* -N */
    SOCMON_LIMIT_BOTH             /* ±N */
} socmon_limit_dir;

typedef struct socmon_rule {
    unsigned line;                /* in the rules file, 1-based */
    const char *pattern;
    const char *limit;            /* as written ("+0.5%") */
    socmon_limit_dir dir;
    double amount;                /* >= 0 */
    int percent;                  /* amount is a percentage of the baseline */
} socmon_rule;

typedef struct socmon_rules socmon_rules;

/* Parses rules from text (len bytes, need not end in NUL); name is the file's name for messages.
 * A syntax error is SOCMON_EINVAL with "NAME:LINE: ..." naming what is wrong. */
socmon_status socmon_rules_parse(const char *text, size_t len, const char *name, socmon_rules **out);
/* socmon_rules_parse of a file's contents. */
socmon_status socmon_rules_load(const char *path, socmon_rules **out);
void socmon_rules_free(socmon_rules *r);
size_t socmon_rules_count(const socmon_rules *r);
/* The name given to parse (a rules file's path). */
const char *socmon_rules_name(const socmon_rules *r);
const socmon_rule *socmon_rules_at(const socmon_rules *r, size_t i);

/* One row a rule matched, and its verdict. */
typedef struct socmon_check_item {
    const socmon_diff_row *row;
    int failed;
    const char *why;              /* a failed item: what broke the limit ("+312 (+4.10%) beyond
                                     the limit +0", "only in the baseline"); else NULL */
} socmon_check_item;

typedef struct socmon_check_rule {
    const socmon_rule *rule;
    size_t n;                     /* rows matched (0: the rule matched nothing) */
    const socmon_check_item *items;
    size_t failed;                /* items failed */
} socmon_check_rule;

typedef struct socmon_check socmon_check;

/* Applies rules to a diff (both borrowed). A rule that matches no row of the diff is an error
 * naming its line (SOCMON_EINVAL): a gate that checks nothing must not pass silently. */
socmon_status socmon_check_new(const socmon_diff *d, const socmon_rules *r, socmon_check **out);
void socmon_check_free(socmon_check *c);
size_t socmon_check_count(const socmon_check *c);                 /* = the rules' count */
const socmon_check_rule *socmon_check_at(const socmon_check *c, size_t i);
size_t socmon_check_failed(const socmon_check *c);                /* rules with a failed item */
const socmon_diff *socmon_check_diff(const socmon_check *c);

SOCMON_END_DECLS

#endif
