#!/usr/bin/env python3
"""socmon's layering rules, checked on every #include "..." under src/ and include/.

Data flows one way: bus -> drivers -> core -> metrics -> targets -> analysis -> export -> cli/agent, with models on the
other side of the bus and src/hw/ holding the register facts both sides share. Each rule below
lists the folders a file in that layer may include from (the layers below the targets may not
include socmon/target.h, socmon/sampler.h or the umbrella socmon/socmon.h); anything else is a
violation, printed as file:line with the rule it breaks. Calls made through allowed public
headers (a driver calling the model API socmon/esp.h declares) are link_layering.py's part. Exit status 1 on any violation."""
import os, re, sys

src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SOCMON_SRC", ".")
compat_headers = set(os.listdir(os.path.join(src, "include", "compat")))

# Public headers of the layers above: a layer below the targets that included
# them could call a target or the sampler (core never calls a target).
above = {"socmon/target.h", "socmon/sampler.h", "socmon/socmon.h"}

def denied(layer):
    """Public headers a file of src/<layer>/ may not include despite the socmon/ rule."""
    return above if layer in ("core", "recording", "bus", "drivers", "models", "metrics") else set()

def allowed(layer, sub):
    """Prefixes a file of src/<layer>/<sub>/ may include."""
    pub = ["socmon/"]
    return {
        "hw": ["hw/"],
        "core": pub + ["core/"],
        # the recording file (issue 40): writer, readers, codec, attachments, the timeline
        "recording": pub + ["core/", "recording/"],
        "bus": pub + ["core/error.h", "core/grow.h", "bus/"],
        "drivers": pub + ["hw/", "core/", "bus/", "drivers/generic/", "drivers/perf/", f"drivers/{sub}/"],
        "models": pub + ["hw/", "core/", "bus/", f"models/{sub}/"],
        "metrics": pub + ["core/", "metrics/"],
        # the analysis layer (issue 24): sources over targets, recordings and regions (their public
        # API), the pipeline, the consumers' interface; metrics are evaluated here only
        "analysis": pub + ["core/", "recording/", "metrics/", "analysis/"],
        # what finished runs become (issue 40): runs, diff, check, rules, stats, sweeps, findings,
        # profile views, functions; over the analysis layer's sources and pipeline
        "results": pub + ["core/", "recording/", "metrics/", "analysis/", "results/"],
        "export": pub + ["core/", "recording/", "metrics/", "analysis/", "results/", "export/"],
        # the top: the public API, the analysis layer and its consumers (export), the agent's
        # own parts, and core's three utilities that are no layer (the one escaping rule, the
        # monotonic clock, varints); never a target's, driver's, model's or core's internals
        "agent": pub + ["analysis/", "results/", "export/", "serve/", "agent/", "core/text.h", "core/clock.h",
                        "core/varint.h"],
        # the live store and the HTTP server (issue 40), which the agent and `socmon serve` run
        "serve": pub + ["analysis/", "export/", "serve/", "core/text.h", "core/clock.h"],
        "cli": pub + ["analysis/", "results/", "export/", "serve/", "agent/", "cli/", "core/text.h", "core/clock.h",
                "core/argv.h"],
        "compat": pub + [f"compat/{sub}/"] + sorted(compat_headers),
        # not the vendor APIs (include/compat): they sit on the library, not under it (issue 24)
        "targets": pub + ["hw/", "core/", "recording/", "bus/", "drivers/", "models/", "metrics/", "targets/"],
        # the region API (issue 14): code measuring itself through the perf driver's public API
        "region": pub + ["core/", "recording/", "region/"],
    }.get(layer)

inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
bad = 0
checked = 0
for root, _, files in os.walk(os.path.join(src, "src")):
    rel = os.path.relpath(root, os.path.join(src, "src")).split(os.sep)
    layer, sub = rel[0], (rel[1] if len(rel) > 1 else "")
    if layer == ".":
        continue
    rules = allowed(layer, sub)
    if rules is None:
        bad += 1
        print(f"src/{layer}/: not a known layer (add its rule to this script and docs/architecture.md)")
        continue
    for f in sorted(files):
        if not f.endswith((".c", ".h", ".cc", ".hpp")):
            continue
        path = os.path.join(root, f)
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            m = inc.match(line)
            if not m:
                continue
            checked += 1
            target = m.group(1)
            if target in denied(layer) or not any(
                    target == r or (r.endswith("/") and target.startswith(r)) for r in rules):
                bad += 1
                print(f"{os.path.relpath(path, src)}:{n}: {layer}/ may not include \"{target}\"")
# Public headers are the API: they include only other public headers.
for d in ("socmon", "compat"):
    for f in sorted(os.listdir(os.path.join(src, "include", d))):
        path = os.path.join(src, "include", d, f)
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            m = inc.match(line)
            if m:
                checked += 1
                t = m.group(1)
                if not (t.startswith("socmon/") or t in compat_headers):
                    bad += 1
                    print(f"include/{d}/{f}:{n}: a public header may not include \"{t}\"")

# Targets by capability, not by name (issue 24, item 3): the consumers ask a target's declaration
# (socmon_target_ops: caps, list_events, grid, program_output, ...) instead of comparing its name,
# and the CLI reaches targets only through the public API. The names are those the built-in
# targets declare (`.name = "host"` in a socmon_target_ops of src/targets/).
tdir = os.path.join(src, "src", "targets")
names = set()
decl = re.compile(r'socmon_target_ops\s+\w+\s*=\s*\{[^;]*?\.name\s*=\s*"([^"]+)"', re.S)
for f in sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []:
    if f.endswith(".c"):
        names.update(decl.findall(open(os.path.join(tdir, f), encoding="utf-8", errors="replace").read()))
if not names:
    bad += 1
    print("src/targets/: no target declaration found (the name check needs `.name = \"...\"`)")


def code_only(text):
    """text with comments blanked (newlines kept, so line numbers hold); strings stay."""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: m.group(0) if m.group(0)[0] in "\"'" else re.sub(r"[^\n]", " ", m.group(0)),
                  text, flags=re.S)


cmp_call = re.compile(r'\b(?:str|strn|mem|strcase|strncase)cmp\s*\(')
literal = re.compile(r'"((?:\\.|[^"\\\n])*)"')
for layer in ("cli", "export", "agent", "serve"):
    ldir = os.path.join(src, "src", layer)
    for root, _, files in os.walk(ldir):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(root, f)
            text = code_only(open(path, encoding="utf-8", errors="replace").read())
            for m in cmp_call.finditer(text):
                stmt = re.match(r'[^;{}]*', text[m.end():]).group(0)   # the call to its statement's end
                for lit in literal.findall(stmt):
                    name = lit.split(":")[0]
                    if name in names:
                        checked += 1
                        bad += 1
                        n = text.count("\n", 0, m.start()) + 1
                        print(f"{os.path.relpath(path, src)}:{n}: {layer}/ compares a target name (\"{lit}\"): "
                              "ask the target's declaration (socmon_target_ops caps and ops) instead")
            if layer != "cli":
                continue
            for n, line in enumerate(text.split("\n"), 1):
                m = inc.match(line)
                if m and m.group(1).split("/")[0] in ("targets", "drivers", "models"):
                    checked += 1
                    bad += 1
                    print(f"{os.path.relpath(path, src)}:{n}: cli/ may not include \"{m.group(1)}\" "
                          "(an internal header of a target, driver or model: use the public API)")
                elif m:
                    checked += 1
print(f"layering: {checked - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
