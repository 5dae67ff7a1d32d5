"""Shared by the remote-write tests (tests/agent/remote_write*.py): Debian's Prometheus started as
a remote-write receiver (own port and TSDB directory), a fake receiver with a chosen answer, the
agent and its recorder, and the check that what a receiver stored is what the recording holds.
Python 3 standard library only."""

import http.server
import json
import os
import re
import signal
import subprocess
import threading
import time
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from prom_scrape import free_port  # noqa: E402,F401  (one port picker for the Prometheus tests)

DEADLINE = 60
BIN = os.environ.get("SOCMON_BIN", "socmon")
errors = []


def bad(msg):
    errors.append(msg)
    print("FAIL: " + msg, flush=True)


def wait_for(cond, what, deadline=DEADLINE):
    end = time.time() + deadline
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    raise SystemExit(f"FAIL: gave up waiting for {what}")


class Prometheus:
    """Prometheus with --web.enable-remote-write-receiver on a free loopback port."""

    def __init__(self, tmp):
        self.dir = os.path.join(tmp, "tsdb")
        self.log = open(os.path.join(tmp, "prometheus.log"), "ab")
        self.conf = os.path.join(tmp, "prometheus.yml")
        with open(self.conf, "w") as f:
            f.write("global:\n  scrape_interval: 1h\n")
        self.port = None
        self.p = None

    def start(self, port=None):
        for _ in range(5):
            self.port = port or free_port()
            self.p = subprocess.Popen(["prometheus", "--config.file=" + self.conf,
                                       "--storage.tsdb.path=" + self.dir,
                                       "--web.listen-address=127.0.0.1:%d" % self.port,
                                       "--web.enable-remote-write-receiver"],
                                      stdout=self.log, stderr=self.log)
            end = time.time() + DEADLINE
            while time.time() < end and self.p.poll() is None:
                try:
                    with urllib.request.urlopen(self.url("/-/ready"), timeout=2) as r:
                        if r.status == 200:
                            return
                except OSError:
                    pass
                time.sleep(0.1)
            if self.p.poll() is None:
                self.p.kill()
            if port:
                break
        raise SystemExit("FAIL: prometheus did not start: " + open(self.log.name).read()[-2000:])

    def stop(self):
        if self.p and self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            self.p.wait(30)

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def write_url(self):
        return self.url("/api/v1/write")

    def raw(self, selector):
        """Every stored sample of the series selector matches: {labels-tuple: [(ms, value)]}."""
        q = urllib.parse.urlencode({"query": selector + "[1d]", "time": "%.3f" % (time.time() + 60)})
        with urllib.request.urlopen(self.url("/api/v1/query?" + q), timeout=30) as r:
            d = json.load(r)
        out = {}
        for s in d["data"]["result"]:
            key = tuple(sorted(s["metric"].items()))
            out[key] = [(round(float(t) * 1000), float(v)) for t, v in s["values"]]
        return out


class FakeReceiver:
    """Answers every POST with the next of `answers` (status, body), the last one repeated;
    keeps each request's headers and body."""

    def __init__(self, answers, delay=0):
        self.answers = answers
        self.requests = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.requests.append((dict(self.headers), body))
                if delay:
                    time.sleep(delay)
                status, text = outer.answers[min(len(outer.requests), len(outer.answers)) - 1]
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            def log_message(self, *args):
                pass

        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.srv.daemon_threads = True
        self.port = self.srv.server_address[1]
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def url(self, userinfo=""):
        return "http://%s127.0.0.1:%d/api/v1/write" % (userinfo, self.port)


class Agent:
    """`socmon agent ARGS` with /metrics on --http, waiting for one collector, and `socmon record
    --remote` recording its whole stream."""

    def __init__(self, tmp, name, args):
        self.tmp, self.name = tmp, name
        port_file = os.path.join(tmp, name + ".port")
        self.http_file = os.path.join(tmp, name + ".http")
        self.err = os.path.join(tmp, name + ".err")
        self.rec = os.path.join(tmp, name + ".rec")
        self.a = subprocess.Popen([BIN, "agent"] + args + ["--wait-collector", "--listen", "127.0.0.1:0",
                                  "--port-file", port_file, "--http", "127.0.0.1:0", "--http-port-file",
                                  self.http_file], stdout=subprocess.DEVNULL, stderr=open(self.err, "w"))
        wait_for(lambda: os.path.exists(self.http_file) and os.path.getsize(self.http_file) and
                 os.path.exists(port_file) and os.path.getsize(port_file), name + "'s port files")
        port = open(port_file).read().strip()
        self.rec_err = os.path.join(tmp, name + ".rec.err")
        self.r = subprocess.Popen([BIN, "record", "--remote", "127.0.0.1:" + port, "--from", "oldest", "-q",
                                   "-o", self.rec], stdout=open(self.rec_err + ".out", "w"),
                                  stderr=open(self.rec_err, "w"))

    def metrics(self):
        port = open(self.http_file).read().strip()
        with urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=10) as r:
            return r.read().decode()

    def wait_recorded(self, timeout=DEADLINE):
        """The recorder ends with the agent's run; returns /metrics then, and stops the agent."""
        self.r.wait(timeout)
        text = self.metrics()
        self.a.send_signal(signal.SIGTERM)
        self.a.wait(30)
        return text

    def log(self):
        return open(self.err, errors="replace").read()

    def kill(self):
        for p in (self.a, self.r):
            if p.poll() is None:
                p.kill()


# ---- what a recording holds, as the pushed series would show it ----

def sanitize(s):
    out = re.sub(r"[^a-z0-9]+", "_", s.lower().replace("%", "_percent_").replace("/", "_per_"))
    return out.strip("_")


UNIT_SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "MB/s": 1e6, "M/s": 1e6, "M inst/s": 1e6, "accesses/ms": 1e3}


def parse_exposition(text):
    """{(name, labels-tuple): value} and {family-or-sample name: unit socmon shows (from HELP)}."""
    series, units = {}, {}
    for line in text.splitlines():
        m = re.match(r"# HELP (\S+) .*\(socmon (?:shows it|counts) in ([^)]+)\)", line)
        if m:
            units[m.group(1)] = m.group(2)
        if not line or line.startswith("#"):
            continue
        m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line)
        labels = tuple(sorted(re.findall(r'([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"', m.group(2) or "")))
        series[(m.group(1), labels)] = float(m.group(3))
    return series, units


def recording_bins(rec, k):
    """The recording's intervals merged k at a time (the writer's rows): per bin its end time
    (ns since the run's first sample), samples so far, per full counter name the total so far,
    and (k == 1) the interval's metric values."""
    out = subprocess.run([BIN, "report", "-i", rec, "--json", "--deltas"], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit("FAIL: report: " + out.stderr)
    d = json.loads(out.stdout)
    tot, bins = {}, []
    ivs = d["intervals"]
    for i, iv in enumerate(ivs):
        if iv["flags"]:
            bad("interval %d of %s has flags %s: the comparison assumes plain intervals" % (i, rec, iv["flags"]))
        for name, v in iv["deltas"].items():
            tot[name] = tot.get(name, 0) + v
        if (i + 1) % k == 0 or i + 1 == len(ivs):
            bins.append({"t": iv["t_ns"], "samples": i + 2, "tot": dict(tot), "interval": d["interval_ns"],
                         "metrics": iv["metrics"] if k == 1 else None})
    t0 = ivs[0]["t_ns"] - ivs[0]["interval_ns"]   # the first sample's time
    for b in bins:
        b["t"] -= t0
    return bins, d


def expected_value(name, labels, units, b, dropped=0):
    """What series name{labels} must read at bin b, or None when the recording does not say."""
    lab = dict(labels)
    inst = lab.get("inst")
    if name == "socmon_samples_total":
        return b["samples"]
    if name == "socmon_missed_intervals_total":
        return 0
    if name == "socmon_elapsed_seconds":
        return b["t"] / 1e9
    if name == "socmon_target_info":
        return 1
    if name == "socmon_interval_seconds":
        return b["interval"] / 1e9
    if name == "socmon_remote_write_dropped_total":
        return dropped
    scale = 1.0
    unit = units.get(name) or units.get(re.sub(r"_total$", "", name))
    if unit:
        scale = UNIT_SCALE.get(unit, 1.0)
    counter = name.endswith("_total")
    pool = b["tot"] if counter else (b["metrics"] or {})
    best, best_len = None, -1
    for full, v in pool.items():
        i, _, short = full.rpartition(".")
        if (i or None) != inst or (lab.get("counter") and lab["counter"] != short):
            continue
        stem = "socmon_" + sanitize(re.sub(r"_total$", "", short) if counter else short)
        if name.startswith(stem) and len(stem) > best_len:
            best, best_len = float("nan") if v is None else v, len(stem)
    return None if best is None else best * scale


def same(a, b):
    if a != a and b != b:   # NaN
        return True
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def compare(stored, bins, units, push_ms, dropped_at=None, want_all=True):
    """Every stored sample of every series equals the recording's bin at its time (the first
    stored point is the first bin: the offset between the wall clock and the run's time).
    Returns the bins matched (indexes)."""
    if not stored:
        bad("the receiver has no socmon series")
        return set()
    t_first = min(pts[0][0] for pts in stored.values())
    base = t_first - bins[0]["t"] / 1e6
    by_ms = {}
    for i, b in enumerate(bins):
        by_ms[round(base + b["t"] / 1e6)] = i
    matched, checked, missing_expect = set(), 0, set()
    for key, pts in stored.items():
        lab = dict(key)
        name = lab.pop("__name__")
        labels = tuple(sorted((k, v) for k, v in lab.items() if k not in ("job", "instance")))
        for t, v in pts:
            i = next((by_ms[t + d] for d in (0, -1, 1, -2, 2) if t + d in by_ms), None)
            if i is None:
                bad("%s%s: a sample at %d ms that no bin of the recording ends at" % (name, labels, t))
                continue
            matched.add(i)
            want = expected_value(name, labels, units, bins[i], dropped_at(t) if dropped_at else 0)
            if want is None:
                missing_expect.add(name)
                continue
            checked += 1
            if not same(v, want):
                bad("%s%s at bin %d: the receiver has %r, the recording %r" % (name, labels, i, v, want))
    if want_all and len(matched) != len(bins):
        bad("the receiver has %d of the recording's %d points" % (len(matched), len(bins)))
    print("compared %d stored samples of %d series with the recording (%d points; series the recording "
          "cannot check: %s)" % (checked, len(stored), len(matched), sorted(missing_expect) or "none"), flush=True)
    return matched


def same_series(stored, metrics_text):
    """The pushed series are /metrics's (names and labels, job and instance aside), plus the
    writer's own drop counter."""
    served, _ = parse_exposition(metrics_text)
    served_keys = {(n, l) for n, l in served}
    pushed = set()
    for key in stored:
        lab = dict(key)
        name = lab.pop("__name__")
        if lab.pop("job", None) != "socmon" or "instance" not in lab:
            bad("%s: job/instance labels %r" % (name, key))
        lab.pop("instance", None)
        pushed.add((name, tuple(sorted(lab.items()))))
    extra = {k for k in pushed - served_keys if k[0] != "socmon_remote_write_dropped_total"}
    missing = served_keys - pushed
    if extra:
        bad("pushed but not on /metrics: %s" % sorted(extra)[:5])
    if missing:
        bad("on /metrics but never pushed: %s" % sorted(missing)[:5])
    if not any(k[0] == "socmon_remote_write_dropped_total" for k in pushed):
        bad("no socmon_remote_write_dropped_total pushed")
    # the last push of a counter is the total /metrics serves once the run is over
    for key, pts in stored.items():
        lab = dict(key)
        name = lab.pop("__name__")
        lab.pop("job", None)
        lab.pop("instance", None)
        k = (name, tuple(sorted(lab.items())))
        if name.endswith("_total") and k in served and not same(pts[-1][1], served[k]):
            bad("%s%s: last pushed %r, /metrics %r" % (name, k[1], pts[-1][1], served[k]))
    return served


# ---- what a fake receiver got: snappy's block format and the WriteRequest, read here ----

def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return v, i


def unsnappy(b):
    """Snappy's block format (the format description of google/snappy): a varint length, then
    literals and back-references."""
    n, i = _varint(b, 0)
    out = bytearray()
    while i < len(b):
        tag = b[i]
        i += 1
        kind = tag & 3
        if kind == 0:
            ln = tag >> 2
            if ln >= 60:
                k = ln - 59
                ln = int.from_bytes(b[i:i + k], "little")
                i += k
            ln += 1
            out += b[i:i + ln]
            i += ln
            continue
        if kind == 1:
            ln, off = ((tag >> 2) & 7) + 4, ((tag >> 5) << 8) | b[i]
            i += 1
        else:
            k = 2 if kind == 2 else 4
            ln, off = (tag >> 2) + 1, int.from_bytes(b[i:i + k], "little")
            i += k
        for _ in range(ln):
            out.append(out[-off])
    if len(out) != n:
        raise ValueError("snappy: %d bytes, the header says %d" % (len(out), n))
    return bytes(out)


def _fields(b):
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        field, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 2:
            ln, i = _varint(b, i)
            v, i = b[i:i + ln], i + ln
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("protobuf: wire type %d" % wt)
        yield field, v


def write_request(body):
    """[(labels dict, [(ms, value)])] of a snappy-compressed WriteRequest."""
    import struct
    out = []
    for f, ts in _fields(unsnappy(body)):
        if f != 1:
            continue
        labels, samples = {}, []
        for g, v in _fields(ts):
            if g == 1:
                lab = dict(_fields(v))
                labels[lab.get(1, b"").decode()] = lab.get(2, b"").decode()
            elif g == 2:
                s = dict(_fields(v))
                val = struct.unpack("<d", s.get(1, b"\0" * 8))[0]
                t = s.get(2, 0)
                samples.append((t - (1 << 64) if t >= 1 << 63 else t, val))
        out.append((labels, samples))
    return out


def received(fake):
    """Everything a fake receiver was sent, as Prometheus.raw gives it."""
    stored = {}
    for _, body in fake.requests:
        for labels, samples in write_request(body):
            stored.setdefault(tuple(sorted(labels.items())), []).extend(samples)
    for v in stored.values():
        v.sort()
    return stored
