/* socmon serve --remote: the live view fed by a collector (a 'socmon agent' elsewhere). */
#include "cli/serve.h"
#include "core/error.h"

int serve_remote(cli_opts *o)
{
    (void)o;
    return cli_error("serve", socmon_fail(SOCMON_ENOTSUP, "--remote needs the collector (issue 12, not merged yet)"));
}
