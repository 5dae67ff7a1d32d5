#!/bin/sh
# The run is assembled in one place (tests/arch/run_assembled.py), and the check catches what it
# exists for: a file outside the session that opens a recording's source and makes a pipeline,
# planted in a copy of the tree, fails it, and so does a listed file that no longer does.
set -eu
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
CHECK="$SRC/tests/arch/run_assembled.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 "$CHECK" "$SRC"
mkdir -p "$TMP/tree"
cp -R "$SRC/src" "$TMP/tree/src"
cat >>"$TMP/tree/src/export/document.c" <<'C'
static void planted(socmon_recording *r, socmon_source **s, socmon_pipeline **p)
{
    socmon_source_recording(r, s);
    socmon_pipeline_new(socmon_source_info_of(*s), NULL, p);
}
C
if python3 "$CHECK" "$TMP/tree" >"$TMP/out" 2>&1; then
    echo "run_assembled: a source and a pipeline planted in export/document.c passed"; exit 1
fi
grep -q "src/export/document.c: opens a source and a pipeline together" "$TMP/out"
rm -rf "$TMP/tree/src" && cp -R "$SRC/src" "$TMP/tree/src"
sed -i 's/socmon_pipeline_add(/socmon_pipeline_added(/g; s/cli_pipeline_new(/cli_pipeline_made(/g; s/socmon_pipeline_new(/socmon_pipeline_made(/g' "$TMP/tree/src/cli/cmd_stat.c"
if python3 "$CHECK" "$TMP/tree" >"$TMP/out" 2>&1; then
    echo "run_assembled: a listed file that no longer assembles a run passed"; exit 1
fi
grep -q "src/cli/cmd_stat.c: no longer assembles a run" "$TMP/out"
echo "run_assembled: ok"
