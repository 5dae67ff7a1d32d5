#!/bin/sh
# SIGKILL at random points of `socmon record --realtime`, many times: the file, once it exists,
# always reads (its header is written before PATH names it), and it holds every sample but those
# of at most the last flush period. Which samples the recorder had taken is seen from its live
# lines (one per sample, printed after the sample went to the writer; line-buffered by stdbuf):
# a line that arrived more than FLUSH + MARGIN before the kill is a sample that must be in the
# file. MARGIN covers a recorder the host did not run for a while; the check has no lower bound
# on speed, so a slow host makes it weaker, never wrong. SEED=N repeats a run.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

command -v stdbuf >/dev/null || { echo "record_kill: no stdbuf, skipped"; finish "record_kill"; }
python3 - "$BIN" "$TMP" <<'PY' && ok || bad "SIGKILL runs"
import os, random, subprocess, sys, threading, time
binary, tmp = sys.argv[1], sys.argv[2]
seed = int(os.environ.get("SEED", time.time_ns() % 1000000))
print("record_kill: seed", seed, "(SEED=%d repeats this run)" % seed)
rng = random.Random(seed)
FLUSH, MARGIN, RUNS = 0.05, 0.6, 30
failures, checked = [], 0
for it in range(RUNS):
    path = os.path.join(tmp, "k%d.rec" % it)
    cmd = ["stdbuf", "-oL", binary, "record", "--realtime", "-I", "1ms", "-d", "60s", "--flush", "50ms",
           "-M", "ddr_accesses_total", "-o", path]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    arrivals = []
    def read():
        for line in p.stdout:
            if line.startswith(b" "):   # a live line; the first line is the title
                arrivals.append(time.monotonic())
    th = threading.Thread(target=read)
    th.start()
    # Half the kills land in the start-up (before, during and just after the header), half
    # later, when samples older than FLUSH + MARGIN exist to check.
    delay = rng.uniform(0.0, 0.3) if it % 2 else rng.uniform(0.6, 1.4)
    time.sleep(delay)
    t_kill = time.monotonic()
    p.kill()
    p.wait()
    th.join()
    if not os.path.exists(path):
        if arrivals:
            failures.append("run %d: %d samples shown but no file" % (it, len(arrivals)))
        continue
    r = subprocess.run([binary, "report", "-i", path, "-x,"], capture_output=True)
    if r.returncode != 0:
        failures.append("run %d (killed after %.3f s): report exit %d: %s" % (it, delay, r.returncode,
                                                                          r.stderr.decode()[:300]))
        continue
    rows = len(r.stdout.splitlines()) - 1
    must = sum(1 for a in arrivals if a <= t_kill - FLUSH - MARGIN)
    checked += must > 0
    if rows < must:
        failures.append("run %d (killed after %.3f s): file has %d intervals, %d were taken more than "
                        "%.2f s before the kill" % (it, delay, rows, must, FLUSH + MARGIN))
left = [f for f in os.listdir(tmp) if not f.endswith(".rec")]
if left:
    failures.append("files left besides the recordings: %s" % left)
print("record_kill: %d runs, %d with samples old enough to check" % (RUNS, checked))
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
finish "record_kill"
