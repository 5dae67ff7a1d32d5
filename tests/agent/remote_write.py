#!/usr/bin/env python3
"""The remote-write tests (tests/agent/remote_write_*.test.sh call one scenario each):

  prometheus  an esp agent and a zynq agent push to Debian's Prometheus; every stored sample of
              every series equals the run's recording at its time, and the series are /metrics's
  outage      the receiver is stopped for 10 s and started again: the recording loses nothing,
              the drop counter says exactly which points are missing, and pushing resumes
  refused     a receiver answering 400 is said once, escaped, and never sent the same body again;
              the protocol's headers, a bearer token file and basic auth from the URL are sent
  retried     a receiver answering 503, then 429, then 204 gets the same body again until it
              takes it: nothing is dropped
  slow        a receiver that never answers in time does not delay sampling: no interval missed
  commands    `record --remote` and `serve` push too: what a receiver got (snappy and protobuf read
              here) equals the recording, and the series are serve's /metrics

usage: remote_write.py SCENARIO TMPDIR"""

import base64
import hashlib
import os
import re
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rw_lib  # noqa: E402
from rw_lib import BIN, bad  # noqa: E402


def prometheus(tmp):
    prom = rw_lib.Prometheus(tmp)
    prom.start()
    agents = []
    try:
        # esp: every counter of the SoC, one point per interval (k = 1: the metrics are checked too);
        # zynq: five 100 ms intervals merged into each 500 ms point (counters and integrity series)
        runs = [("esp", ["-t", "esp", "-w", "acc_sweep", "-I", "100ms", "-d", "3s", "--push-interval", "100ms"], 1),
                ("zynq", ["-t", "zynq", "-w", "steady", "-I", "100ms", "-d", "4s", "--push-interval", "500ms"], 5)]
        for name, args, _ in runs:
            agents.append(rw_lib.Agent(tmp, name, args + ["--remote-write", prom.write_url()]))
        texts = [a.wait_recorded() for a in agents]
        for (name, _, k), a, text in zip(runs, agents, texts):
            log = a.log()
            m = re.search(r"remote write to \S+: (\d+) points? sent in \d+ requests? \(\d+ retried\), (\d+) dropped", log)
            if not m:
                bad("%s: no remote-write summary in the agent's log:\n%s" % (name, log))
                continue
            if m.group(2) != "0":
                bad("%s: %s points dropped with the receiver up: %s" % (name, m.group(2), log))
            stored = prom.raw('{__name__=~"socmon_.+",target="%s"}' % name)
            rw_lib.same_series(stored, text)
            bins, _ = rw_lib.recording_bins(a.rec, k)
            if int(m.group(1)) != len(bins):
                bad("%s: %s points sent, the recording has %d" % (name, m.group(1), len(bins)))
            _, units = rw_lib.parse_exposition(text)
            rw_lib.compare(stored, bins, units, 100 * k)
    finally:
        for a in agents:
            a.kill()
        prom.stop()


def outage(tmp):
    prom = rw_lib.Prometheus(tmp)
    prom.start()
    # 100 ms intervals, a point each 200 ms, at most 10 held: a 10 s outage drops about 40, up to
    # 65 when the sender is waiting out its longest backoff (5 s) as the receiver comes back
    a = rw_lib.Agent(tmp, "zynq", ["-t", "zynq", "-w", "steady", "-I", "100ms", "-d", "22s", "--push-interval",
                                   "200ms", "--remote-write-queue", "10", "--remote-write", prom.write_url()])
    try:
        time.sleep(5)
        port = prom.port
        # the receiver stops answering somewhere inside stop() and answers again somewhere inside
        # start(): on a loaded machine either takes seconds, so the outage is known only between
        # the calls' returns (shortest) and their beginnings (longest)
        down_early = time.time()
        prom.stop()
        down = time.time()
        time.sleep(10)
        up_early = time.time()
        prom.start(port)
        up = time.time()
        print("receiver down %.1f s (%.1f s with its stop and start)" % (up_early - down, up - down_early), flush=True)
        text = a.wait_recorded(60)
        log = a.log()
        stored = prom.raw('{__name__=~"socmon_.+",target="zynq"}')
        bins, d = rw_lib.recording_bins(a.rec, 2)
        ivs = d["intervals"]
        # the recording lost nothing: 22 s of 100 ms intervals, none missed or lost
        if len(ivs) != 220:
            bad("the recording has %d intervals, not 220" % len(ivs))
        rec_log = open(a.rec_err + ".out").read() + open(a.rec_err).read()
        if not re.search(r"wrote 221 samples \(0 lost at the agent\)", rec_log):
            bad("the recorder's summary: %s" % rec_log)
        m = re.search(r"(\d+) points? sent in \d+ requests? \((\d+) retried\), (\d+) dropped \((\d+) with the "
                      r"queue full, (\d+) refused by the receiver, (\d+) still queued at the end\)", log)
        if not m:
            bad("no summary with drops in the agent's log:\n" + log)
            return
        sent, retried, dropped, full = (int(m.group(i)) for i in (1, 2, 3, 4))
        # 5 points/s while nothing goes out, less the 10 the queue holds: from the receiver's stop
        # to its restart at least, and at most 5 s more, the longest backoff the sender may be
        # waiting out when it comes back (1 point each side for where the edges fall)
        low, high = 5 * (up_early - down) - 10 - 1, 5 * (up - down_early + 5) - 10 + 1
        if not low <= dropped <= high or full != dropped:
            bad("dropped %d (%d with the queue full), expected %.0f..%.0f for %.1f..%.1f s down, all for the full "
                "queue" % (dropped, full, low, high, up_early - down, up - down_early))
        if not retried:
            bad("no retries while the receiver was down")
        if "cannot connect" not in log or "takes pushes again" not in log:
            bad("the log does not say the receiver went and came back:\n" + log)
        # the stored drop counter: 0 before the outage, the final count once pushing resumed
        drops = next(pts for key, pts in stored.items() if dict(key)["__name__"] == "socmon_remote_write_dropped_total")
        if drops[0][1] != 0 or drops[-1][1] != dropped:
            bad("socmon_remote_write_dropped_total went %r .. %r, the summary says %d" % (drops[0], drops[-1], dropped))
        value_at = dict(drops)
        _, units = rw_lib.parse_exposition(text)
        matched = rw_lib.compare(stored, bins, units, 200, dropped_at=lambda t: value_at.get(t, 0), want_all=False)
        if len(matched) + dropped != len(bins) or sent != len(matched):
            bad("the receiver has %d points, %d were dropped and %d sent: the recording has %d"
                % (len(matched), dropped, sent, len(bins)))
        missing = sorted(set(range(len(bins))) - matched)
        # what is missing is one run of points from the outage; pushing resumed after it
        if missing and (missing[-1] - missing[0] + 1 != len(missing) or missing[-1] >= len(bins) - 5):
            bad("the missing points are not one stretch of the outage: %s" % missing)
        print("sent %d, dropped %d (points %s..%s), %d retries" % (sent, dropped, missing[:1], missing[-1:], retried))
    finally:
        a.kill()
        prom.stop()


def run(args, timeout=60):
    t = time.time()
    p = subprocess.run([BIN] + args, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"), p.stderr, time.time() - t


def refused(tmp):
    msg = b"sample out of order \x1b[2J\x1b]0;owned\x07\nsecond line"
    fake = rw_lib.FakeReceiver([(400, msg)])
    tok = os.path.join(tmp, "tok")
    with open(tok, "w") as f:
        f.write("s3cret-token\n")
    os.chmod(tok, 0o600)
    rc, out, err, _ = run(["record", "-t", "zynq", "-w", "steady", "-I", "100ms", "-d", "2s", "--realtime", "-q",
                           "-o", os.path.join(tmp, "r.rec"), "--push-interval", "200ms",
                           "--remote-write-token-file", tok, "--remote-write", fake.url()])
    if rc != 0:
        bad("record exited %d: %s" % (rc, out))
    n = len(fake.requests)
    bodies = [hashlib.sha256(b).hexdigest() for _, b in fake.requests]
    if n < 5 or len(set(bodies)) != n:
        bad("%d requests, %d distinct bodies: a refused body was sent again" % (n, len(set(bodies))))
    said = [line for line in out.splitlines() if "refused" in line and "HTTP 400" in line]
    if len(said) != 1:
        bad("the refusal is said %d times, not once:\n%s" % (len(said), out))
    elif "sample out of order \\x1b[2J\\x1b]0;owned\\x07\\x0asecond line" not in said[0]:
        bad("the receiver's message is not in the log, escaped: %r" % said[0])
    if b"\x1b" in err or b"\x07" in err:
        bad("a control byte of the receiver's reached the terminal")
    m = re.search(r"(\d+) points? sent in (\d+) requests? \(0 retried\), (\d+) dropped \(0 with the queue full, "
                  r"(\d+) refused", out)
    if not m or m.group(1) != "0" or int(m.group(2)) != n or m.group(3) != m.group(4):
        bad("the summary does not count %d refused requests: %s" % (n, out))
    if "wrote 21 samples (0 intervals missed)" not in out:
        bad("the recording suffered: " + out)
    h = fake.requests[0][0]
    want = {"Content-Encoding": "snappy", "Content-Type": "application/x-protobuf",
            "X-Prometheus-Remote-Write-Version": "0.1.0", "Authorization": "Bearer s3cret-token"}
    for k, v in want.items():
        if h.get(k) != v:
            bad("header %s: %r, expected %r" % (k, h.get(k), v))
    # basic auth from the URL; the password never shows in the log
    fake2 = rw_lib.FakeReceiver([(204, b"")])
    rc, out, _, _ = run(["record", "-t", "zynq", "-I", "100ms", "-d", "300ms", "-q", "-o", os.path.join(tmp, "b.rec"),
                         "--remote-write", fake2.url("board7:pa55word@")])
    auth = fake2.requests[0][0].get("Authorization", "") if fake2.requests else ""
    if rc != 0 or auth != "Basic " + base64.b64encode(b"board7:pa55word").decode():
        bad("basic auth: rc %d, Authorization %r: %s" % (rc, auth, out))
    if "pa55word" in out:
        bad("the password shows in the output: " + out)


def retried(tmp):
    fake = rw_lib.FakeReceiver([(503, b"busy"), (429, b"slow down"), (503, b"busy"), (204, b"")])
    rc, out, _, _ = run(["record", "-t", "zynq", "-w", "steady", "-I", "100ms", "-d", "1s", "--realtime", "-q",
                         "-o", os.path.join(tmp, "r.rec"), "--push-interval", "500ms", "--remote-write", fake.url()])
    bodies = [b for _, b in fake.requests]
    if rc != 0:
        bad("record exited %d: %s" % (rc, out))
    if len(bodies) < 4 or not (bodies[0] == bodies[1] == bodies[2] == bodies[3]):
        bad("the body answered 503/429 was not sent again as it was (%d requests)" % len(bodies))
    if not re.search(r"(\d+) points? sent in \d+ requests? \((\d+) retried\), 0 dropped", out) or \
            "HTTP 503: busy" not in out or "takes pushes again" not in out:
        bad("the summary or the log of the retries: " + out)


def slow(tmp):
    fake = rw_lib.FakeReceiver([(204, b"")], delay=30)
    rc, out, _, secs = run(["record", "-t", "zynq", "-w", "steady", "-I", "10ms", "-d", "3s", "--realtime", "-q",
                            "-o", os.path.join(tmp, "r.rec"), "--push-interval", "100ms", "--remote-write", fake.url()])
    if rc != 0 or "wrote 301 samples (0 intervals missed)" not in out:
        bad("with a receiver that never answers the recording missed intervals: " + out)
    # the end waits for the queue 5 s at most
    if secs > 3 + 5 + 5:
        bad("record took %.1f s" % secs)
    if not re.search(r"0 points sent in 1 request .*dropped \(0 with the queue full, 0 refused by the receiver, "
                     r"\d+ still queued at the end\)", out):
        bad("the summary: " + out)


def commands(tmp):
    # record --remote: an agent without --remote-write, its collector pushing what it records (the
    # Agent helper's own recorder is stopped at once, so this one is the agent's only collector)
    fake = rw_lib.FakeReceiver([(204, b"")])
    b = rw_lib.Agent(tmp, "zynq", ["-t", "zynq", "-w", "steady", "-I", "100ms", "-d", "2s"])
    b.r.kill()
    b.r.wait()
    port = open(os.path.join(tmp, "zynq.port")).read().strip()
    rc, out, _, _ = run(["record", "--remote", "127.0.0.1:" + port, "--from", "oldest", "-q", "-o", b.rec,
                         "--push-interval", "200ms", "--remote-write", fake.url()])
    text = b.metrics()
    b.kill()
    if rc != 0 or not re.search(r"socmon record: remote write to \S+: 10 points sent in \d+ requests? \(0 retried\), "
                                r"0 dropped", out):
        bad("record --remote --remote-write: rc %d: %s" % (rc, out))
    stored = rw_lib.received(fake)
    rw_lib.same_series(stored, text)
    _, units = rw_lib.parse_exposition(text)
    rw_lib.compare(stored, rw_lib.recording_bins(b.rec, 2)[0], units, 200)

    # serve: a local run pushed as it is shown; its /metrics (up after the run) has the same series
    fake3 = rw_lib.FakeReceiver([(204, b"")])
    pf = os.path.join(tmp, "serve.port")
    err = os.path.join(tmp, "serve.err")
    p = subprocess.Popen([BIN, "serve", "-t", "zynq", "-w", "steady", "-I", "100ms", "-d", "1s", "--http",
                          "127.0.0.1:0", "--port-file", pf, "--push-interval", "100ms", "--remote-write",
                          fake3.url()], stderr=open(err, "w"), stdout=subprocess.DEVNULL)
    try:
        rw_lib.wait_for(lambda: "remote write to" in open(err).read(), "serve's remote-write summary")
        with urllib.request.urlopen("http://127.0.0.1:%s/metrics" % open(pf).read().strip(), timeout=10) as r:
            text = r.read().decode()
        log = open(err).read()
        if not re.search(r"socmon serve: remote write to \S+: 10 points sent in \d+ requests? \(0 retried\), 0 dropped",
                         log):
            bad("serve's summary: " + log)
        stored = rw_lib.received(fake3)
        rw_lib.same_series(stored, text)
        n = [v for k, pts in stored.items() if dict(k)["__name__"] == "socmon_samples_total" for _, v in pts]
        if n != [float(i) for i in range(2, 12)]:
            bad("serve pushed socmon_samples_total %r, not 2..11" % n)
    finally:
        p.terminate()
        p.wait(30)


if __name__ == "__main__":
    {"prometheus": prometheus, "outage": outage, "refused": refused, "retried": retried,
     "slow": slow, "commands": commands}[sys.argv[1]](sys.argv[2])
    print("%s: %s" % (sys.argv[1], "FAILED" if rw_lib.errors else "passed"))
    sys.exit(1 if rw_lib.errors else 0)
