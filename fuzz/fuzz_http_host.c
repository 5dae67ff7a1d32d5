/* Fuzzes the HTTP server's Host check and its --http-host names (src/agent/http_access.c): the
 * input is "NAMES\nHOST" (NAMES: what --http-host was given; no newline: no names). Names that
 * do not parse must fail with a message; a Host is judged the same whatever the case of its
 * letters (DNS names are case-insensitive, and so are the IPv6 digits), and the same with a port
 * after it as without. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve/http_internal.h"

static int judge(const http_access *a, const char *host)
{
    int r = http_host_allowed(a, host);
    if (r != http_host_allowed(a, host))   /* no state */
        abort();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *host = strchr(text, '\n');
    const char *names = NULL;
    if (host) {
        *host++ = '\0';
        names = text;
    } else {
        host = text;
    }
    http_access a;
    socmon_status st = http_access_init(&a, NULL, names ? &names : NULL, names ? 1 : 0);
    if (st != SOCMON_OK) {
        if (!*socmon_errmsg())
            abort();
        free(text);
        return 0;
    }
    int r = judge(&a, host);
    char *up = strdup(host);
    if (up) {
        for (char *p = up; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        if (judge(&a, up) != r)
            abort();
        free(up);
    }
    /* HOST:PORT is judged as HOST (a name or an IP literal without a port of its own) */
    size_t n = strlen(host);
    char *withport = malloc(n + 8);
    if (withport && n && !strchr(host, ':') && host[n - 1] != '.') {
        memcpy(withport, host, n);
        memcpy(withport + n, ":8080", 6);
        if (judge(&a, withport) != r)
            abort();
    }
    free(withport);
    http_access_free(&a);
    free(text);
    return 0;
}
