#!/usr/bin/env python3
"""A TCP relay that counts the bytes on the socket, each way, for the wire-size tests.

  byte_relay.py PORTFILE UPSTREAM COUNTFILE

Listens on 127.0.0.1:0 (the port goes to PORTFILE), takes one connection, connects it to
UPSTREAM (HOST:PORT) and copies both ways until both sides have closed; then writes
"to_collector N" and "to_agent M" (bytes, headers included) to COUNTFILE.
"""
import os
import selectors
import socket
import sys


def main():
    portfile, upstream, countfile = sys.argv[1:4]
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(ls.getsockname()[1]))
    os.rename(tmp, portfile)
    ls.settimeout(60)
    down, _ = ls.accept()
    host, port = upstream.rsplit(":", 1)
    up = socket.create_connection((host, int(port)), timeout=60)
    counts = {up: 0, down: 0}          # bytes read from each socket
    peer = {up: down, down: up}
    open_ = {up, down}
    sel = selectors.DefaultSelector()
    for s in open_:
        s.setblocking(True)
        sel.register(s, selectors.EVENT_READ)
    while open_:
        events = sel.select(timeout=120)
        if not events:
            break   # both ends silent for 2 minutes: the test has failed anyway
        for key, _ in events:
            s = key.fileobj
            data = s.recv(1 << 20)
            if not data:
                sel.unregister(s)
                open_.discard(s)
                try:
                    peer[s].shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                continue
            counts[s] += len(data)
            peer[s].sendall(data)
    with open(countfile, "w") as f:
        f.write("to_collector %d\nto_agent %d\n" % (counts[up], counts[down]))


if __name__ == "__main__":
    main()
