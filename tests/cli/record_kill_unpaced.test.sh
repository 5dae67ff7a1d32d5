#!/bin/sh
# What report says a killed unpaced recording lost (issue 23, item 7) must be a bound that holds.
# The model runs many times faster than the wall clock, so the 1 s flush period (wall-clock time)
# lets seconds of simulated time go unwritten; only the block being filled is lost. SIGKILL lands
# at four points of an unpaced run (late in a block of 2,001 samples, the size 259 counters get:
# more than 1 s of simulated time unwritten); the samples the recorder had taken are at least those its
# live lines show (a line is printed after its sample went to the writer), and report's note must
# state a bound, in samples and in the recording's time, that covers the samples missing.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

python3 - "$BIN" "$TMP" <<'PY' && ok || bad "killed unpaced recordings"
import json, os, re, signal, subprocess, sys
binary, tmp = sys.argv[1], sys.argv[2]
failures = []
for it, lines_before_kill in enumerate((1900, 3800, 5900, 7950)):
    path = os.path.join(tmp, "k%d.rec" % it)
    p = subprocess.Popen([binary, "record", "-I", "1ms", "-d", "100000s", "-M", "ddr_accesses_total", "-o", path],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    rows = 0
    for line in p.stdout:
        if line.startswith(b" "):   # a live line: the first line is the title
            rows += 1
            if rows == lines_before_kill:
                p.send_signal(signal.SIGKILL)
    p.wait()
    taken = rows + 1   # interval rows: the first sample has none
    r = subprocess.run([binary, "report", "-i", path, "--stats", "--json"], capture_output=True)
    got = json.loads(r.stdout)["samples"] if r.returncode == 0 else -1
    r = subprocess.run([binary, "report", "-i", path], capture_output=True)
    note = r.stderr.decode()
    # the bound stated: one block, in samples and time; or (before issue 23) a time alone
    m = re.search(r"read ([\d,]+) samples to .*; at most one block \(([\d,]+) samples, ([\d.]+) (s|ms) at the "
                  r"1\.000 ms interval\) after that is missing", note)
    old = re.search(r"read ([\d,]+) samples to .*; at most ([\d.]+) s after that is missing", note)
    if r.returncode != 0 or not (m or old):
        failures.append("run %d: exit %d, no bound in %r" % (it, r.returncode, note))
        continue
    read = int((m or old).group(1).replace(",", ""))
    block = int(m.group(2).replace(",", "")) if m else None
    span_ms = float(m.group(3)) * (1000 if m.group(4) == "s" else 1) if m else float(old.group(2)) * 1000
    lost = taken - read
    if read != got or lost < 0 or (block is not None and lost > block) or lost > span_ms:   # a sample a ms
        failures.append("run %d: %d samples taken, %d read (--stats: %d): %d (%d ms) missing, beyond the bound "
                        "stated: %s" % (it, taken, read, got, lost, lost, note.strip()))
    elif not m:
        failures.append("run %d: no bound in samples: %s" % (it, note.strip()))
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
finish "record_kill_unpaced"
