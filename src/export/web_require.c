/* What a socmon built without its web page (-DSOCMON_WEB=OFF) says when asked for it. */
#include "core/error.h"
#include "export/web_assets.h"

socmon_status smn_web_require(const char *what)
{
    if (smn_web_built())
        return SOCMON_OK;
    return socmon_fail(SOCMON_ENOTSUP,
                       "%s: this socmon was built without its web page (-DSOCMON_WEB=OFF); the text formats "
                       "(table, csv, json, perfetto, prometheus) and /metrics work; for the page, build with "
                       "-DSOCMON_WEB=ON (needs npm: docs/install.md)",
                       what ? what : "the web page");
}
