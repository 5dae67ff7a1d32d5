# Sourced by the browser tests (tests/web/*.test.sh) after tests/support/expect.sh: finds node,
# playwright-core (web/node_modules, from scripts/install-deps.sh) and Debian's chromium, and
# skips the test (exit 77, ctest's SKIP_RETURN_CODE for tests/web/) only when one is missing;
# CI installs them all, so there the test always runs. ART is where screenshots go.
WEB_MODULES=${SOCMON_WEB_MODULES:-$SOCMON_SRC/web/node_modules}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export SOCMON_WEB_MODULES=$WEB_MODULES CHROMIUM
skip() { echo "$1: SKIPPED: $2"; exit 77; }
web_require() {
    command -v node >/dev/null 2>&1 || skip "$1" "node is not installed (sh scripts/install-deps.sh)"
    [ -d "$WEB_MODULES/playwright-core" ] || skip "$1" "$WEB_MODULES/playwright-core is missing (sh scripts/install-deps.sh)"
    [ -x "$CHROMIUM" ] || skip "$1" "$CHROMIUM is missing (sh scripts/install-deps.sh installs Debian's chromium)"
}
ART=${SOCMON_BUILD:-$TMP}/artifacts
mkdir -p "$ART"
CHECK="node $SOCMON_SRC/tests/web/check_page.js"
