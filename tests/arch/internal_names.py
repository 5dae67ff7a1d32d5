#!/usr/bin/env python3
"""Internal names stay out of the public namespace (issue 24; docs/architecture.md, "Names").

socmon's public names start with `socmon_`; what the library uses internally across its own files
starts with `smn_` (as SQLite's internals are sqlite3Xxx and libuv's uv__xxx), so a reader tells
public from internal by the name and libsocmon.a, which a user links whole, puts no internal name in
the public namespace. This script compares the global definitions of the static library
(`nm -g --defined-only libsocmon.a`) with what the shared library exports
(`nm -D --defined-only libsocmon.so`, which tests/abi/check_symbols.py holds equal to the public
headers): a global of the static library that starts with `socmon_` and is not exported is an
internal name with the public prefix, and one that starts with neither `socmon_` nor `smn_` is a bare
internal name (`ibex_run`, `esp_noc_cycle`), which a user's own global of that name would collide with
(issue 40). Neither may remain; each is listed.

Usage: internal_names.py LIBSOCMON.a LIBSOCMON.so [NM]. Exit status 1 past the limit or when
either library cannot be read."""
import subprocess, sys

LIMIT = 0


def names(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"internal names: {' '.join(cmd)} failed: {out.stderr.strip()}")
    res = set()
    for line in out.stdout.splitlines():
        f = line.split()
        # "value kind name" (an archive adds "member.o:" lines and blank lines)
        if len(f) >= 2 and len(f[-2]) == 1 and f[-2] not in "UwvN":
            res.add(f[-1])
    return res


if len(sys.argv) < 3:
    sys.exit(__doc__)
nm = sys.argv[3] if len(sys.argv) > 3 else "nm"
static = names([nm, "-g", "--defined-only", sys.argv[1]])
exported = names([nm, "-D", "--defined-only", sys.argv[2]])
if not static or not exported:
    sys.exit(f"internal names: no symbols in {sys.argv[1]} or {sys.argv[2]} (a built tree?)")
leaked = sorted(s for s in static - exported if s.startswith("socmon_"))
bare = sorted(s for s in static - exported if not s.startswith(("socmon_", "smn_")))
for s in leaked:
    print(f"internal global with the public prefix: {s} (rename it smn_{s[len('socmon_'):]})")
for s in bare:
    print(f"internal global without a prefix: {s} (rename it smn_{s})")
print(f"internal names: {len(static)} globals in the static library, {len(exported)} exported, "
      f"{len(leaked)} internal ones named socmon_, {len(bare)} without a prefix (at most {LIMIT} each)")
sys.exit(1 if len(leaked) > LIMIT or len(bare) > LIMIT else 0)
