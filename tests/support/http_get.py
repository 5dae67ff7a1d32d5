#!/usr/bin/env python3
"""GET a URL for the shell tests, standard library only (no curl on a fresh machine).

  http_get.py URL [--accept TYPE] [-o FILE] [--until-event NAME] [--timeout S]

Writes the body to FILE (or stdout) and prints the Content-Type on stderr as "content-type: ...".
--until-event reads a server-sent event stream until an `event: NAME` line arrives (or fails
after --timeout seconds, default 120: a condition, not a sleep). Exit 1 on any failure, naming it."""

import argparse
import sys
import urllib.request


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--accept")
    ap.add_argument("-o", "--output")
    ap.add_argument("--until-event")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    req = urllib.request.Request(a.url, headers={"Accept": a.accept} if a.accept else {})
    try:
        with urllib.request.urlopen(req, timeout=a.timeout) as r:
            print("content-type: " + r.headers.get("Content-Type", ""), file=sys.stderr)
            if a.until_event:
                for line in r:
                    if line.decode("utf-8", "replace").rstrip("\r\n") == "event: " + a.until_event:
                        return 0
                print("http_get: %s ended without 'event: %s'" % (a.url, a.until_event), file=sys.stderr)
                return 1
            body = r.read()
    except OSError as e:
        print("http_get: %s: %s" % (a.url, e), file=sys.stderr)
        return 1
    if a.output:
        with open(a.output, "wb") as f:
            f.write(body)
    else:
        sys.stdout.buffer.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
