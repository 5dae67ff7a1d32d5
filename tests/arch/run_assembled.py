#!/usr/bin/env python3
"""The run is assembled in one place (issue 40, item 2): src/analysis/session.c opens a run plan's
source, its metric set and the pipeline over them, and runs it. A file that both opens a source
(socmon_source_target, socmon_source_recording, collector_source, smn_target_run_open, the CLI's
cli_source_open) and makes or feeds a pipeline (socmon_pipeline_new, socmon_pipeline_add,
cli_pipeline_new) assembles a run of its own, and fails this check.

STILL_TO_MOVE is the list of files that do so today and move onto the session next (the CLI's
commands); it may only shrink: a listed file that no longer assembles a run fails the check
too, so that its line is removed and cannot come back unnoticed.

Usage: run_assembled.py [SRC]. Exit status 1 on a file outside the session and the list, or a
listed file that is clean."""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SOCMON_SRC", ".")
SESSION = "src/analysis/session.c"
STILL_TO_MOVE = {
    "src/cli/open_source.c": "the CLI's source opener (cli_source_open) and cli_pipeline_new",
    "src/cli/cmd_stat.c": "stat's runs, repeats, live lines and exit status",
    "src/cli/cmd_record.c": "record's writer and live lines",
    "src/cli/cmd_report.c": "report's views of a recording",
    "src/cli/cmd_serve.c": "serve's live store over a source",
}
opens = re.compile(r"\b(?:socmon_source_target|socmon_source_recording|collector_source|smn_target_run_open|"
                   r"cli_source_open(?:_file)?)\s*\(")
feeds = re.compile(r"\b(?:socmon_pipeline_new|socmon_pipeline_add|cli_pipeline_new)\s*\(")
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
        if both and rel not in STILL_TO_MOVE:
            bad.append(f"{rel}: opens a source and a pipeline together: describe the run as a plan "
                       f"(analysis/session.h) and let the session run it")
        elif not both and rel in STILL_TO_MOVE:
            bad.append(f"{rel}: no longer assembles a run: remove it from STILL_TO_MOVE in tests/arch/run_assembled.py")
for line in bad:
    print(line)
if bad:
    sys.exit(1)
print(f"run_assembled: ok ({files} files; the run assembled in {SESSION} and {len(STILL_TO_MOVE)} files still to move)")
