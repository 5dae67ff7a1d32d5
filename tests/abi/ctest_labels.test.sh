#!/bin/sh
# The ctest labels of this build (CMakeLists.txt, docs/testing.md): every test labelled, every cmocka
# test unit (or slow), no script unit, `ctest -N -L unit` at least 90 tests (tests/abi/ctest_labels.py).
# The checker must also catch what it exists for: a copy of the test list with a script labelled unit,
# and one with a cmocka test stripped of its labels, must each fail.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
BUILD=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}
CTEST=${CTEST:-ctest}
CHECK="python3 $SOCMON_SRC/tests/abi/ctest_labels.py"

"$CTEST" --test-dir "$BUILD" --show-only=json-v1 >"$TMP/tests.json" || bad "ctest --show-only=json-v1"
"$CTEST" --test-dir "$BUILD" -N -L unit >"$TMP/unit.txt" || bad "ctest -N -L unit"
n=$(sed -n 's/^Total Tests: *//p' "$TMP/unit.txt")
if grep -q ' sh_' "$TMP/unit.txt"; then bad "ctest -N -L unit lists a script: $(grep ' sh_' "$TMP/unit.txt")"; else ok; fi
if $CHECK "$SOCMON_SRC" "$TMP/tests.json" "${n:-0}"; then ok; else bad "the labels (above)"; fi

# planted: a script labelled unit; a cmocka test without labels
python3 - "$TMP/tests.json" "$TMP/script_unit.json" "$TMP/unlabelled.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def relabel(name, value, out):
    e = json.loads(json.dumps(d))
    t = next(t for t in e["tests"] if t["name"] == name)
    t["properties"] = [p for p in t.get("properties", []) if p["name"] != "LABELS"]
    if value:
        t["properties"].append({"name": "LABELS", "value": value})
    json.dump(e, open(out, "w"))
relabel("sh_cli", ["cli", "unit"], sys.argv[2])
relabel("test_delta", [], sys.argv[3])
PY
for planted in script_unit unlabelled; do
    if $CHECK "$SOCMON_SRC" "$TMP/$planted.json" >"$TMP/$planted.out"; then
        bad "ctest_labels.py passed the planted $planted.json"
    else
        ok
    fi
done
grep -q "sh_cli: labelled unit" "$TMP/script_unit.out" && ok || bad "script_unit: $(cat "$TMP/script_unit.out")"
grep -q "test_delta: no label" "$TMP/unlabelled.out" && ok || bad "unlabelled: $(cat "$TMP/unlabelled.out")"
finish ctest_labels
