#!/usr/bin/env python3
"""The run is assembled in one place (issue 40, item 2): src/analysis/session.c opens a run plan's
source, its metric set and the pipeline over them, and runs it. A file that both opens a source
(socmon_source_target, socmon_source_recording, collector_source, smn_target_run_open,
smn_target_open_want, socmon_target_open) and makes or feeds a pipeline (socmon_pipeline_new,
socmon_pipeline_add) assembles a run of its own, and fails this check.

Every command now describes its run as a plan (src/cli/open_source.c builds it from the
options) and adds its consumers to the session (smn_session_add): no file is exempt.

Usage: run_assembled.py [SRC]. Exit status 1 on a file outside the session that does both."""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SOCMON_SRC", ".")
SESSION = "src/analysis/session.c"
opens = re.compile(r"\b(?:socmon_source_target|socmon_source_recording|collector_source|smn_target_run_open|"
                   r"smn_target_open_want|socmon_target_open)\s*\(")
feeds = re.compile(r"\b(?:socmon_pipeline_new|socmon_pipeline_add)\s*\(")
bad, files = [], 0
for root, dirs, names in os.walk(os.path.join(src, "src")):
    for n in sorted(names):
        if not n.endswith(".c"):
            continue
        rel = os.path.relpath(os.path.join(root, n), src)
        text = open(os.path.join(root, n), encoding="utf-8", errors="replace").read()
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)   # what a comment names is not a call
        files += 1
        both = bool(opens.search(text)) and bool(feeds.search(text))
        if rel == SESSION or rel.startswith(("src/analysis/source", "src/analysis/pipeline")):
            continue   # the session itself; the sources and the pipeline define what it calls
        if both:
            bad.append(f"{rel}: opens a source and a pipeline together: describe the run as a plan "
                       f"(analysis/session.h) and let the session run it")
for line in bad:
    print(line)
if bad:
    sys.exit(1)
print(f"run_assembled: ok ({files} files; the run assembled in {SESSION} alone)")
