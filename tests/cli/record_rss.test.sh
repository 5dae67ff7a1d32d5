#!/bin/sh
# socmon record keeps nothing of the run in memory: a run ten times longer (200,000 samples of 259
# counters against 20,000) has about the same peak RSS (ru_maxrss). The bound is generous (8 MiB
# more); an in-memory recording grows by tens of MiB here. Not timed: simulated time, -q.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

python3 - "$BIN" "$TMP" <<'PY' && ok || bad "RSS grows with the run"
import os, subprocess, sys
binary, tmp = sys.argv[1], sys.argv[2]
def peak_kib(duration):
    path = os.path.join(tmp, "rss-%s.rec" % duration)
    p = subprocess.Popen([binary, "record", "-q", "-I", "1us", "-d", duration, "-o", path],
                         stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("record -d %s failed" % duration)
    return ru.ru_maxrss
short, long_ = peak_kib("20ms"), peak_kib("200ms")
print("record_rss: peak RSS %d KiB for 20,000 samples, %d KiB for 200,000" % (short, long_))
sys.exit(0 if long_ <= short + 8 * 1024 else 1)
PY
finish "record_rss"
