#!/usr/bin/env python3
"""A target spec is cut in one place (issue 40, item 1): src/targets/spec.c parses "NAME[:k=v,...]"
and a combined run's "SPEC;SPEC"; every other file asks it (socmon_spec_parse, _get, _name_of,
_ops_of, _members). This check reads every C file under src/ (but the models' and drivers' own
formats) for the ways a spec used to be cut by hand: strchr or strcspn on ':' or ';', strchr or
memchr on '=', and the byte 0x1f that once joined a command's words into an option. A file that
cuts something else with them is listed below with what it cuts; any other hit fails.

Usage: spec_cut.py [SRC]. Exit status 1 on a hit outside spec.c and the list."""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SOCMON_SRC", ".")
NOT_SPECS = {
    "src/serve/http_access.c": "a Host header's host:port",
    "src/targets/target_caps.c": "a workload's NAME:ARGS (ops->workloads)",
    "src/targets/tensix.c": "one item of an option's value (thread:counter)",
    "src/agent/remote_record.c": "the remote base attachment's 'seq:N'",
    "src/agent/agent.c": "a listening address's host:port",
    "src/agent/agent_server.c": "a peer's address:port",
    "src/serve/net.c": "an address's host:port",
    "src/export/prom_text.c": "an Accept header's media ranges",
}
cut = re.compile(r"""str(?:chr|rchr)\s*\([^;]*?,\s*'[:;=]'\s*\)|memchr\s*\([^;]*?,\s*'[:;=]'|"""
                 r"""strcspn\s*\([^;]*?,\s*"[^"]*[:;=][^"]*"\s*\)|\\x1f|0x1f\b""")
hits, files = [], 0
for root, dirs, names in os.walk(os.path.join(src, "src")):
    rel_root = os.path.relpath(root, src)
    if rel_root.startswith(("src/models", "src/drivers")):
        continue
    for n in sorted(names):
        if not n.endswith((".c", ".h")):
            continue
        rel = os.path.join(rel_root, n)
        if rel == "src/targets/spec.c":
            continue
        files += 1
        for i, line in enumerate(open(os.path.join(root, n), encoding="utf-8", errors="replace"), 1):
            if cut.search(line) and rel not in NOT_SPECS:
                hits.append(f"{rel}:{i}: cuts a string as a target spec is cut: {line.strip()}")
for h in hits:
    print(h)
print(f"spec cut: {files} files read, {len(hits)} cut a spec outside src/targets/spec.c")
sys.exit(1 if hits else 0)
