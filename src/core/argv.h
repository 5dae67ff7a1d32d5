/* Command-line values by table: what an option sets in a struct of options (a string, a flag,
 * a constant, a number in a range, a duration), with the message for a bad value, so a parser
 * is its table and the few options with a rule of their own. And the one duration syntax
 * ("200us", "1.5ms", "2s", "100ns"; a bare number is milliseconds, as perf -I). */
#ifndef SOCMON_CORE_ARGV_H
#define SOCMON_CORE_ARGV_H

#include <stddef.h>
#include <stdint.h>

/* "200us" -> 200000: 0, or -1 for no duration of at least 1 ns (and at most 1e18 ns). */
int smn_parse_duration(const char *s, uint64_t *ns);

typedef enum smn_arg_kind {
    SMN_ARG_STR,        /* the argument itself (const char *) */
    SMN_ARG_FLAG,       /* 1 (int) */
    SMN_ARG_CONST,      /* `value` (const char *) */
    SMN_ARG_NUM,        /* a whole number in lo..hi (uint64_t or unsigned, by size) */
    SMN_ARG_DURATION    /* smn_parse_duration's ns, in lo..hi when hi is set */
} smn_arg_kind;

typedef struct smn_arg_action {
    int val;                     /* the getopt value it acts on */
    smn_arg_kind kind;
    size_t off, size;            /* the field */
    const char *value;           /* SMN_ARG_CONST */
    int base;                    /* SMN_ARG_NUM: 10, or 0 (hex too) */
    unsigned long long lo, hi;   /* SMN_ARG_NUM, SMN_ARG_DURATION: the range (0, 0: any) */
    const char *what;            /* the message for a bad value: NUM "<what>, got 'V'",
                                    DURATION "bad <what> 'V' (<expect>)" */
    const char *expect;
    size_t set_off;              /* SMN_ARG_DURATION: an int set to 1 when given (0: none) */
} smn_arg_action;

/* Applies every action of getopt value val with argument arg to out: 1 if val has some, 0 if
 * none, or -1 with the message for a bad value in err. */
int smn_arg_apply(const smn_arg_action *actions, size_t n, void *out, int val, const char *arg, char *err,
                  size_t errlen);

/* A comma-separated list (-e, -M) of which every item has text: 0, or -1 with which item is
 * empty in err ("item 2 is empty (between two commas)"). */
int smn_arg_list_check(const char *list, char *err, size_t errlen);

#endif
