#!/usr/bin/env python3
"""socmon's layering rules at link level: who may call whom, checked on the library's objects.

The include check (layering.py) cannot see a call made through a public header: socmon/esp.h
declares both the ESP driver's and the ESP model's API, so a driver could call the model while
including only allowed headers. Here every object file of the library in a build tree
(BUILD/CMakeFiles/socmon.dir/src/<layer>/[<sub>/]*.o) is read with nm: each undefined symbol that
some other library object defines must be defined in a layer the object's rule allows. Symbols no
library object defines (libc, jansson, zlib, libelf) are not the layering's business.

A compat layer is built only on the public API, from wherever the library defines it: it may call
any symbol of default visibility (what include/socmon/ declares, socmon/export.h) and its own
compat/<sub> objects, never an internal (hidden) symbol of another layer. Generated sources
(generated/*.c, the built-in metric definitions) belong to metrics.

Usage: link_layering.py BUILD_DIR [NM]. Prints each violation as object: symbol (defined in
object) and the rule it breaks; exit status 1 on any violation or when no objects are found."""
import os, re, subprocess, sys

build = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SOCMON_BUILD", "")
nm = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("NM", "nm")
root = os.path.join(build, "CMakeFiles", "socmon.dir")


def allowed(layer, sub):
    """Units (layer or layer/sub) whose definitions an object of src/<layer>/<sub>/ may use."""
    return {
        "core": ["core"],
        "recording": ["core", "recording"],
        "bus": ["core", "bus"],
        # drivers/perf is shared like drivers/generic: the Zynq A9 perf path is its user (issue 14)
        "drivers": ["core", "bus", "drivers/generic", "drivers/perf", f"drivers/{sub}"],
        "models": ["core", "bus", f"models/{sub}"],
        "metrics": ["core", "metrics"],
        # the analysis layer runs sources over targets, recordings and regions (and asks the perf
        # driver which events it could not count)
        "analysis": ["core", "recording", "metrics", "targets", "region", "drivers/perf", "analysis"],
        "results": ["core", "recording", "metrics", "targets", "analysis", "results"],
        # and the spec parser's text helpers (a recording's target name), never a target itself
        "export": ["core", "recording", "metrics", "analysis", "results", "export", "targets/spec"],
        "compat": [f"compat/{sub}"],   # plus any public symbol, see above
        # never a vendor API (src/compat): the compat layers sit on the library, not under it
        "targets": ["core", "recording", "bus", "drivers", "models", "metrics", "targets"],
        # the region API (issue 14) uses the perf driver and the recording writer
        "region": ["core", "recording", "bus", "drivers", "region"],
    }.get(layer)


def unit_of(rel):
    """(layer, sub) of an object path relative to socmon.dir, or None outside src/ and generated/."""
    parts = rel.split(os.sep)
    if parts[0] == "generated":
        return ("metrics", "")
    if parts[0] != "src" or len(parts) < 3:
        return None
    if parts[1:] == ["targets", "spec.c.o"]:   # the spec parser: a unit of its own (export reads names)
        return ("targets", "spec")
    return (parts[1], parts[2] if len(parts) > 3 else "")


def run(cmd, paths):
    """Output of cmd over all paths, in one process (the check runs often on a busy machine)."""
    return subprocess.run(cmd + paths, capture_output=True, text=True, check=True).stdout


def symbols(paths):
    """{path: (global definitions, undefined symbols)}, as nm lists them."""
    res = {p: (set(), set()) for p in paths}
    for line in run([nm, "-A", "-P"], paths).splitlines():
        # "path: name kind [value size]" (-A prefixes the file name)
        head, _, rest = line.partition(": ")
        f = rest.split()
        if head not in res or len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            res[head][1].add(name)
        elif kind.isupper() and kind != "N":   # T, D, B, R, C, W, V...: global; lower case: local
            res[head][0].add(name)
    return res


def default_visibility(paths):
    """Names of the objects' global definitions with default (exported) visibility."""
    names = set()
    for line in run(["readelf", "-sW"], paths).splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) >= 8 and f[4] in ("GLOBAL", "WEAK") and f[5] == "DEFAULT" and f[6] != "UND":
            names.add(f[7])
    return names


objs = []
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith(".o"):
            rel = os.path.relpath(os.path.join(d, f), root)
            u = unit_of(rel)
            if u:
                objs.append((rel, u))
# A build tree keeps the objects of sources that were since moved or removed
# (an old src/vendor/...o): where CMake's list of the library's objects is
# there (the Makefile generator's build.make), only the objects it lists count.
build_make = os.path.join(root, "build.make")
if os.path.exists(build_make):
    text = open(build_make, encoding="utf-8", errors="replace").read()
    listed = set(re.findall(r'"CMakeFiles/socmon\.dir/([^"]+\.o)"', text))
    objs = [(rel, u) for rel, u in objs if rel in listed]
if not objs:
    print(f"link layering: no library objects under {root} (is SOCMON_BUILD a configured, built tree?)")
    sys.exit(1)

owner = {}      # symbol -> (object, (layer, sub))
undef = {}
bad = 0
paths = [os.path.join(root, rel) for rel, _ in sorted(objs)]
syms = symbols(paths)
public = default_visibility(paths)   # symbols of default visibility
for rel, u in sorted(objs):
    defined, undefined = syms[os.path.join(root, rel)]
    for s in defined:
        owner.setdefault(s, (rel, u))
    undef[rel] = (u, undefined)
    if allowed(*u) is None:
        bad += 1
        print(f"{rel}: src/{u[0]}/ is not a known layer (add its rule to this script and docs/architecture.md)")

checked = 0
for rel, ((layer, sub), undefined) in sorted(undef.items()):
    rules = allowed(layer, sub)
    if rules is None:
        continue
    for s in sorted(undefined):
        if s not in owner:
            continue  # outside the library
        checked += 1
        orel, (olayer, osub) = owner[s]
        unit = f"{olayer}/{osub}" if osub else olayer
        if any(unit == r or unit.startswith(r + "/") for r in rules):
            continue
        if layer == "compat" and s in public:
            continue
        bad += 1
        what = "an internal symbol of" if layer == "compat" else "a symbol of"
        print(f"{rel}: {layer}/{sub + '/' if sub else ''} may not call {s} ({what} {unit}/, {orel})")
print(f"link layering: {len(objs)} objects, {checked - bad} calls passed, {bad} failed")
sys.exit(1 if bad else 0)
