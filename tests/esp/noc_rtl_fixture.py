#!/usr/bin/env python3
"""The ESP NoC RTL oracle fixture is well-formed and self-consistent (tests/esp/noc_rtl/README.md).

  noc_rtl_fixture.py check DIR [TRACE...]   DIR holds traces/, expected/ and gen_traces.py;
                                            exits 1 on a fault; TRACEs: check only those (no .txt)

For every trace it checks that expected/<trace>.txt exists (and no expected file lacks a trace),
that it describes the same packets in the same order, that each tile's tile_inject is the flits that
tile sends, that a link's queue_full is at least the flits XY routing sends over it (and 0 on a link
no packet uses), that every latency is tail_out - head_in, no less than hops + flits, that no packet
enters before its cycle, that the drain is the last tail, and that min/mean/p99/max are those of the
per-packet latencies. The synthetic traces must equal what gen_traces.py writes.
"""
import math
import os
import subprocess
import sys

PORTS = "NSWEL"


def fail(msg):
    raise ValueError(msg)


def read_trace(path):
    mesh, plane, pkts, stalls = None, 0, [], []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            where = "%s:%d" % (os.path.basename(path), n)
            if mesh is None:
                if words[0] != "mesh" or len(words) != 3:
                    fail("%s: first line must be 'mesh ROWS COLS'" % where)
                mesh = (int(words[1]), int(words[2]))
                continue
            tiles = mesh[0] * mesh[1]
            if words[0] == "plane":
                plane = int(words[1])
                if not 0 <= plane <= 5:
                    fail("%s: plane %d outside 0..5" % (where, plane))
            elif words[0] == "stall":
                tile, lo, hi = map(int, words[1:4])
                if not 0 <= tile < tiles or lo > hi:
                    fail("%s: bad stall" % where)
                stalls.append((tile, lo, hi))
            else:
                cyc, src, dst, flits = map(int, words)
                if not (0 <= src < tiles and 0 <= dst < tiles and src != dst and 1 <= flits <= 256):
                    fail("%s: bad packet" % where)
                if pkts and cyc < pkts[-1][0]:
                    fail("%s: cycles not sorted" % where)
                pkts.append((cyc, src, dst, flits))
    if mesh is None:
        fail("%s: no mesh line" % path)
    return mesh, plane, pkts, stalls


def read_expected(path):
    head, tiles, pkts = {}, {}, []
    with open(path) as f:
        for raw in f:
            w = raw.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] == "tile":
                tiles[int(w[1])] = list(map(int, w[2:8]))
            elif w[0] == "pkt":
                pkts.append(list(map(int, w[1:9])))
            elif w[0] == "latency":
                head["latency"] = dict(zip(w[1::2], w[2::2]))
            else:
                head[w[0]] = w[1:]
    return head, tiles, pkts


def xy_links(src, dst, cols):
    """(tile, output port index) of every router a packet leaves, in order (XY, as ESP routes)."""
    y, x = divmod(src, cols)
    dy, dx = divmod(dst, cols)
    out = []
    while (y, x) != (dy, dx):
        if x != dx:
            port = 3 if x < dx else 2
            out.append((y * cols + x, port))
            x += 1 if x < dx else -1
        else:
            port = 1 if y < dy else 0
            out.append((y * cols + x, port))
            y += 1 if y < dy else -1
    return out


def check_one(name, trace_path, exp_path):
    (rows, cols), plane, tpk, _ = read_trace(trace_path)
    head, tiles, epk = read_expected(exp_path)
    n = rows * cols
    if head.get("trace") != [name]:
        fail("%s: trace line %s" % (name, head.get("trace")))
    if head.get("mesh") != [str(rows), str(cols)] or head.get("plane") != [str(plane)]:
        fail("%s: mesh or plane differs from the trace's" % name)
    if sorted(tiles) != list(range(n)):
        fail("%s: tile lines %s, expected 0..%d" % (name, sorted(tiles), n - 1))
    if int(head["packets"][0]) != len(tpk) or len(epk) != len(tpk):
        fail("%s: %s packets, %d pkt lines, trace has %d" % (name, head["packets"][0], len(epk), len(tpk)))
    total = sum(p[3] for p in tpk)
    if int(head["flits"][0]) != total:
        fail("%s: flits %s, trace has %d" % (name, head["flits"][0], total))
    if sum(t[0] for t in tiles.values()) != total:
        fail("%s: sum of tile_inject %d != %d flits" % (name, sum(t[0] for t in tiles.values()), total))
    sent = [0] * n
    link = {}
    for p in tpk:
        sent[p[1]] += p[3]
        for hop in xy_links(p[1], p[2], cols):
            link[hop] = link.get(hop, 0) + p[3]
    for t in range(n):
        if tiles[t][0] != sent[t]:
            fail("%s: tile %d tile_inject %d, it sends %d flits" % (name, t, tiles[t][0], sent[t]))
        got = sum(p[3] for p in tpk if p[2] == t)
        if tiles[t][5] < max(sent[t], got):
            fail("%s: tile %d queue_full(L) %d < flits in or out %d" % (name, t, tiles[t][5], max(sent[t], got)))
        for q in range(4):
            want = link.get((t, q), 0)
            if tiles[t][1 + q] < want or (want == 0 and tiles[t][1 + q] != 0):
                fail("%s: tile %d queue_full(%s) %d, XY sends %d flits on it"
                     % (name, t, PORTS[q], tiles[t][1 + q], want))
    lat = []
    for i, (e, t) in enumerate(zip(epk, tpk)):
        idx, src, dst, flits, hin, tout, l = e
        if idx != i or (src, dst, flits) != t[1:]:
            fail("%s: pkt %d is %s, trace says %s" % (name, i, e[:4], t))
        if hin < t[0] or l != tout - hin:
            fail("%s: pkt %d enters at %d (cycle %d), latency %d != %d - %d" % (name, i, hin, t[0], l, tout, hin))
        hops = len(xy_links(src, dst, cols))
        if l < hops + flits:
            fail("%s: pkt %d latency %d < hops + flits %d" % (name, i, l, hops + flits))
        lat.append(l)
    drain = int(head["drain"][0])
    if tpk and (drain < tpk[-1][0] or drain != max(e[5] for e in epk)):
        fail("%s: drain %d: last packet at %d, last tail at %d" % (name, drain, tpk[-1][0], max(e[5] for e in epk)))
    if lat:
        s = sorted(lat)
        st = head["latency"]
        want = {"min": s[0], "p99": s[max(1, math.ceil(0.99 * len(s))) - 1], "max": s[-1]}
        for k, v in want.items():
            if int(st[k]) != v:
                fail("%s: latency %s %s, the packets give %d" % (name, k, st[k], v))
        if abs(float(st["mean"]) - sum(lat) / len(lat)) > 0.0005:
            fail("%s: latency mean %s, the packets give %.4f" % (name, st["mean"], sum(lat) / len(lat)))
    return len(tpk)


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "check":
        sys.exit(__doc__)
    d, only = sys.argv[2], sys.argv[3:]
    traces = sorted(f[:-4] for f in os.listdir(os.path.join(d, "traces")) if f.endswith(".txt"))
    expected = sorted(f[:-4] for f in os.listdir(os.path.join(d, "expected")) if f.endswith(".txt"))
    bad = []
    for x in sorted(set(expected) - set(traces)):
        bad.append("expected/%s.txt has no trace" % x)
    if only:
        bad += ["traces/%s.txt does not exist" % t for t in only if t not in traces]
        traces = [t for t in traces if t in only]
    npk = 0
    for t in traces:
        exp = os.path.join(d, "expected", t + ".txt")
        if not os.path.exists(exp):
            bad.append("traces/%s.txt has no expected/%s.txt" % (t, t))
            continue
        try:
            npk += check_one(t, os.path.join(d, "traces", t + ".txt"), exp)
        except (ValueError, KeyError, IndexError) as e:
            bad.append(str(e) if isinstance(e, ValueError) else "%s: malformed (%r)" % (t, e))
    gen = subprocess.run([sys.executable, os.path.join(d, "gen_traces.py"), "check",
                          os.path.join(d, "traces")], stdout=subprocess.PIPE, text=True)
    if gen.returncode:
        bad.append(gen.stdout.strip() or "gen_traces.py check failed")
    if not only and len(traces) < 30:
        bad.append("%d traces, at least 30 wanted" % len(traces))
    for b in bad:
        print("noc_rtl_fixture: " + b)
    if not bad:
        print("noc_rtl_fixture: %d traces, %d packets: consistent" % (len(traces), npk))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
