#!/usr/bin/env python3
"""Drives Debian's Prometheus for the scrape tests: starts it on loopback with a generated
config (scrape interval 1 s, TSDB in a temporary directory), waits until every scrape target is
up, then polls the query API until each expected query returns the expected value.

  prom_scrape.py --dir DIR [--serve JOB=FILE[:openmetrics]]... [--scrape JOB=HOST:PORT]...
                 [--expect 'PROMQL=VALUE']... [--dashboard GRAFANA.json [--want-target NAME]...]

--serve serves FILE from this process (a thread on a port the kernel picks, so no race) with
the content type of its format; --scrape points Prometheus at a running exporter (the agent).
Prometheus's own port cannot be handed over bound, so it is picked by binding port 0 and
releasing it; if Prometheus then finds it taken, it is started again on another (5 tries).
Every wait is on a condition with a generous deadline (a slow machine only waits longer); on
failure the message says what was last seen, and Prometheus's log is printed. Exit 0: all
expectations met.

--dashboard runs every panel query of a Grafana dashboard, as Grafana would (its variables given
the values Grafana gives them with a 1 s scrape interval: $__rate_interval 4s, $__interval 1s,
$target all), through the query API, instant and over a range, once every target has been scraped
3 times within $__rate_interval: an error fails at once; a result with no series, or with none of
a scraped instance (or target) that serves the series the query reads, is polled until the
deadline; every {{label}} of a legend must be a label of every series of a graph. A query variable label_values(METRIC, LABEL) must list every --want-target. Python 3 standard library only."""

import argparse
import http.server
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.error
import urllib.request

DEADLINE = 120  # seconds for each wait; never reached on a working setup
CTYPES = {
    "prometheus": "text/plain; version=0.0.4; charset=utf-8",
    "openmetrics": "application/openmetrics-text; version=1.0.0; charset=utf-8",
}


def fail(msg):
    print("prom_scrape: FAIL: " + msg, file=sys.stderr)
    raise SystemExit(1)


def serve_file(path, fmt):
    """Serves path at every URL with fmt's content type; returns the port."""
    body = open(path, "rb").read()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", CTYPES[fmt])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv.server_address[1]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read().decode())


def start_prometheus(workdir, jobs):
    cfg = os.path.join(workdir, "prometheus.yml")
    with open(cfg, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\nscrape_configs:\n")
        for job, addr in jobs:
            f.write("  - job_name: %s\n    static_configs:\n      - targets: ['%s']\n" % (job, addr))
    for attempt in range(5):
        port = free_port()
        log = open(os.path.join(workdir, "prometheus.log"), "w")
        proc = subprocess.Popen(
            ["prometheus", "--config.file=" + cfg, "--storage.tsdb.path=" + os.path.join(workdir, "tsdb"),
             "--web.listen-address=127.0.0.1:%d" % port, "--log.level=info"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = "http://127.0.0.1:%d" % port
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(base + "/-/ready", timeout=5) as r:
                    if r.status == 200:
                        return proc, base
            except OSError:
                pass
            time.sleep(0.1)
        stop(proc)
        text = open(os.path.join(workdir, "prometheus.log")).read()
        if "address already in use" not in text:
            print(text[-3000:], file=sys.stderr)
            fail("prometheus did not become ready on 127.0.0.1:%d" % port)
        print("prom_scrape: port %d was taken meanwhile, trying another" % port)
    fail("prometheus found its port taken 5 times")


def stop(proc):
    if proc and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def wait_up(base, jobs):
    end = time.monotonic() + DEADLINE
    seen = {}
    while time.monotonic() < end:
        active = get_json(base + "/api/v1/targets?state=active")["data"]["activeTargets"]
        seen = {t["labels"]["job"]: (t["health"], t.get("lastError", "")) for t in active}
        bad = [j for j, h in seen.items() if h[0] == "down"]
        if bad:
            fail("target %s is down: %s" % (bad[0], seen[bad[0]][1]))
        if all(seen.get(j, ("",))[0] == "up" for j, _ in jobs):
            print("prom_scrape: targets up: %s" % ", ".join(sorted(seen)))
            return
        time.sleep(0.2)
    fail("targets not up after %d s: %s" % (DEADLINE, seen))


def wait_value(base, query, want):
    end = time.monotonic() + DEADLINE
    last = None
    while time.monotonic() < end:
        res = get_json(base + "/api/v1/query?" + urllib.parse.urlencode({"query": query}))["data"]["result"]
        if len(res) > 1:
            fail("%s matches %d series, want one: %s" % (query, len(res), [r["metric"] for r in res]))
        if res:
            last = res[0]["value"][1]
            if float(last) == float(want):
                print("prom_scrape: %s = %s" % (query, last))
                return
            if float(last) > float(want):
                fail("%s = %s, past the expected %s" % (query, last, want))
        time.sleep(0.2)
    fail("%s: last %s, expected %s (after %d s)" % (query, last, want, DEADLINE))


def wait_near(base, query, want):
    """One series whose value is within 1 % of want: a PromQL expression over rates (a ratio of two
    counters' rates returns nothing when their label sets do not match)."""
    end = time.monotonic() + DEADLINE
    last = None
    while time.monotonic() < end:
        res = get_json(base + "/api/v1/query?" + urllib.parse.urlencode({"query": query}))["data"]["result"]
        if len(res) > 1:
            fail("%s matches %d series, want one: %s" % (query, len(res), [r["metric"] for r in res]))
        if res:
            last = res[0]["value"][1]
            if abs(float(last) - float(want)) <= abs(float(want)) * 0.01:
                print("prom_scrape: %s = %s" % (query, last))
                return
        time.sleep(0.2)
    fail("%s: last %s, expected %s within 1 %% (after %d s)" % (query, last, want, DEADLINE))


# Grafana's values for its built-in variables with a 1 s scrape interval and a 1 s step:
# $__rate_interval is max($__interval + scrape interval, 4 x scrape interval)
GRAFANA_VARS = {"$__rate_interval": "4s", "$__interval": "1s", "$__range": "10s"}


def api_query(base, path, params):
    """The API's data for params (a query's result): (data, None), or (None, the error) for a query it refuses."""
    url = base + path + "?" + urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            doc = json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        doc = json.loads(e.read().decode() or "{}")
    if doc.get("status") != "success":
        return None, "%s: %s" % (doc.get("errorType"), doc.get("error"))
    data = doc["data"]
    return (data["result"] if isinstance(data, dict) else data), None


def dashboard_exprs(path):
    """(where, expression, legend) of every panel query, variables replaced; [(name, definition)]."""
    dash = json.load(open(path))
    exprs, variables = [], []
    for p in dash["panels"]:
        for t in p.get("targets", []):
            e = t["expr"]
            for k in sorted(GRAFANA_VARS, key=len, reverse=True):
                e = e.replace(k, GRAFANA_VARS[k])
            e = e.replace("$target", ".*")
            if "$" in e.replace("$1", ""):
                fail("panel %r: a variable this test gives no value: %s" % (p["title"], e))
            # a table shows every label as a column; only a graph's series are named by the legend
            legend = t.get("legendFormat", "") if p["type"] == "timeseries" else ""
            exprs.append(("panel %r %s" % (p["title"], t.get("refId", "")), e, legend))
    for v in dash.get("templating", {}).get("list", []):
        if v["type"] == "query":
            variables.append((v["name"], v["definition"]))
    return exprs, variables


def serving(base, e, key):
    """The values of label key (instance or target) of the scraped series that e selects: of those
    serving every metric name it names (a ratio needs both), and any series its __name__ regular
    expressions match. None when e names no series."""
    sets = []
    for rx in re.findall(r'__name__=~"([^"]*)"', e):
        sets.append('{__name__=~"%s"}' % rx)
    for name in set(re.findall(r"\bsocmon_[A-Za-z0-9_]*[A-Za-z0-9]\b", e)) - {"socmon_"}:
        if not any(name in rx for rx in re.findall(r'__name__=~"([^"]*)"', e)):
            sets.append(name)
    have = None
    for sel in sets:
        res, err = api_query(base, "/api/v1/query", {"query": "count by (%s) (%s)" % (key, sel)})
        got = {r["metric"].get(key, "") for r in res or []}
        have = got if have is None else have & got
    return have


def check_dashboard(base, path, want_targets):
    """Every panel query answers without an error, with series, over a range too, and with series
    of every scraped instance (or target) that serves what it reads."""
    exprs, variables = dashboard_exprs(path)
    end = time.monotonic() + DEADLINE
    # first every target scraped at least 3 times within $__rate_interval, so a rate has points
    while True:
        res, err = api_query(base, "/api/v1/query", {"query": "count_over_time(up[%s]) >= 3" % GRAFANA_VARS["$__rate_interval"]})
        if res is not None and len(res) >= len(want_targets):
            break
        if time.monotonic() > end:
            fail("targets not scraped 3 times in %s after %d s: %s" % (GRAFANA_VARS["$__rate_interval"], DEADLINE, err or res))
        time.sleep(0.2)
    for where, e, legend in exprs:
        while True:
            now = time.time()
            inst, err = api_query(base, "/api/v1/query", {"query": e})
            if err is None:
                rng, err = api_query(base, "/api/v1/query_range",
                                     {"query": e, "start": now - 10, "end": now, "step": "1s"})
            if err is not None:
                fail("%s: Prometheus refuses %s: %s" % (where, e, err))
            # the label its series are told apart by: per board (instance), or per kind (target)
            key = next((k for k in ("instance", "target") if inst and all(k in r["metric"] for r in inst)), None)
            want = serving(base, e, key) if key else None
            missing = sorted(want - {r["metric"][key] for r in inst}) if want else []
            if inst and rng and not missing:
                break
            if time.monotonic() > end:
                fail("%s: %s after %d s: %s" % (where, "no series (instant %d, range %d)" % (len(inst), len(rng))
                                                 if not (inst and rng) else "no series of %s %s" % (key, missing),
                                                 DEADLINE, e))
            time.sleep(0.2)
        for label in re.findall(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}", legend):
            lacking = [r["metric"] for r in inst + rng if label not in r["metric"]]
            if lacking:
                fail("%s: the legend's {{%s}} is no label of %s (%s)" % (where, label, lacking[0], e))
        print("prom_scrape: %s: %d series, of %s %s" % (where, len(inst), key, sorted(want or [])))
    for name, definition in variables:
        m = re.fullmatch(r"label_values\((\w+),\s*(\w+)\)", definition)
        if not m:
            fail("variable %s: %r is not label_values(METRIC, LABEL)" % (name, definition))
        got, err = api_query(base, "/api/v1/label/%s/values" % m.group(2), {"match[]": m.group(1)})
        if err is not None or any(t not in got for t in want_targets):
            fail("variable %s: %s gives %s (want %s)" % (name, definition, err or got, want_targets))
        print("prom_scrape: variable %s: %s" % (name, ", ".join(got)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--serve", action="append", default=[], metavar="JOB=FILE[:FORMAT]")
    ap.add_argument("--scrape", action="append", default=[], metavar="JOB=HOST:PORT")
    ap.add_argument("--expect", action="append", default=[], metavar="PROMQL=VALUE")
    ap.add_argument("--expect-near", action="append", default=[], metavar="PROMQL=VALUE")
    ap.add_argument("--dashboard", metavar="GRAFANA.json")
    ap.add_argument("--want-target", action="append", default=[], metavar="NAME")
    a = ap.parse_args()
    jobs = []
    for s in a.serve:
        job, spec = s.split("=", 1)
        path, _, fmt = spec.partition(":")
        jobs.append((job, "127.0.0.1:%d" % serve_file(path, fmt or "prometheus")))
    for s in a.scrape:
        job, addr = s.split("=", 1)
        jobs.append((job, addr))
    proc = None
    try:
        proc, base = start_prometheus(a.dir, jobs)
        wait_up(base, jobs)
        for e in a.expect:
            query, want = e.rsplit("=", 1)
            wait_value(base, query, want)
        for e in a.expect_near:
            query, want = e.rsplit("=", 1)
            wait_near(base, query, want)
        if a.dashboard:
            check_dashboard(base, a.dashboard, a.want_target)
    except SystemExit:
        if os.path.exists(os.path.join(a.dir, "prometheus.log")):
            print(open(os.path.join(a.dir, "prometheus.log")).read()[-3000:], file=sys.stderr)
        raise
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
