/* Where a document goes (dest.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export/dest.h"

int smn_format_is_exposition(const char *format)
{
    return format && (strcmp(format, "prometheus") == 0 || strcmp(format, "openmetrics") == 0);
}

socmon_status smn_dest_open(smn_dest_output *co, const smn_dest *d)
{
    co->sink = NULL;
    co->out = NULL;
    int whole = smn_format_is_exposition(d->format) || strcmp(d->format, "parquet") == 0;
    socmon_status st = d->path ? smn_sink_path(d->path, d->append ? SOCMON_PATH_APPEND : whole ? SOCMON_PATH_REPLACE
                                                                                         : SOCMON_PATH_PLAIN, 0, &co->sink)
                       : d->to_stderr ? smn_sink_file(stderr, "stderr", &co->sink)
                                      : smn_sink_file(stdout, "stdout", &co->sink);
    return st == SOCMON_OK ? smn_output_open(d->format, co->sink, &d->opts, &co->out) : st;
}

socmon_status smn_dest_open_whole(smn_dest_output *co, const smn_dest *d)
{
    co->sink = NULL;
    co->out = NULL;
    smn_output_opts oo = d->opts;
    oo.deltas = 0;
    socmon_status st = d->path ? smn_sink_path(d->path, SOCMON_PATH_REPLACE, 0, &co->sink)
                               : smn_sink_file(stdout, "stdout", &co->sink);
    return st == SOCMON_OK ? smn_output_open(d->format, co->sink, &oo, &co->out) : st;
}

socmon_status smn_dest_finish(smn_dest_output *co, socmon_status st)
{
    if (st == SOCMON_OK && co->out)
        st = smn_output_end(co->out);
    char msg[512] = "";
    if (st != SOCMON_OK) {
        snprintf(msg, sizeof msg, "%s", socmon_errmsg());
        smn_sink_cancel(co->sink, st);
    }
    smn_output_free(co->out);
    socmon_status cst = smn_sink_close(co->sink);
    co->out = NULL;
    co->sink = NULL;
    /* closing may set a message of its own: the first failure's is the one to keep */
    return st != SOCMON_OK ? socmon_fail(st, "%s", msg) : cst;
}

void smn_dest_discard(smn_dest_output *co)
{
    smn_output_free(co->out);
    smn_sink_close(co->sink);
    co->out = NULL;
    co->sink = NULL;
}

static socmon_status open_now(void *user, smn_output **out)
{
    smn_dest_doc *d = user;
    socmon_status st = smn_dest_open(&d->co, &d->dest);
    *out = d->co.out;
    return st;
}

socmon_status smn_dest_doc_open(smn_dest_doc *d, const smn_dest *dest, smn_feed_opts *fo)
{
    memset(d, 0, sizeof *d);
    d->dest = *dest;
    socmon_status st = SOCMON_OK;
    if (fo->doc == SOCMON_DOC_TOTALS) {
        fo->open = open_now;
        fo->open_user = d;
    } else {
        st = smn_dest_open(&d->co, &d->dest);
    }
    return st == SOCMON_OK ? smn_feed_new(d->co.out, fo, &d->feed) : st;
}

socmon_status smn_dest_doc_finish(smn_dest_doc *d, socmon_status st)
{
    smn_feed_free(d->feed);
    d->feed = NULL;
    return d->co.sink ? smn_dest_finish(&d->co, st) : st;
}

#define COPY_MAX ((size_t)1 << 30)

socmon_status smn_dest_copy_file(const char *to, const char *from)
{
    FILE *fp = fopen(from, "rb");
    struct stat sb;
    int err = !fp ? errno : fstat(fileno(fp), &sb) != 0 ? errno : 0;
    size_t size = !err ? (size_t)sb.st_size : 0;
    char *buf = !err && size <= COPY_MAX ? malloc(size + 1) : NULL;
    size_t len = buf ? fread(buf, 1, size + 1, fp) : 0;
    if (!err && buf && ferror(fp))
        err = errno ? errno : EIO;
    int more = !err && (size > COPY_MAX || len > size);   /* over the cap, or it grew while read */
    if (fp)
        fclose(fp);
    smn_sink *s = NULL;
    socmon_status st = err ? socmon_fail(SOCMON_EIO, "reading %s: %s", from, strerror(err))
                       : more ? socmon_fail(SOCMON_EINVAL, "%s is over 1 GiB or still growing", from)
                       : !buf ? socmon_fail(SOCMON_ENOMEM, "out of memory")
                              : smn_sink_path(to, SOCMON_PATH_REPLACE, 0, &s);
    if (st == SOCMON_OK)
        st = smn_sink_write(s, buf, len);
    if (st != SOCMON_OK && s)
        smn_sink_cancel(s, st);
    socmon_status cst = s ? smn_sink_close(s) : SOCMON_OK;
    free(buf);
    return st == SOCMON_OK ? cst : st;
}
