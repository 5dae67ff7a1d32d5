#!/bin/sh
# socmon check, the CI gate: exit 0 when every rule holds, 1 when one fails (named on stdout, in
# the JUnit XML and the Markdown), 2 for bad input (a rules file's syntax error with its line, a
# glob that matches nothing, a missing file); --update makes the baseline a copy of the new run.
# The runs: ESP model runs of two workloads (exact) as stat's JSON, and recordings.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
"$BIN" stat -t esp -w multifft --json -o "$TMP/a.json" >/dev/null 2>&1 || bad "stat multifft"
"$BIN" stat -t esp -w acc_sweep --json -o "$TMP/b.json" >/dev/null 2>&1 || bad "stat acc_sweep"
cp "$TMP/a.json" "$TMP/a2.json"

cat >"$TMP/hold.rules" <<'R'
# nothing may change at all between identical runs
*            ±0
R
cat >"$TMP/gate.rules" <<'R'
# ESP: the accelerators may not lose utilisation; backpressure within 10 %
*.acc_util          -0%
tile*.l2_hits       +0     # must not rise
noc_bp_*            ±10%
R
expect 0 "0 of 1 rule failed" -- "$BIN" check "$TMP/a.json" "$TMP/a2.json" --rules "$TMP/hold.rules"
"$BIN" check "$TMP/a.json" "$TMP/b.json" --rules "$TMP/gate.rules" --junit "$TMP/j.xml" --markdown "$TMP/m.md" \
    >"$TMP/out.txt" 2>"$TMP/err.txt"
rc=$?
[ "$rc" = 1 ] && ok || { bad "a failing gate exited $rc"; cat "$TMP/out.txt" "$TMP/err.txt"; }
python3 - "$TMP" <<'PY' && ok || bad "the reports of a failing gate"
import json, subprocess, sys, xml.etree.ElementTree as ET
t = sys.argv[1]
out = open(t + "/out.txt").read()
root = ET.parse(t + "/j.xml").getroot()           # well-formed, or this raises
suite = root.find("testsuite")
cases = suite.findall("testcase")
failed = [c for c in cases if c.find("failure") is not None]
assert root.tag == "testsuites" and len(cases) == 3, (root.tag, len(cases))
assert int(root.get("tests")) == int(suite.get("tests")) == 3
assert int(root.get("failures")) == int(suite.get("failures")) == len(failed) >= 1, ET.tostring(root)[:300]
md = open(t + "/m.md").read()
assert md.startswith("## socmon check: failed, %d of 3 rules failed" % len(failed)), md[:80]
for c in cases:
    name = c.get("name")
    pattern, limit = name.rsplit(" ", 1)
    md_pattern = pattern.replace("*", "\\*").replace("_", "\\_")
    shown = ("FAIL  " if c.find("failure") is not None else "PASS  ") + pattern + " " + limit
    assert shown in out, (shown, out[:400])
    if c.find("failure") is not None:
        assert "| %s %s (line " % (md_pattern, limit) in md, (md_pattern, md)
        # each failed value is in the failure text, with its numbers as the diff gives them
        for line in c.find("failure").text.strip().splitlines():
            key = line.split(":")[0]
            assert key in md.replace("\\", ""), key
print("%d of %d rules failed: %s" % (len(failed), len(cases), ", ".join(c.get("name") for c in failed)))
PY

# recordings work the same; a glob matching nothing is bad input, with the line
"$BIN" record -q -t esp -w multifft -o "$TMP/a.rec" >/dev/null 2>&1 || bad "record"
expect 0 "0 of 1 rule failed" -- "$BIN" check "$TMP/a.rec" "$TMP/a.rec" --rules "$TMP/hold.rules"
printf 'tile0.l2_hits +0\nnosuch* +1%%\n' >"$TMP/nomatch.rules"
expect 2 "nomatch.rules:2: 'nosuch\*' matches no value" -- "$BIN" check "$TMP/a.rec" "$TMP/a.rec" --rules "$TMP/nomatch.rules"
printf '# ok\ntile0.l2_hits +0\nipc 5%%\n' >"$TMP/syntax.rules"
expect 2 "syntax.rules:3: a limit starts with" -- "$BIN" check "$TMP/a.json" "$TMP/b.json" --rules "$TMP/syntax.rules"
expect 2 "missing.rules: No such file" -- "$BIN" check "$TMP/a.json" "$TMP/b.json" --rules "$TMP/missing.rules"
expect 2 "missing.json: No such file" -- "$BIN" check "$TMP/a.json" "$TMP/missing.json" --rules "$TMP/hold.rules"
expect 2 "needs --rules" -- "$BIN" check "$TMP/a.json" "$TMP/b.json"
expect 2 "needs two files" -- "$BIN" check "$TMP/a.json" --rules "$TMP/hold.rules"
expect 0 "PATTERN LIMIT" -- "$BIN" check --help
# a report that cannot be written is an error (2), and leaves no half file
expect 2 "nodir" -- "$BIN" check "$TMP/a.json" "$TMP/a2.json" --rules "$TMP/hold.rules" --junit "$TMP/nodir/j.xml"

# --update: the baseline becomes the new run, byte for byte; the exit status is still the check's
cp "$TMP/a.json" "$TMP/base.json"
expect 1 "is now a copy of" -- "$BIN" check "$TMP/base.json" "$TMP/b.json" --rules "$TMP/gate.rules" --update
cmp -s "$TMP/base.json" "$TMP/b.json" && ok || bad "--update did not copy the new run"
expect 0 "0 of 3 rules failed" -- "$BIN" check "$TMP/base.json" "$TMP/b.json" --rules "$TMP/gate.rules"
# the rules files docs/check.md shows parse, and match values of the runs they are for
python3 - "$SOCMON_SRC/docs/check.md" "$TMP" <<'PY' || bad "extracting docs/check.md's rules"
import sys
s = open(sys.argv[1]).read()
for name in ("soc.rules", "perf.rules"):
    i = s.index("`%s`:" % name)
    b = s.index("```\n", i) + 4
    open("%s/%s" % (sys.argv[2], name), "w").write(s[b:s.index("```", b)])
PY
expect 0 "0 of 5 rules failed" -- "$BIN" check "$TMP/a.json" "$TMP/a2.json" --rules "$TMP/soc.rules"
expect 2 "perf.rules:3: 'fn.\*.instret' matches no value" -- "$BIN" check "$TMP/a.json" "$TMP/a2.json" --rules "$TMP/perf.rules"
finish check
