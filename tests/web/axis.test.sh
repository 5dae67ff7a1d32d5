#!/bin/sh
# The charts' tick and x-range hooks (web/src/axis.js): in node against uPlot's tick loop, and in
# Debian's chromium with the real uPlot on the one-instant range where uPlot's own ticks never end
# (tests/web/axis_check.js says what it checks; uPlot's own failure there, about 15 s of CPU, runs
# again only for another uPlot than the pinned 1.6.32, or with --canary).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/web/web_env.sh"
web_require axis
node "$SOCMON_SRC/tests/web/axis_check.js" && ok || bad "axis_check.js (above says which check)"
finish axis
