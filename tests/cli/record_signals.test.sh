#!/bin/sh
# SIGINT and SIGTERM stop record and stat cleanly (exit 130 and 143, the summary so far, a complete
# file), also during a long interval; two recorders started together on one path: one valid file,
# the other a clear error, never both exit 0.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

python3 - "$BIN" "$TMP" <<'PY' && ok || bad "signals and racing recorders"
import json, os, re, signal, subprocess, sys, time
binary, tmp = sys.argv[1], sys.argv[2]
failures = []

def wait_for(cond, what, limit=15.0):
    t = time.monotonic()
    while not cond():
        if time.monotonic() - t > limit:
            failures.append("never happened: " + what)
            return False
        time.sleep(0.01)
    return True

def stop_record(sig, interval, name):
    path = os.path.join(tmp, name)
    p = subprocess.Popen([binary, "record", "-q", "--realtime", "-I", interval, "-d", "600s", "-o", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(lambda: os.path.exists(path), "record created " + path)
    time.sleep(0.3)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    out, err = out.decode(), err.decode()
    code = 128 + sig
    if p.returncode != code:
        failures.append("record %s: exit %d, expected %d: %s" % (sig.name, p.returncode, code, err))
        return
    if "stopped by " + sig.name not in err:
        failures.append("record %s: no 'stopped by' note: %s" % (sig.name, err))
    words = out.split()   # "wrote 1,234 samples ...": counts are grouped for people
    if not out.startswith("wrote ") or not words[1].replace(",", "").isdigit():
        failures.append("record %s: no summary on stdout: %r" % (sig.name, out))
        return
    samples = int(words[1].replace(",", ""))
    r = subprocess.run([binary, "report", "-i", path, "-x,"], capture_output=True)
    rows = len(r.stdout.splitlines()) - 1
    if r.returncode != 0 or rows != samples - 1:
        failures.append("record %s: summary says %d samples, report reads %d intervals (exit %d: %s)"
                        % (sig.name, samples, rows, r.returncode, r.stderr.decode()))
    r = subprocess.run([binary, "report", "-i", path, "--stats", "--json"], capture_output=True)
    if r.returncode == 0:   # the v2 reader: the file ended with its end record, nothing lost
        info = json.loads(r.stdout)
        if not info.get("complete") or info.get("samples_lost"):
            failures.append("record %s: report --stats: %s" % (sig.name, r.stdout.decode()))
    else:
        failures.append("record %s: report --stats --json failed: %s" % (sig.name, r.stderr.decode()))

stop_record(signal.SIGINT, "1ms", "int.rec")
stop_record(signal.SIGTERM, "1ms", "term.rec")
# A signal during a long interval stops the run at the end of that interval (the sampler sleeps
# to its deadline), not never: 1 s here, and the test's own timeout would catch a hang.
stop_record(signal.SIGINT, "1s", "long.rec")

for sig in (signal.SIGINT, signal.SIGTERM):
    p = subprocess.Popen([binary, "stat", "--realtime", "-d", "600s", "-e", "*ddr_accesses"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    out, err = out.decode(), err.decode()
    if p.returncode != 128 + sig or "Performance counter stats" not in out or "stopped by " + sig.name not in err:
        failures.append("stat %s: exit %d: %s %s" % (sig.name, p.returncode, out, err))
    else:   # the time elapsed so far, not the 600 s asked for
        m = re.search(r"([0-9][0-9.,]*) seconds (simulated time )?elapsed", out)
        if not m or not 0 < float(m.group(1).replace(",", "")) < 600:
            failures.append("stat %s: no elapsed time so far in %r" % (sig.name, out))

# Two recorders on one path, 20 times: the first to publish holds the file for its run, the
# other stops at once with an error naming it; then the winner is stopped with SIGINT.
both = 0
for it in range(20):
    path = os.path.join(tmp, "race.rec")
    for f in (path, path + ".old"):
        if os.path.exists(f):
            os.unlink(f)
    cmd = [binary, "record", "-q", "--realtime", "-I", "1ms", "-d", "600s", "-o", path]
    ps = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    wait_for(lambda: any(p.poll() is not None for p in ps), "one of two racing recorders ended")
    for p in ps:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    res = [(p.wait(timeout=60), p.stderr.read().decode()) for p in ps]
    codes = sorted(c for c, _ in res)
    loser = [e for c, e in res if c == 1]
    if codes != [1, 130] or "is being written by another socmon record (pid " not in loser[0]:
        failures.append("race %d: exits %s: %s" % (it, codes, [e for _, e in res]))
        both += 1
        continue
    if os.path.exists(path + ".old"):
        failures.append("race %d: the loser moved the winner's file to .old" % it)
    r = subprocess.run([binary, "report", "-i", path, "--stats", "--json"], capture_output=True)
    if r.returncode != 0 or not json.loads(r.stdout).get("complete"):
        failures.append("race %d: the winner's file does not read complete: %s" % (it, r.stderr.decode()))
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
finish "record_signals"
