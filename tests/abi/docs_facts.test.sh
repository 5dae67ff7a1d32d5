#!/bin/sh
# Facts the docs state that the tree can check (review finding 10):
# DEVELOPERS.md names every layer directory under src/; docs/install.md's
# static-library line names every library `pkg-config --static` adds; the man
# page's `list` entry covers `list NAME`.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
: "${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}"

layers=$(grep -A1 -- '- `src/<layer>/`' "$SOCMON_SRC/DEVELOPERS.md")
for d in "$SOCMON_SRC"/src/*/; do
    n=$(basename "$d")
    printf '%s' "$layers" | grep -q "\\b$n\\b" && ok || bad "DEVELOPERS.md's src/<layer>/ list lacks $n"
done
printf '%s' "$layers" | grep -q "vendor/" && bad "DEVELOPERS.md still lists vendor/" || ok

row=$(grep '^| `lib/libsocmon.a`' "$SOCMON_SRC/docs/install.md")
[ -n "$row" ] && ok || bad "docs/install.md has no lib/libsocmon.a row"
libs=$(PKG_CONFIG_PATH="$SOCMON_BUILD" pkg-config --static --libs-only-l socmon) || bad "pkg-config socmon.pc"
for l in $libs; do
    [ "$l" = -lsocmon ] && continue
    printf '%s' "$row" | grep -q -- "$l\\b" && ok || bad "docs/install.md: libsocmon.a row lacks $l"
done

sed 's/\\-/-/g' "$SOCMON_SRC/docs/socmon.1" | sed -n '/^\.B list$/,/^\.TP$/p' | grep -q '^\.IR* NAME' && ok ||
    bad "docs/socmon.1: the list entry does not describe 'list NAME'"
finish docs_facts
