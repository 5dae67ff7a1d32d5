#!/usr/bin/env python3
"""Compares what libsocmon.so exports with what the installed headers declare.

usage: check_symbols.py CC LIBSOCMON.so HEADER_DIR:PREFIX [HEADER_DIR:PREFIX ...]

Every *.h in each HEADER_DIR is included (as <PREFIX/NAME.h>, or <NAME.h> for
an empty PREFIX) in one translation unit that the C compiler preprocesses,
so the declarations are read with every macro expanded, exactly as a user's
compiler sees them. From the declarations that come from those headers the
script collects the external functions (not static inline ones) and extern
data. Then, against `nm -D --defined-only`:
  - every exported name must be declared (nothing internal leaks),
  - every declared function and datum must be exported (nothing is missing
    from the shared library),
  - every exported name starts with socmon_ or is declared by a header that
    is not under include/socmon itself (a vendor compat header).
It prints each offending name with its reason and exits 1 if there is any.
Headers are found by listing the directories, so a header added later is
checked without touching this script.
"""
import os
import re
import subprocess
import sys
import tempfile

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
NOT_DECLARATIONS = {"soc_locs.h"}


def strip_attributes(text):
    """Removes __attribute__((...)), __asm__(...) and similar extensions."""
    out, i = [], 0
    pat = re.compile(r"\b(__attribute__|__asm__|__asm|__declspec)\s*\(")
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:m.start()])
        depth, j = 0, m.end() - 1
        while j < len(text):
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        i = j + 1


def our_code(pre, roots):
    """Keeps the preprocessed lines that came from headers under roots."""
    keep, cur = [], False
    for line in pre.splitlines():
        m = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if m:
            path = os.path.realpath(m.group(1)) if m.group(1)[:1] != "<" else ""
            cur = next((r for r in roots if path.startswith(r + os.sep)), None)
            continue
        if cur and not line.startswith("#"):
            keep.append((cur, line))
    return keep


def top_level_statements(lines):
    """Splits code into top-level statements: ';'-terminated runs at brace
    depth 0, with each braced body collapsed to {} (struct bodies, inline
    function bodies). A function definition at depth 0 ends at its '}'."""
    stmts, cur, depth, root = [], [], 0, None
    for r, line in lines:
        for ch in line + "\n":
            if depth == 0 and not cur:
                root = r
            if ch == "{":
                if depth == 0:
                    cur.append("{}")
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    s = "".join(cur).strip()
                    # A function definition (static inline): ") {}" ends it.
                    if re.search(r"\)\s*\{\}$", s):
                        stmts.append((root, s))
                        cur = []
            elif depth == 0:
                if ch == ";":
                    stmts.append((root, "".join(cur).strip()))
                    cur = []
                else:
                    cur.append(ch)
    return stmts



def split_top_level(s):
    """s cut at its commas outside parentheses and brackets (declarators, parameters)."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts

def declared_names(stmt):
    """(kind, name) pairs a top-level statement declares with external
    linkage: ('func', f) or ('data', d); nothing for types and statics."""
    s = " ".join(strip_attributes(stmt).split())
    if not s or re.match(r"(typedef|static|_Static_assert|static_assert)\b", s):
        return []
    s = re.sub(r"\b(struct|union|enum)\s*(" + IDENT + r")?\s*\{\}", "T", s).strip()
    if s.endswith("{}"):          # a non-static function definition in a header
        s = s[:-2].strip()
    if re.fullmatch(r"((struct|union|enum)\s+" + IDENT + r"|T|)", s):
        return []                 # struct X; or a bare type definition
    names = []
    # Declarators are separated by top-level commas.
    for k, p in enumerate(split_top_level(s)):
        p = p.split("=")[0].strip()
        m = re.match(r"(.*?)\b(" + IDENT + r")\s*\((?!\s*\*)", p)
        if m and not re.search(r"\(\s*\*", p[:m.end()]):
            names.append(("func", m.group(2)))
            continue
        m = re.search(r"\(\s*\*\s*(" + IDENT + r")\s*\)", p)
        if m:                     # a function pointer variable
            names.append(("data", m.group(1)))
            continue
        m = re.search(r"(" + IDENT + r")\s*(\[[^\]]*\]\s*)*$", p)
        if m and (k > 0 or re.match(r"extern\b", s)):
            names.append(("data", m.group(1)))
        elif m and k == 0 and len(p.split()) > 1:
            names.append(("data", m.group(1)))   # a tentative definition
    return names


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    cc, lib, specs = argv[1].split(), argv[2], argv[3:]
    incdirs, includes, roots, public_root = [], [], [], None
    for spec in specs:
        d, _, prefix = spec.partition(":")
        d = os.path.realpath(d)
        if not os.path.isdir(d):
            print("check_symbols: no header directory %s" % d, file=sys.stderr)
            return 2
        base = os.path.dirname(d) if prefix else d
        incdirs.append(base)
        roots.append(d)
        if prefix == "socmon":
            public_root = d
        for h in sorted(os.listdir(d)):
            # soc_locs.h holds definitions meant for inside a function body
            # (as ESP's socgen output); it declares nothing the library exports.
            if h.endswith(".h") and h not in NOT_DECLARATIONS:
                includes.append("#include <%s>" % (prefix + "/" + h if prefix else h))
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tu:
        tu.write("\n".join(includes) + "\n")
    try:
        cmd = cc + ["-E", "-std=c11"] + ["-I" + d for d in incdirs] + [tu.name]
        pre = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(tu.name)
    declared = {}
    for root, stmt in top_level_statements(our_code(pre, roots)):
        for kind, name in declared_names(stmt):
            declared.setdefault(name, (kind, root))
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True,
                        text=True).stdout
    exported = {}
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 3:
            exported[f[2].split("@")[0]] = f[1]
    # The toolchain's own markers, present in every shared object.
    for n in ("_init", "_fini", "_edata", "_end", "__bss_start"):
        exported.pop(n, None)

    errors = []
    for name in sorted(exported):
        if name not in declared:
            errors.append("%s: exported but declared by no installed header" % name)
        elif not name.startswith("socmon_") and declared[name][1] == public_root:
            errors.append("%s: exported without the socmon_ prefix from include/socmon" % name)
    for name, (kind, root) in sorted(declared.items()):
        if name not in exported:
            errors.append("%s: declared (%s, %s) but not exported" % (name, kind, root))
    nfunc = sum(1 for k, _ in declared.values() if k == "func")
    print("check_symbols: %d exported, %d declared (%d functions, %d data), %d header(s)"
          % (len(exported), len(declared), nfunc, len(declared) - nfunc, len(includes)))
    for e in errors:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
