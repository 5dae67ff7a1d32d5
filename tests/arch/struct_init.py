#!/usr/bin/env python3
"""No public struct is initialised by position (issue 24; docs/architecture.md, "Names and growing
structs").

A public struct (a `struct socmon_*` that include/socmon/*.h defines with a body) may grow: members
are added after the ones it has, and one initialised by position (`socmon_kv kv = {"a", "b"};`,
`(socmon_counter){name, inst, ...}`) silently changes meaning when they are, or stops compiling when
one moves. So every initialiser of a public struct names its members (`{.key = "a", .value = "b"}`),
in every C and C++ file of the tree: src/, include/, tests/, examples/, bench/, fuzz/, tools/. The
empty initialisers `{0}` and `{}` are fine. Checked: declarations `[static] [const] TYPE name = {...}`
and arrays of them (each element's braces), and compound literals `(TYPE){...}`.

Usage: struct_init.py [SRC] [--fix]. Prints each positional initialiser as file:line with the type;
exit status 1 if there is any. --fix rewrites them with the members' names in declaration order
(the header's order), then reports what it could not rewrite.

ALLOW is the list of folders not checked: none (the ones being rewritten when this check came,
issue 24's analysis layer, were converted with it)."""
import os, re, sys

# Folders (relative to SRC) not checked: none.
ALLOW = []

SCAN = ["src", "include", "tests", "examples", "bench", "fuzz", "tools"]
EXTS = (".c", ".h", ".cpp", ".hpp", ".cc")

args = [a for a in sys.argv[1:] if not a.startswith("--")]
fix = "--fix" in sys.argv
src = args[0] if args else os.environ.get("SOCMON_SRC", ".")


def strip_comments(text):
    """text with comments blanked (newlines kept, so offsets and line numbers stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def scan(text, i=0):
    """(index, character, nesting depth after it) for text from i, quoted strings and chars skipped."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        yield i, c, depth
        i += 1


def match_brace(text, i):
    """Index of the brace closing the one at text[i] (strings and chars skipped), or -1."""
    return next((k for k, c, d in scan(text, i) if c in "})]" and d == 0), -1)


def split_top(body):
    """The comma-separated elements of an initialiser body, as (start, end) offsets in body."""
    parts, start, n = [], 0, len(body)
    for k, c, d in scan(body):
        if c == "," and d == 0:
            parts.append((start, k))
            start = k + 1
    if body[start:].strip():
        parts.append((start, n))
    return parts


def public_structs():
    """{type name: [member names in order]} of the structs include/socmon/ defines."""
    res = {}
    inc = os.path.join(src, "include", "socmon")
    for f in sorted(os.listdir(inc)):
        if not f.endswith(".h"):
            continue
        text = strip_comments(open(os.path.join(inc, f), encoding="utf-8").read())
        for m in re.finditer(r"\b(typedef\s+)?struct\s+(socmon_\w+)\s*\{", text):
            end = match_brace(text, m.end() - 1)
            body = text[m.end():end]
            members = []
            for decl in body.split(";"):
                decl = " ".join(decl.split())
                if not decl:
                    continue
                fp = re.match(r".*?\(\s*\*\s*(\w+)\s*\)\s*\(", decl)   # function pointer
                if fp:
                    members.append(fp.group(1))
                    continue
                decl = re.sub(r"\[[^\]]*\]", "", decl)   # array sizes
                words = decl.split(",")
                first = re.findall(r"\w+", words[0])
                if first:
                    members.append(first[-1])
                for w in words[1:]:
                    ids = re.findall(r"\w+", w)
                    if ids:
                        members.append(ids[-1])
            res[m.group(2)] = members
            tail = re.match(r"\s*(\w+)\s*;", text[end + 1:])
            if m.group(1) and tail:
                res[tail.group(1)] = members
    return res


types = public_structs()
tnames = "|".join(sorted(map(re.escape, types), key=len, reverse=True))
# TYPE name[...] = {   or   (TYPE){   (TYPE may be written "struct TYPE", const/static before it)
decl_re = re.compile(r"(?<![\w.>])(?:struct\s+)?(" + tnames + r")\s*(?:const\s+)?(\w+)\s*((?:\[[^\]=;]*\]\s*)*)=\s*\{")
lit_re = re.compile(r"\(\s*(?:const\s+)?(?:struct\s+)?(" + tnames + r")\s*\)\s*\{")


def positional(body):
    """The (start, end) offsets of the elements of a struct initialiser body given by position,
    or [] when it names its members or is empty / {0}."""
    parts = split_top(body)
    if not parts or (len(parts) == 1 and body[parts[0][0]:parts[0][1]].strip() == "0"):
        return []
    # an upper-case macro among named members (SOCMON_MODEL_TARGET_OPS(decl)) expands to named
    # members itself: the check sees its definition
    return [p for p in parts if not body[p[0]:p[1]].strip().startswith((".", "["))
            and not re.match(r"[A-Z_][A-Z0-9_]*\s*\(", body[p[0]:p[1]].strip())]


def designate(body, members):
    """body with each positional element named after its member; None if it cannot tell."""
    parts = split_top(body)
    if any(body[s:e].strip().startswith((".", "[")) for s, e in parts) or len(parts) > len(members):
        return None
    out, last = [], 0
    for k, (s, e) in enumerate(parts):
        elem = body[s:e]
        lead = len(elem) - len(elem.lstrip())
        out.append(body[last:s] + elem[:lead] + "." + members[k] + " = " + elem[lead:])
        last = e
    return "".join(out) + body[last:]


bad = 0
unfixed = 0
checked = 0
for top in SCAN:
    for root, dirs, files in os.walk(os.path.join(src, top)):
        rel_root = os.path.relpath(root, src)
        if any(rel_root == a or rel_root.startswith(a + os.sep) for a in ALLOW):
            dirs[:] = []
            continue
        for f in sorted(files):
            if not f.endswith(EXTS):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)
            raw = open(path, encoding="utf-8", errors="replace").read()
            text = strip_comments(raw)
            edits = []   # (start, end, replacement) in raw offsets (same as text's)
            hits = []
            for m in list(decl_re.finditer(text)) + list(lit_re.finditer(text)):
                t = m.group(1)
                is_array = m.re is decl_re and m.group(3).strip() != ""
                ob = m.end() - 1
                cb = match_brace(text, ob)
                if cb < 0:
                    continue
                checked += 1
                body = text[ob + 1:cb]
                if is_array:
                    elems = [(ob + 1 + s, ob + 1 + e) for s, e in split_top(body)]
                    for s, e in elems:
                        el = text[s:e].strip()
                        if not el.startswith("{"):
                            continue   # a macro (its expansion is checked where it is defined) or 0
                        es = s + text[s:e].index("{")
                        ee = match_brace(text, es)
                        inner = text[es + 1:ee]
                        if positional(inner):
                            hits.append((es, t, es + 1, ee))
                elif positional(body):
                    hits.append((ob, t, ob + 1, cb))
            for at, t, bs, be in hits:
                line = text.count("\n", 0, at) + 1
                new = designate(raw[bs:be], types[t]) if fix else None
                if new is not None:
                    edits.append((bs, be, new))
                    print(f"{rel}:{line}: {t} initialised by position: named its members")
                else:
                    bad += 1
                    print(f"{rel}:{line}: {t} initialised by position (name its members: "
                          f"{{.{types[t][0] if types[t] else 'member'} = ...}})")
            if edits:
                for bs, be, new in sorted(edits, reverse=True):
                    raw = raw[:bs] + new + raw[be:]
                open(path, "w", encoding="utf-8").write(raw)
print(f"struct init: {len(types)} public struct types, {checked} initialisers checked, {bad} by position"
      + (f" (not checked yet: {', '.join(ALLOW)})" if ALLOW else ""))
sys.exit(1 if bad else 0)
