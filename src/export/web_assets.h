/* The web page's files, compiled into the library at build time by cmake/embed_web.cmake
 * (build/generated/web_assets.c): web/src/index.html, socmon.js, socmon.css and uPlot's
 * uPlot.iife.min.js and uPlot.min.css from web/node_modules/uplot/dist (installed by
 * scripts/install-deps.sh; never committed). The live server (GET /, GET /assets/NAME) and the
 * HTML report (export/fmt_html.c, which inlines them) read them from here, so both show the same
 * page and a running socmon needs no files beside it. Hidden: not part of the public API. */
#ifndef SOCMON_EXPORT_WEB_ASSETS_H
#define SOCMON_EXPORT_WEB_ASSETS_H

#include <stddef.h>

/* The asset called name ("index.html", "uPlot.iife.min.js", ...): its bytes (not
 * NUL-terminated: *len of them), and in *mime (if not NULL) its Content-Type. NULL for an
 * unknown name (then *len is 0). */
const unsigned char *smn_web_asset(const char *name, size_t *len, const char **mime);

/* The name of asset i, or NULL past the last (for listings and tests). */
const char *smn_web_asset_name(size_t i);

/* 1 when the page is compiled in; 0 in a library configured with -DSOCMON_WEB=OFF (a board or
 * air-gapped build without npm): then there are no assets at all. */
int smn_web_built(void);

/* SOCMON_OK when the page is compiled in; else SOCMON_ENOTSUP with a message that names WHAT
 * (e.g. "--html") and how to get a socmon with the page. */
#include "socmon/status.h"
socmon_status smn_web_require(const char *what);

#endif
