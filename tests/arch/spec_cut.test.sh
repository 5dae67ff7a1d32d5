#!/bin/sh
# A target spec is cut only in src/targets/spec.c (tests/arch/spec_cut.py), and the check catches
# what it exists for: a file that cuts a spec's name at ':' by hand, or joins argv with 0x1f,
# planted in a copy of the tree, fails it.
set -eu
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
CHECK="$SRC/tests/arch/spec_cut.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 "$CHECK" "$SRC"
mkdir -p "$TMP/tree"
cp -R "$SRC/src" "$TMP/tree/src"
cat >>"$TMP/tree/src/export/fmt_prom.c" <<'C'
static int planted(const char *spec) { return (int)strcspn(spec, ":"); }
C
if python3 "$CHECK" "$TMP/tree" >"$TMP/out" 2>&1; then
    echo "spec_cut: a strcspn(spec, \":\") planted in export/fmt_prom.c passed"; exit 1
fi
grep -q "src/export/fmt_prom.c:.*cuts a string as a target spec is cut" "$TMP/out"
rm -rf "$TMP/tree/src" && cp -R "$SRC/src" "$TMP/tree/src"
printf '%s\n' "#define JOIN '\\x1f'" >>"$TMP/tree/src/analysis/target_run.c"
if python3 "$CHECK" "$TMP/tree" >"$TMP/out" 2>&1; then
    echo "spec_cut: a 0x1f separator planted in analysis/target_run.c passed"; exit 1
fi
echo "spec_cut: ok"
