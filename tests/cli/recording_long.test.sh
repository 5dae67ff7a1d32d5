#!/bin/sh
# A recording no load can hold (issue 37, item 19): 256 counters x 8,388,609 samples, 2^31 + 256
# values (a load holds at most 2^30), written through the library's writer by tools/rec_long
# (counter j counts j + 1 an interval, so the file is 12 MB and the totals are known). report
# --stats, --summary and -x, read it a block at a time: each must succeed, give the figures the
# writer wrote, and stay within 300 MB of peak RSS (ru_maxrss; about 30 MB measured). Slow
# (SOCMON_SLOW_TESTS): the three passes decode 2^31 values each.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
LONG=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}/rec_long
C=256 N=8388609
"$LONG" "$TMP/long.rec" $C $N && ok || bad "rec_long"

python3 - "$BIN" "$TMP/long.rec" $C $N <<'PY' && ok || bad "a recording of more than 2^31 values"
import os, subprocess, sys
binary, path, nc, ns = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
assert nc * ns > 2 ** 31
fail = []
def run(*args):
    """The view's stdout (all of it, or its line count and last line for -x,) and peak RSS in KiB."""
    p = subprocess.Popen([binary, "report", "-i", path] + list(args), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    lines, last, keep = 0, b"", []
    while True:
        chunk = p.stdout.read(1 << 20)
        if not chunk:
            break
        lines += chunk.count(b"\n")
        last = (last + chunk)[-256:]
        if len(keep) < 64:
            keep.append(chunk)
    err = p.stderr.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    print("report %s: exit %d, %d lines, peak RSS %d KiB" % (" ".join(args), rc, lines, ru.ru_maxrss))
    if rc != 0:
        fail.append("report %s exited %d: %s" % (" ".join(args), rc, err.strip()[:300]))
    if ru.ru_maxrss > 300 * 1024:
        fail.append("report %s: peak RSS %d KiB, more than 300 MB" % (" ".join(args), ru.ru_maxrss))
    return b"".join(keep).decode(), lines, last.decode()

out, _, _ = run("--stats", "-x,")
head, row = out.splitlines()[:2]
facts = dict(zip(head.split(","), row.split(",")))
if facts.get("samples") != str(ns) or facts.get("counters") != str(nc):
    fail.append("--stats: %s samples, %s counters; the writer wrote %d and %d" %
                (facts.get("samples"), facts.get("counters"), ns, nc))

out, _, _ = run("--summary", "-x,")
totals = {}
for line in out.splitlines():
    f = line.split(",")
    if len(f) >= 4 and f[0] == "counter":
        totals[f[1]] = f[3]
for j in (0, 1, nc - 1):
    if totals.get("c%d" % j) != str((ns - 1) * (j + 1)):
        fail.append("--summary: c%d is %s, the writer counted %d" % (j, totals.get("c%d" % j), (ns - 1) * (j + 1)))

_, lines, last = run("-x,")
# a header and one row per interval; the last interval ends at the last sample
if lines != ns or last.splitlines()[-1].split(",")[:2] != [str((ns - 1) * 1000), "1000"]:
    fail.append("-x,: %d lines (expected %d), the last '%s'" % (lines, ns, last.splitlines()[-1]))
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
PY
finish recording_long
