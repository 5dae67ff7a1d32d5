#!/usr/bin/env python3
"""Raw clients (and a fake agent) speaking the agent protocol byte by byte, for the shell tests:
what a misbehaving peer does, which socmon's own collector never would.

  wire_client.py garbage HOST:PORT        sends an HTTP request; prints the ERROR frame it gets back
  wire_client.py version HOST:PORT [VER]  a SUBSCRIBE in protocol version VER (default 1, which
                                          a version 2 agent does not speak); prints the ERROR
  wire_client.py stuck HOST:PORT READY    subscribes from the oldest sample, touches READY, never reads
  wire_client.py config HOST:PORT EVENTS  SUBSCRIBE then CONFIG; prints the answer's type (and message)
  wire_client.py configs HOST:PORT N PID EVENTS...
                                          SUBSCRIBE, then N CONFIGs cycling through EVENTS, each
                                          answered by a HELLO; prints the agent's (PID's) resident
                                          memory after the first N/4 and after all N, in KiB
  wire_client.py fake_agent PORTFILE VER  listens on 127.0.0.1:0 (port to PORTFILE), answers one
                                          client with a HELLO whose header says version VER
  (The fake agents speak version 1, which socmon's collector still reads; frames to an agent are
  version 2.)
  wire_client.py hold HOST:PORT N READY SECS [keep|subscribe]
                                          holds N connections for SECS seconds, reopening each one the
                                          agent closes; touches READY once all N are connected. They
                                          send nothing; with 'keep' the first byte of a frame each (a
                                          handshake started) and none is replaced; with 'subscribe' a
                                          SUBSCRIBE without samples
  wire_client.py junk HOST:PORT N         N connections one after another, each sending garbage and
                                          reading until the agent closes; prints how many got an ERROR
  wire_client.py idle HOST:PORT [SRC]     connects (from address SRC), sends nothing; prints the ERROR
                                          and how long the agent kept the connection ("after N.N s")
  wire_client.py scripted PORTFILE SCENARIO [READY]
                                          a fake agent for one collector at a time (up to 4), on
                                          127.0.0.1:0 (port to PORTFILE), playing SCENARIO:
      hostile    HELLO text (target, device, workload, unit, description) and END's reason hold
                 ESC sequences and newlines; 5 samples, STATS, END
      badname    a counter name holds ESC
      backwards  samples at 1000, 2000, then (next frame) 1500 ns, END
      stall      40 samples at once, then silence (the connection open); touches READY once sent
      drip       40 samples, then a STATS frame one byte every 0.5 s (never a whole frame in time)
"""
import os
import select
import socket
import struct
import sys
import time
import zlib

HELLO, SUBSCRIBE, SAMPLES, GAP, STATS, END, ERROR, CONFIG = range(1, 9)


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def string(s):
    b = s.encode()
    return varint(len(b)) + b


def frame(ftype, payload, version=2):
    return struct.pack("<4sBBHII", b"SMAG", version, ftype, 0, len(payload), zlib.crc32(payload)) + payload


def read_varint(p, i):
    v = shift = 0
    while True:
        b = p[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def read_frame(s):
    """(type, payload) of the next frame, or None at EOF."""
    hdr = b""
    while len(hdr) < 16:
        chunk = s.recv(16 - len(hdr))
        if not chunk:
            return None
        hdr += chunk
    magic, _ver, ftype, _res, length, _crc = struct.unpack("<4sBBHII", hdr)
    assert magic == b"SMAG", magic
    payload = b""
    while len(payload) < length:
        chunk = s.recv(length - len(payload))
        if not chunk:
            return None
        payload += chunk
    return ftype, payload


def error_text(payload):
    code, i = read_varint(payload, 0)
    n, i = read_varint(payload, i)
    return code, payload[i:i + n].decode()


def connect(addr, rcvbuf=0):
    host, port = addr.rsplit(":", 1)
    s = socket.socket()
    if rcvbuf:   # before connecting, so the window the agent sees stays small
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(20)
    s.connect((host, int(port)))
    return s


def until_error(s):
    while True:
        f = read_frame(s)
        if f is None:
            print("closed without ERROR")
            return 1
        if f[0] == ERROR:
            code, msg = error_text(f[1])
            print("ERROR %d: %s" % (code, msg))
            # the agent closes after an ERROR
            rest = s.recv(1)
            print("closed" if not rest else "still open")
            return 0


def subscribe(mode, seq=0, token=""):
    return string(token) + varint(mode) + varint(seq) + varint(0)


def hold(addr, n, ready, secs, sub, keep):
    """A hostile peer: n sockets open all the time, each one the agent drops replaced at once (keep: not)."""
    end = time.monotonic() + secs
    hello = frame(SUBSCRIBE, subscribe(0)) if sub else b"S" if keep else b""

    def opened():
        host, port = addr.rsplit(":", 1)
        s = socket.create_connection((host, int(port)), timeout=1)
        s.settimeout(None)
        if hello:
            s.sendall(hello)
        return s

    socks = [opened() for _ in range(n)]
    open(ready, "w").close()
    reopened = 0
    while time.monotonic() < end:
        readable, _, _ = select.select(socks, [], [], min(0.2, max(0.0, end - time.monotonic())))
        for s in readable:
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if data and sub:
                continue   # the HELLO, or STATS: still connected
            # closed, or an ERROR (the agent closes after it): replace it
            socks.remove(s)
            s.close()
            if keep:
                n -= 1
                continue
            try:
                socks.append(opened())
                reopened += 1
            except OSError:
                pass   # the agent's backlog is full: the next round tries again
        while len(socks) < n and time.monotonic() < end:
            try:
                socks.append(opened())
            except OSError:
                break
    print("reopened %d" % reopened)
    return 0


def f64(v):
    return struct.pack("<d", v)


def hello(scenario, nsamples):
    """A HELLO of two 32-bit counters (and, per scenario, hostile strings)."""
    hostile = scenario == "hostile"
    target = "fake\x1b[2J\nFORGED-TARGET" if hostile else "fake"
    device = "dev\x1b]0;pwned\x07\r\nFORGED-DEVICE" if hostile else "dev"
    workload = "w\x1b[31m\nFORGED-WORKLOAD" if hostile else "w"
    unit = "ev\x1b[1m\nFORGED-UNIT" if hostile else "events"
    desc = "d\x1b[2J\nFORGED-DESC \xc2\x9b31m" if hostile else "a counter"
    p = varint(1) + string(target) + string(device) + string(workload)
    p += varint(1000000) + varint(0) + varint(1) + varint(1024) + varint(0) + varint(nsamples) + varint(0) + varint(0)
    names = ["c\x1b[2J", "b"] if scenario == "badname" else ["a", "b"]
    p += varint(len(names))
    for n in names:
        p += string(n) + string("i") + string(unit) + string(desc) + varint(32) + f64(0.0) + varint(0) + varint(0)
    return frame(HELLO, p + varint(1) + string("clock_hz") + f64(1e9), version=1)


def samples(first, times):
    """SAMPLES of len(times) samples from seq first: counter a counts 10 per sample, b 1."""
    p = varint(first) + varint(len(times)) + varint(2)
    for k, t in enumerate(times):
        dt = t if k == 0 else (t - times[k - 1]) % (1 << 64)
        vals = [10 * (first + k), first + k] if k == 0 else [10, 1]
        p += varint(dt) + varint(0) + varint(0) + b"".join(varint(v) for v in vals)
    return frame(SAMPLES, p, version=1)


def stats(n):
    return frame(STATS, varint(n) + varint(0) + varint(0) + varint(0) + varint(1) + varint(0), version=1)


def end(next_seq, reason):
    return frame(END, varint(next_seq) + varint(0) + string(reason), version=1)


def scripted(c, scenario, ready):
    """One collector's session: SUBSCRIBE (HELLO), SUBSCRIBE again (the stream)."""
    n = {"hostile": 5, "stall": 40, "drip": 40, "backwards": 3}.get(scenario, 1)
    while True:
        f = read_frame(c)
        if f is None:
            return
        if f[0] != SUBSCRIBE:
            continue
        p = f[1]
        tlen, i = read_varint(p, 0)
        mode, i = read_varint(p, i + tlen)
        if mode == 0 or scenario == "badname":
            c.sendall(hello(scenario, n))
            if mode == 0:
                continue
        if scenario == "hostile":
            c.sendall(samples(0, [1000000 * (k + 1) for k in range(n)]) + stats(n) +
                      end(n, "run over\x1b[2J\nFORGED-END"))
        elif scenario == "backwards":
            c.sendall(samples(0, [1000, 2000]) + samples(2, [1500]) + stats(3) + end(3, "done"))
        elif scenario == "drip":
            c.sendall(samples(0, [1000000 * (k + 1) for k in range(n)]) + stats(n))
            for b in stats(n) * 4:   # bytes enough for 20 s, killed by the test long before
                c.sendall(bytes([b]))
                time.sleep(0.5)
            return
        elif scenario == "stall":
            c.sendall(samples(0, [1000000 * (k + 1) for k in range(n)]) + stats(n))
            if ready:
                open(ready, "w").close()
            time.sleep(60)   # silent, the connection open: killed by the test
            return
        # then reads (and ignores) until the collector closes


def listen_loopback(portfile, backlog):
    """A listening socket on 127.0.0.1:0, its port written to portfile whole (renamed into place)."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(backlog)
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    os.rename(tmp, portfile)
    return ls


def main():
    cmd, addr = sys.argv[1], sys.argv[2]
    if cmd == "garbage":
        s = connect(addr)
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        return until_error(s)
    if cmd == "version":
        s = connect(addr)
        s.sendall(frame(SUBSCRIBE, subscribe(2), version=int(sys.argv[3]) if len(sys.argv) > 3 else 1))
        return until_error(s)
    if cmd == "stuck":
        s = connect(addr, 4096)
        s.sendall(frame(SUBSCRIBE, subscribe(2)))
        open(sys.argv[3], "w").close()
        time.sleep(120)   # never reads; killed by the test
        return 0
    if cmd == "config":
        s = connect(addr)
        s.sendall(frame(SUBSCRIBE, subscribe(0)))
        f = read_frame(s)
        assert f and f[0] == HELLO, f
        s.sendall(frame(CONFIG, string(sys.argv[3])))
        while True:
            f = read_frame(s)
            if f is None:
                print("closed")
                return 1
            if f[0] == HELLO:
                print("HELLO")
                return 0
            if f[0] == ERROR:
                print("ERROR %d: %s" % error_text(f[1]))
                return 0
    if cmd == "configs":
        n, pid, sets = int(sys.argv[3]), sys.argv[4], sys.argv[5:]
        s = connect(addr)
        s.sendall(frame(SUBSCRIBE, subscribe(0)))
        f = read_frame(s)
        assert f and f[0] == HELLO, f
        rss = []
        for k in range(n):
            s.sendall(frame(CONFIG, string(sets[k % len(sets)])))
            while True:
                try:
                    f = read_frame(s)
                except socket.timeout:
                    print("CONFIG %d (events '%s'): no answer in time" % (k, sets[k % len(sets)]))
                    return 1
                if f is None:
                    print("closed after %d CONFIGs" % k)
                    return 1
                if f[0] == ERROR:
                    print("CONFIG %d: ERROR %d: %s" % ((k,) + error_text(f[1])))
                    return 1
                if f[0] == HELLO:
                    break
            if k + 1 in (n // 4, n):
                with open("/proc/%s/status" % pid) as st:
                    rss.append(next(int(l.split()[1]) for l in st if l.startswith("VmRSS:")))
        print("resident after %d CONFIGs: %d KiB, after %d: %d KiB" % (n // 4, rss[0], n, rss[1]))
        return 0
    if cmd == "hold":
        mode = sys.argv[6] if len(sys.argv) > 6 else ""
        return hold(addr, int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), mode == "subscribe", mode == "keep")
    if cmd == "junk":
        errors = 0
        for _ in range(int(sys.argv[3])):
            s = connect(addr)
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
            while True:
                f = read_frame(s)
                if f is None:
                    break
                errors += f[0] == ERROR
            s.close()
        print("%d errors" % errors)
        return 0
    if cmd == "idle":
        host, port = addr.rsplit(":", 1)
        s = socket.create_connection((host, int(port)), timeout=20,
                                     source_address=(sys.argv[3], 0) if len(sys.argv) > 3 else None)
        t0 = time.monotonic()
        rc = until_error(s)
        print("after %.1f s" % (time.monotonic() - t0))
        return rc
    if cmd == "fake_agent":
        ls = listen_loopback(addr, 1)
        c, _ = ls.accept()
        read_frame(c)
        c.sendall(frame(HELLO, b"\x02", version=int(sys.argv[3])))
        time.sleep(1)
        return 0
    if cmd == "scripted":
        ls = listen_loopback(addr, 4)
        ready = sys.argv[4] if len(sys.argv) > 4 else None
        for _ in range(4):
            c, _ = ls.accept()
            c.settimeout(None)
            try:
                scripted(c, sys.argv[3], ready)
            except OSError:
                pass
            c.close()
        return 0
    print("unknown command", cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main())
