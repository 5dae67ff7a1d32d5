/* The --help texts (help.h). */
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "cli/serve.h"
#include "serve/net.h"

#define STR_(x) #x
#define STR(x) STR_(x)

void cli_help_write(FILE *fp, const char *text, size_t len)
{
    static const struct { const char *token, *value; } values[] = {
        {"@SOCMON_DEFAULT_TARGET@", SOCMON_DEFAULT_TARGET},
        {"@NET_DEFAULT_PORT@", STR(NET_DEFAULT_PORT)},
        {"@SERVE_DEFAULT_PORT@", SERVE_DEFAULT_PORT},
    };
    const char *end = text + len;
    while (text < end) {
        const char *at = memchr(text, '@', (size_t)(end - text));
        size_t k = 0, n = sizeof values / sizeof values[0];
        if (!at)
            at = end;
        fwrite(text, 1, (size_t)(at - text), fp);
        if (at == end)
            return;
        while (k < n && strncmp(at, values[k].token, strlen(values[k].token)) != 0)
            k++;
        fputs(k < n ? values[k].value : "@", fp);
        text = at + (k < n ? strlen(values[k].token) : 1);
    }
}

const char *cli_help_option(const char *key, size_t *len)
{
    const char *all = cli_help_file("options"), *p = all;
    size_t klen = strlen(key);
    while (p && (p = strstr(p, "@ ")) != NULL) {
        if ((p == all || p[-1] == '\n') && strncmp(p + 2, key, klen) == 0 && p[2 + klen] == '\n') {
            const char *text = p + 3 + klen, *next = strstr(text, "\n@ ");
            *len = next ? (size_t)(next - text) : strlen(text) - (text[strlen(text) - 1] == '\n');
            return text;
        }
        p += 2;
    }
    return NULL;
}

void cli_help_intro(FILE *fp, const char *cmd)
{
    const char *text = cli_help_file(cmd);
    if (text)
        cli_help_write(fp, text, strlen(text));
}
