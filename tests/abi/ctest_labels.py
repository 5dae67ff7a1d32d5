#!/usr/bin/env python3
"""Every test of a build carries its ctest labels (CMakeLists.txt, docs/testing.md).

usage: ctest_labels.py SOURCE_TREE TESTS.json [UNIT_COUNT]
TESTS.json is `ctest --show-only=json-v1` of the build; UNIT_COUNT what `ctest -N -L unit` counted.

- every test has a label, and only the known ones;
- every cmocka test (tests/**/test_*.c, tests/tensix/cpp/test_*.cpp; the executable is the test's own)
  is registered and carries exactly one of unit and slow;
- a unit test runs its own executable, never a script (sh_*, sh, python3);
- every script test (sh_*, abi_symbols) is cli, and one under tests/web/ is browser too;
- `ctest -L unit` selects at least 90 tests (issue 24), every one of them a cmocka test.
Prints what is wrong and exits 1.
"""
import glob
import json
import os
import sys

KNOWN = {"unit", "cli", "browser", "network", "slow", "example", "fuzz", "arm", "thread", "remote_write",
         "parquet"}
src, tests_json = sys.argv[1], sys.argv[2]
unit_count = int(sys.argv[3]) if len(sys.argv) > 3 else None
tests = json.load(open(tests_json))["tests"]
errors = []


def labels(t):
    for p in t.get("properties", []):
        if p["name"] == "LABELS":
            return set(p["value"])
    return set()


cmocka = {os.path.splitext(os.path.basename(f))[0]
          for f in glob.glob(f"{src}/tests/**/test_*.c", recursive=True)
          + glob.glob(f"{src}/tests/tensix/cpp/test_*.cpp")}
for name in sorted(cmocka - {t["name"] for t in tests}):
    errors.append(f"{name}: a cmocka test source that no ctest runs")

unit = []
for t in tests:
    name, cmd, lab = t["name"], t.get("command") or [], labels(t)
    if not lab:
        errors.append(f"{name}: no label")
    if lab - KNOWN:
        errors.append(f"{name}: unknown labels {sorted(lab - KNOWN)} (known: {sorted(KNOWN)})")
    script = name.startswith("sh_") or (cmd and os.path.basename(cmd[0]) in ("sh", "bash", "python3", "python"))
    if name in cmocka and len(lab & {"unit", "slow"}) != 1:
        errors.append(f"{name}: a cmocka test labelled {sorted(lab)}: it takes one of unit and slow")
    if "unit" in lab:
        unit.append(name)
        if script or name not in cmocka:
            errors.append(f"{name}: labelled unit, but it is no cmocka test (command {cmd})")
        elif not any(os.path.basename(c) == name for c in cmd):   # (an emulator may come first)
            errors.append(f"{name}: labelled unit, but runs {cmd}")
    if script and "cli" not in lab:
        errors.append(f"{name}: a script test without the cli label ({sorted(lab)})")
    if any("/tests/web/" in c for c in cmd) and "browser" not in lab:
        errors.append(f"{name}: a test under tests/web/ without the browser label")

if len(unit) < 90:
    errors.append(f"only {len(unit)} tests labelled unit, issue 24 asks for at least 90")
if unit_count is not None and unit_count != len(unit):
    errors.append(f"ctest -N -L unit counted {unit_count} tests, the labels say {len(unit)}")

for e in errors:
    print("FAIL:", e)
print(f"ctest_labels: {len(tests)} tests, {len(unit)} unit, {len(errors)} problems")
sys.exit(1 if errors else 0)
