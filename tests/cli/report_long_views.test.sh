#!/bin/sh
# What a long recording does to the views that draw it, and what record says before it writes one
# (issue 37, item 19). --perfetto merges intervals beyond 2^24 track values and says so on stderr
# and in the trace (an instant "intervals merged", keys "[events/2 intervals]"); a short recording
# is written as before. record -d warns, before the run, when the recording will hold more values
# than a load does (2^30), and not for a short run.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
LONG=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}/rec_long

# 256 tracks x 69,999 intervals: 17.9 M values, over 2^24 (16.8 M): every 2 intervals are one row
"$LONG" "$TMP/long.rec" 256 70000 && ok || bad "rec_long"
expect 0 "its 69,999 intervals are 35,000 rows of 2 merged intervals" -- \
    "$BIN" report -i "$TMP/long.rec" --perfetto "$TMP/long.json"
python3 - "$TMP/long.json" <<'PY' && ok || bad "the merged trace"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
note = [e for e in ev if e.get("name") == "intervals merged"]
assert note and note[0]["args"]["merge"] == 2 and note[0]["args"]["intervals"] == 69999, note
c0 = [e for e in ev if e.get("name") == "c0"]
# c0 counts 1 an interval: 2 a merged row, 1 in the last row (interval 69,999 alone)
assert [e["args"] for e in c0] == [{"[events/2 intervals]": 2}, {"[events/2 intervals]": 1}], c0
PY
"$LONG" "$TMP/short.rec" 256 1000 && ok || bad "rec_long short"
"$BIN" report -i "$TMP/short.rec" --perfetto "$TMP/short.json" 2>"$TMP/short.err" && ok || bad "short trace"
grep -q "merged" "$TMP/short.err" "$TMP/short.json" && bad "a short recording was merged" || ok
grep -q '"\[events/interval\]":1}' "$TMP/short.json" && ok || bad "a short trace's keys changed"

# --json writes its rows as they come: 70 times the rows cost about the same peak RSS (the whole
# document in memory took 116 MB against 15 MB), and the document is whole
python3 - "$BIN" "$TMP" <<'PY' && ok || bad "report --json keeps the rows of a long recording in memory"
import json, os, subprocess, sys
binary, tmp = sys.argv[1], sys.argv[2]
# a sanitizer build keeps freed memory in quarantine (256 MB): none here, so RSS is what is in use
env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0")
def peak(name):
    out = os.path.join(tmp, name + ".json")
    with open(out, "wb") as f:
        p = subprocess.Popen([binary, "report", "-i", os.path.join(tmp, name + ".rec"), "--json"], stdout=f,
                             env=env)
        _, status, ru = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, name
    return ru.ru_maxrss, json.load(open(out))
short, s = peak("short")
long_, l = peak("long")
print("report --json: peak RSS %d KiB for 999 rows, %d KiB for 69,999" % (short, long_))
assert len(s["intervals"]) == 999 and len(l["intervals"]) == 69999, (len(s["intervals"]), len(l["intervals"]))
sys.exit(0 if long_ <= short + 16 * 1024 else 1)
PY

# record: 5,164 counters of the 8x8 SoC (2,304 of them model-only) every 100 us for 40 s is 2.07e9 values; the warning comes
# before the first sample, then SIGINT ends the run (bounded: 20 s)
python3 - "$BIN" "$TMP" <<'PY' && ok || bad "record's warning of a recording no load holds"
import os, signal, subprocess, sys, time
binary, tmp = sys.argv[1], sys.argv[2]
p = subprocess.Popen([binary, "record", "-q", "-t", "esp:soc=esp_8x8", "-I", "100us", "-d", "40s", "-o",
                      os.path.join(tmp, "big.rec")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
line = p.stderr.readline()
p.send_signal(signal.SIGINT)
try:
    p.wait(timeout=20)
finally:
    p.kill()
print(line.strip())
want = ("about 400,001 samples of 5,164 counters (2,065,605,164 values), more than the 1,073,741,824 a load "
        "holds")
sys.exit(0 if want in line else 1)
PY
"$BIN" record -q -t esp -I 100us -d 10ms -o "$TMP/small.rec" 2>"$TMP/small.err" && ok || bad "record -d 10ms"
grep -q "a load holds" "$TMP/small.err" && bad "a short record warned" || ok
finish report_long_views
