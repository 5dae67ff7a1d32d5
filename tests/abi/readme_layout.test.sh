#!/bin/sh
# The README's Layout paragraph (issue 37, item 14): every folder it names exists (a `{a,b}` list
# expanded), and every folder of src/ is named, so the map cannot lose a layer or keep one that left.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

python3 - "$SOCMON_SRC" <<'PY' && ok || bad "README's Layout"
import os, re, sys
src = sys.argv[1]
text = open(os.path.join(src, "README.md")).read()
part = text[text.index("\n## Layout\n"):]
part = part[:part.find("\n## ", 1)] if "\n## " in part[1:] else part
named = set()
for code in re.findall(r"`([^`]+)`", part.replace("\n", "")):
    if "/" not in code or " " in code:
        continue   # a command (`make bench`) or a file name, not a folder
    m = re.match(r"^(.*)\{([^}]*)\}(.*)$", code)
    for p in ([m.group(1) + x.strip() + m.group(3) for x in m.group(2).split(",")] if m else [code]):
        named.add(p.rstrip("/"))
assert named, "no folders found in the Layout paragraph"
missing = sorted(p for p in named if not os.path.isdir(os.path.join(src, p)))
assert not missing, "the README names folders that do not exist: %s" % missing
unnamed = sorted("src/" + d for d in os.listdir(os.path.join(src, "src"))
                 if os.path.isdir(os.path.join(src, "src", d)) and "src/" + d not in named)
assert not unnamed, "folders of src/ the README's Layout does not name: %s" % unnamed
print("README's Layout: %d folders, all there; every src/ folder named" % len(named))
PY
finish readme_layout
