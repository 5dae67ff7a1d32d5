#!/bin/sh
# The Grafana dashboard (dashboards/grafana/socmon-agent.json, installed as
# share/socmon/grafana/socmon-agent.json; issue 28 item 13) uses only series
# the agent serves: agents on the ESP, Zynq and Tensix models serve /metrics, and every metric name
# in every panel expression (and in the template variables) must be among the names they serve; a
# __name__ regular expression must match one. promtool checks that every expression parses (as a
# recording rule, with Grafana's variables given values), and cmake --install puts the dashboard
# under share/socmon/grafana. Parsing is not enough (issue 37 item 3: "Busiest counters" parsed,
# and Prometheus refused it): Debian's Prometheus then scrapes live, paced agents on the three
# models at once, and tests/support/prom_scrape.py --dashboard runs every panel's query, instant
# and over a range, failing on an error, on a query with no series (or none of an agent serving
# what it reads: "Busiest counters" must show each target's ten), or on a legend label the series
# lack; the target variable must list all three.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
GET="python3 $SOCMON_SRC/tests/support/http_get.py"
DASH=$SOCMON_SRC/dashboards/grafana/socmon-agent.json

: >"$TMP/served.prom"
for t in "esp -w multifft" "zynq -w steady" "tensix"; do
    name=${t%% *}
    # shellcheck disable=SC2086
    start_agent "$name" -t $t -I 1ms -d 50ms --no-pace --http 127.0.0.1:0 --http-port-file "$TMP/$name.http"
    wait_for test -s "$TMP/$name.http" || bad "$name: no --http port: $(cat "$TMP/$name.err")"
    url=http://127.0.0.1:$(cat "$TMP/$name.http")
    # the run is over once the stream says so: then every metric has a value to serve
    $GET "$url/api/stream" --until-event end 2>"$TMP/stream.err" || bad "$name: no 'event: end': $(cat "$TMP/stream.err")"
    $GET "$url/metrics" -o "$TMP/$name.prom" 2>"$TMP/ct" && ok || bad "$name: GET /metrics: $(cat "$TMP/ct")"
    cat "$TMP/$name.prom" >>"$TMP/served.prom"
    stop_agent
done

python3 - "$DASH" "$TMP/served.prom" "$TMP/rules.yml" <<'PY' && ok || bad "the dashboard uses series the agent does not serve"
import json, re, sys
dash = json.load(open(sys.argv[1]))
served = {line.split("{")[0].split(" ")[0] for line in open(sys.argv[2]) if line.strip() and not line.startswith("#")}
assert len(served) > 50, served
exprs = []   # (where, expression)
for p in dash["panels"]:
    if p["type"] == "row":
        continue
    assert p.get("targets"), "panel %r has no query" % p["title"]
    for t in p["targets"]:
        exprs.append(("panel %r" % p["title"], t["expr"]))
for v in dash["templating"]["list"]:
    if v["type"] == "query":
        exprs.append(("variable %r" % v["name"], v["definition"]))
bad = []
for where, e in exprs:
    names = set(re.findall(r"\bsocmon_[A-Za-z0-9_]+", e))
    for rx in re.findall(r'__name__=~"([^"]*)"', e):
        hits = [n for n in served if re.fullmatch(rx, n)]
        if not hits:
            bad.append("%s: __name__=~%r matches no served series" % (where, rx))
        names -= {n for n in names if n in rx}
        if hits:
            names.add(hits[0])
    if not names:
        bad.append("%s: %r uses no socmon series" % (where, e))
    for n in sorted(names - served):
        bad.append("%s: %s is not served (%s)" % (where, n, e))
for b in bad:
    print("FAIL:", b)
# every panel expression as a recording rule, Grafana's variables given values, for promtool
with open(sys.argv[3], "w") as f:
    f.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, (where, e) in enumerate(exprs):
        if where.startswith("variable"):
            continue
        e = e.replace("$__rate_interval", "1m").replace("$target", ".*")
        f.write("      - record: socmon_dashboard_%d\n        expr: %s\n" % (i, json.dumps(e)))
print("dashboard: %d expressions, %d distinct series served" % (len(exprs), len(served)))
sys.exit(1 if bad else 0)
PY
if command -v promtool >/dev/null; then
    promtool check rules "$TMP/rules.yml" >"$TMP/promtool.out" 2>&1 && ok ||
        bad "promtool: a dashboard expression does not parse: $(cat "$TMP/promtool.out")"
else
    bad "promtool missing (sh scripts/install-deps.sh installs it)"
fi

# every panel's query through a real Prometheus, against agents that keep counting (paced,
# -d 600s: they are stopped when the test ends; each wait in prom_scrape.py has a deadline)
scrapes=""
for t in "esp -w multifft" "zynq -w steady" "tensix"; do
    name=live_${t%% *}
    # shellcheck disable=SC2086
    start_agent "$name" -t $t -d 600s --http 127.0.0.1:0 --http-port-file "$TMP/$name.http"
    wait_for test -s "$TMP/$name.http" || bad "$name: no --http port: $(cat "$TMP/$name.err")"
    scrapes="$scrapes --scrape ${t%% *}=127.0.0.1:$(cat "$TMP/$name.http")"
done
mkdir "$TMP/prom"
# shellcheck disable=SC2086
if python3 "$SOCMON_SRC/tests/support/prom_scrape.py" --dir "$TMP/prom" $scrapes --dashboard "$DASH" \
    --want-target esp --want-target zynq --want-target tensix >"$TMP/prom.out" 2>&1; then ok; else
    bad "a dashboard query fails in Prometheus: $(grep -v '^ts=' "$TMP/prom.out" | tail -3)"
fi
# what each query returned, for a person reading ctest's log (--output-on-failure, -V)
grep '^prom_scrape: panel' "$TMP/prom.out"
for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done

# installed with the rest of share/socmon
if [ -n "${SOCMON_BUILD:-}" ] && [ -f "$SOCMON_BUILD/cmake_install.cmake" ]; then
    # its component alone: the test does not depend on every other target being built
    cmake --install "$SOCMON_BUILD" --prefix "$TMP/inst" --component grafana >"$TMP/install.out" 2>&1
    cmp -s "$DASH" "$TMP/inst/share/socmon/grafana/socmon-agent.json" && ok ||
        bad "cmake --install did not put the dashboard in share/socmon/grafana: $(tail -3 "$TMP/install.out")"
fi
finish grafana_dashboard
