#!/bin/sh
# The run is assembled in one place (tests/arch/run_assembled.py), and the check catches what it
# exists for: a file outside the session that opens a recording's source and makes a pipeline,
# planted in a copy of the tree, fails it, and so does a command that opens a target run and
# adds a consumer to a pipeline of its own.
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
cat >>"$TMP/tree/src/cli/cmd_stat.c" <<'C'
static void planted(const smn_target_want *w, smn_target_run **r, socmon_pipeline **p)
{
    smn_target_run_open(w, NULL, NULL, r);
    socmon_pipeline_add(*p, NULL);
}
C
if python3 "$CHECK" "$TMP/tree" >"$TMP/out" 2>&1; then
    echo "run_assembled: a target run and a consumer planted in cli/cmd_stat.c passed"; exit 1
fi
grep -q "src/cli/cmd_stat.c: opens a source and a pipeline together" "$TMP/out"
echo "run_assembled: ok"
