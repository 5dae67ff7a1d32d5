/* Starting the live view's HTTP server from command-line options (serve.h): the token file,
 * the address, the port file that lets scripts and tests ask for port 0 without races. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/serve.h"
#include "core/error.h"

#define TOKEN_MAX 4096

/* The first line of path, 1..4095 bytes; a regular file others can read is refused (the token
 * would not be a secret). */
static socmon_status read_token(const char *path, char *buf)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return socmon_fail(errno == ENOENT ? SOCMON_ENOENT : SOCMON_EIO, "token file '%s': %s", path,
                           strerror(errno));
    struct stat sb;
    if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 077)) {
        fclose(fp);
        return socmon_fail(SOCMON_EPERM, "token file '%s' can be read by others (mode %03o): chmod 600 it", path,
                           (unsigned)(sb.st_mode & 0777));
    }
    char *ok = fgets(buf, TOKEN_MAX, fp);
    fclose(fp);
    size_t n = ok ? strcspn(buf, "\r\n") : 0;
    if (ok)
        buf[n] = '\0';
    if (n == 0)
        return socmon_fail(SOCMON_EINVAL, "token file '%s': the first line is empty", path);
    if (n >= TOKEN_MAX - 1)
        return socmon_fail(SOCMON_EINVAL, "token file '%s': the token is longer than %d bytes", path,
                           TOKEN_MAX - 2);
    return SOCMON_OK;
}

/* "PORT\n" into path through a temporary file renamed over it: a reader never sees half. */
static socmon_status write_port_file(const char *path, unsigned port)
{
    size_t len = strlen(path) + 16;
    char *tmp = malloc(len);
    if (!tmp)
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    snprintf(tmp, len, "%s.tmp%ld", path, (long)getpid());
    FILE *fp = fopen(tmp, "w");
    socmon_status st = SOCMON_OK;
    if (!fp || fprintf(fp, "%u\n", port) < 0 || fclose(fp) != 0 || rename(tmp, path) != 0) {
        st = socmon_fail(SOCMON_EIO, "port file '%s': %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return st;
}

int serve_http_start(serve_http *s, socmon_live *lv, const cli_opts *o, const char *who)
{
    char what[64], *token = NULL;
    snprintf(what, sizeof what, "%s: --http", who);
    socmon_status st = SOCMON_OK;
    if (o->token_file) {
        if (!(token = malloc(TOKEN_MAX)))
            return cli_error(who, socmon_fail(SOCMON_ENOMEM, "out of memory"));
        if ((st = read_token(o->token_file, token)) != SOCMON_OK) {
            free(token);
            return cli_error(who, st);
        }
    }
    socmon_http_opts ho = {.listen = o->http ? o->http : SERVE_DEFAULT_ADDR ":" SERVE_DEFAULT_PORT,
                           .token = token, .who = who};
    st = socmon_http_start(lv, &ho, &s->h);
    if (token) {
        memset(token, 0, TOKEN_MAX);
        free(token);
    }
    if (st != SOCMON_OK)
        return cli_error(what, st);
    if (o->port_file && (st = write_port_file(o->port_file, socmon_http_port(s->h))) != SOCMON_OK) {
        serve_http_stop(s);
        return cli_error(who, st);
    }
    fprintf(stderr, "%s: serving %s\n", who, socmon_http_url(s->h));
    return 0;
}

void serve_http_stop(serve_http *s)
{
    socmon_http_stop(s->h);
    s->h = NULL;
}
