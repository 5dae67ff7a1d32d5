/* Fuzzes target specs ("NAME:key=value,..."): the spec parser (src/targets/spec.c: a parsed
 * spec's text parses back to the same name and options; a combined spec's members and names),
 * then opening, option checks and the targets' own option parsing. Specs naming files are not
 * opened: the fuzzer must not read arbitrary paths of the machine it runs on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/socmon.h"

/* The parser's own laws on any text. */
static void spec_laws(const char *text)
{
    char buf[300], name[64];
    size_t members = socmon_spec_members(text);
    size_t semis = 0;
    for (const char *p = text; *p; p++)
        semis += *p == ';';
    if (members != (*text ? semis + 1 : 0))
        abort();
    for (size_t i = 0; i < members; i++)
        if (!socmon_spec_member(text, i, buf, sizeof buf))
            abort();
    if (socmon_spec_member(text, members, buf, sizeof buf) && *text)
        abort();
    socmon_spec_name_of(text, name, sizeof name);
    if (strchr(name, ':') || strchr(name, ';'))
        abort();
    socmon_spec *s = NULL;
    if (socmon_spec_parse(text, &s) != SOCMON_OK) {
        if (s || !*socmon_errmsg())
            abort();
        return;
    }
    char *t = socmon_spec_text(s);
    socmon_spec *again = NULL;
    if (!t || socmon_spec_parse(t, &again) != SOCMON_OK || strcmp(socmon_spec_name(s), socmon_spec_name(again)))
        abort();
    const socmon_kv *a = NULL, *b = NULL;
    size_t na = socmon_spec_options(s, &a), nb = socmon_spec_options(again, &b);
    if (na != nb)
        abort();
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i].key, b[i].key) || strcmp(a[i].value, b[i].value) || !socmon_spec_get(s, a[i].key))
            abort();
    /* a value set whole keeps its ',' and '=', and an extra stays out of the text */
    if (nb > 60)   /* no room for two more options */
        goto out;
    if (socmon_spec_set(again, "k", "a,b=c") != SOCMON_OK || strcmp(socmon_spec_get(again, "k"), "a,b=c") ||
        socmon_spec_set_extra(again, "x_extra", "1") != SOCMON_OK)
        abort();
    char *t2 = socmon_spec_text(again);
    socmon_spec *third = NULL;
    if (!t2 || socmon_spec_parse(t2, &third) != SOCMON_OK)
        abort();
    if (!socmon_spec_get(s, "x_extra") && socmon_spec_get(third, "x_extra"))   /* (the spec's own: kept) */
        abort();
    socmon_spec_free(third);
    free(t2);
out:
    free(t);
    socmon_spec_free(again);
    socmon_spec_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256)
        return 0;
    char *spec = malloc(size + 1);
    if (!spec)
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    if (strlen(spec) == size)
        spec_laws(spec);
    if (!strchr(spec, '/') && !strstr(spec, "devmem") && !strstr(spec, "trace")) {
        socmon_target *t = NULL;
        if (socmon_target_open(spec, &t) == SOCMON_OK) {
            int done = 0;
            socmon_target_advance(t, 1000, &done);
            socmon_target_close(t);
        } else if (!*socmon_errmsg()) {
            abort(); /* every failure must explain itself */
        }
    }
    free(spec);
    return 0;
}
