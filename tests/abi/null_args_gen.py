#!/usr/bin/env python3
"""Writes the table test_null_args.c runs: every public function, its parameters and what its
header says about NULL (issue 37, item 20).

usage: null_args_gen.py CC OUT.c INCLUDE_DIR

The public headers (INCLUDE_DIR/socmon/*.h and INCLUDE_DIR/compat/*.h, as check_symbols.py
finds them) are preprocessed in one translation unit, so each declaration is read as a user's
compiler reads it. For every function the table holds a thunk that calls it from an array of
arguments, each parameter's kind (pointer, function pointer, struct by value, scalar), the type it
points to, and two facts read from the function's comment in its header (the comment just above
its declaration, or on its own lines):
  doc    a sentence of it names the parameter (or the function has one pointer parameter and
         the comment is its own, not its group's) and says NULL: the contract is written down ("t must not be NULL", "NULL is fine");
  ok     that sentence allows NULL: it says NULL within a few words of the name ("workload
         NULL: the default", "opts may be NULL", "name and value may each be NULL"), and no
         "not", "non", "never", "must", "error", "refused", "EINVAL"; or, of a function's one
         pointer, "NULL is fine". The call must then succeed or fail cleanly, as it says. What
         the call stores or returns ("*out is NULL when...", "or NULL") allows nothing.
The comment is the one above the declaration's group (the declarations above it with no blank
line, type or comment between), or one on the declaration's own lines.
A header added later is read without touching this script.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_symbols as cs  # noqa: E402

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
# a sentence with these requires the pointer (or says the call fails without it)
NEGATION = re.compile(r"\b(not|non|never|must|mustn't|cannot|error|refused?|EINVAL)\b", re.I)


def headers(inc):
    out = []
    for sub, prefix in (("socmon", "socmon/"), ("compat", "")):
        d = os.path.join(inc, sub)
        for h in sorted(os.listdir(d)):
            if h.endswith(".h") and h not in cs.NOT_DECLARATIONS:
                out.append((os.path.join(d, h), prefix + h))
    return out


def split_params(plist):
    parts = [p.strip() for p in cs.split_top_level(plist) if p.strip()]
    return [] if parts in ([], ["void"]) else parts


def parse_param(p, k, fnptr_types, struct_types):
    """(kind, base type, name, C type) of one parameter."""
    if p == "...":
        return ("varargs", "", "...", "")
    m = re.search(r"\(\s*\*\s*(" + IDENT + r")?\s*\)\s*\(", p)
    if m:                                      # an inline function pointer parameter
        name = m.group(1) or "arg%d" % k
        ctype = p[:m.start(1)] + p[m.end(1):] if m.group(1) else p
        return ("fnptr", "", name, ctype)
    m = re.match(r"(.*?)(" + IDENT + r")\s*((\[[^\]]*\]\s*)*)$", p)
    if not m or m.group(1).strip() in ("", "const", "struct", "enum") or m.group(2) in (
            "int", "char", "long", "short", "double", "float", "unsigned", "signed", "void"):
        return ("scalar", "", "arg%d" % k, p)   # an unnamed parameter
    before, name, arrays = m.group(1).strip(), m.group(2), m.group(3)
    ctype = before + ("*" * arrays.count("[")) if arrays else before
    words = re.findall(IDENT, before)
    base = [w for w in words if w not in ("const", "volatile", "restrict", "struct", "union", "enum",
                                          "unsigned", "signed", "__restrict")]
    base = base[-1] if base else "int"
    if "*" in ctype:
        return ("ptr", base if ctype.count("*") == 1 else base + "*", name, ctype)
    if base in fnptr_types:
        return ("fnptr", base, name, ctype)
    if base in struct_types:
        return ("struct", base, name, ctype)
    return ("scalar", base, name, ctype)


def doc_of(text, name):
    """(comment, own) documenting function `name` in a header's text: own when the comment is
    right above it rather than above the group it ends; ("", False) if none."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.search(r"\b" + name + r"\s*\(", line)
        if not m or line.lstrip().startswith(("/*", "*", "#")) or "//" in line[:m.start()]:
            continue
        # the start of the declaration: back to the line after the previous ; } or comment
        start = i
        while start > 0 and lines[start - 1].strip() and not re.search(r"[;{}]\s*$|\*/\s*$",
                                                                        lines[start - 1]):
            start -= 1
        end = i
        while end < len(lines) - 1 and ";" not in lines[end]:
            end += 1
        trailing = " ".join(re.findall(r"/\*(.*?)\*/", " ".join(lines[i:end + 1])))
        # up over the declarations of its group (no blank line, no type between) to their comment
        j, doc, own = start - 1, "", True
        while j >= 0 and lines[j].strip() and not re.match(r"\s*(#|})", lines[j]):
            code = lines[j].split("/*")[0]
            if lines[j].rstrip().endswith("*/") and lines[j].lstrip().startswith(("/*", "*")):
                k = j
                while k > 0 and "/*" not in lines[k]:
                    k -= 1
                doc = "\n".join(lines[k:j + 1])
                break
            if lines[j].rstrip().endswith("*/") or "{" in code:
                break            # a member's or another declaration's own comment, or a body
            own = False
            j -= 1
        return (doc + " " + trailing).strip(), own or bool(trailing)
    return "", False


def sentences(doc):
    doc = re.sub(r"/\*+|\*+/|^\s*\*", " ", doc, flags=re.M)
    doc = " ".join(doc.split())
    return [s for s in re.split(r"(?<=\.)\s+", doc) if s]


def null_facts(doc, pname, single):
    """(documented, allowed) for a pointer parameter."""
    documented = allowed = False
    name = r"(?<![A-Za-z0-9_.>])\**" + re.escape(pname) + r"\b"
    for s in sentences(doc):
        if "NULL" not in s:
            continue
        named = re.search(name, s)
        if not named and not single:
            continue
        documented = True
        if NEGATION.search(re.sub(r"\b" + re.escape(pname) + r"\b", "", s)):
            continue
        # allowed: the name, then within a few words NULL that is not what the call returns or
        # stores ("*out is NULL when...", "label is NULL unless..."); or the function's one
        # pointer, said to be fine ("NULL is fine", "(NULL: nothing)")
        if named and re.search(name + r"[^.;]{0,40}?\bNULL\b(?!\s+(when|unless|if)\b)", s) and \
                not re.search(name + r"\s+(is|=)\s+NULL\b", s):
            allowed = True
        elif single and re.search(r"NULL (is fine|is a no-op|does nothing)|\(NULL: nothing\)", s):
            allowed = True
        elif named and re.match(r"\s*" + re.escape(pname) + r":", s):
            allowed = True       # "patterns: ... NULL or "" selects every counter"
    return documented, allowed


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    cc, out, inc = argv[1].split(), argv[2], os.path.realpath(argv[3])
    hs = headers(inc)
    roots = [os.path.join(inc, "socmon"), os.path.join(inc, "compat")]
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tu:
        tu.write("".join("#include <%s>\n" % h for _, h in hs))
    try:
        pre = subprocess.run(cc + ["-E", "-std=c11", "-I" + inc, "-I" + roots[1], tu.name], check=True,
                             capture_output=True, text=True).stdout
    finally:
        os.unlink(tu.name)
    stmts = cs.top_level_statements(cs.our_code(pre, roots))
    struct_types, fnptr_types, opaque_decl = set(), set(), set()
    for _, s in stmts:
        s2 = " ".join(cs.strip_attributes(s).split())
        m = re.match(r"typedef\s+(struct|union)\s+(" + IDENT + r")?\s*\{\}\s*(" + IDENT + r")$", s2)
        if m:
            struct_types.add(m.group(3))
        m = re.match(r"typedef\s+struct\s+(" + IDENT + r")\s+(" + IDENT + r")$", s2)
        if m:
            opaque_decl.add(m.group(2))
        m = re.match(r"typedef .*\(\s*\*\s*(" + IDENT + r")\s*\)\s*\(", s2)
        if m:
            fnptr_types.add(m.group(1))
    for _, s in stmts:   # struct X {...}; after typedef struct X X;
        m = re.match(r"struct\s+(" + IDENT + r")\s*\{\}$", " ".join(s.split()))
        if m and m.group(1) in opaque_decl:
            struct_types.add(m.group(1))
    texts = {path: open(path).read() for path, _ in hs}
    funcs = []
    for root, s in stmts:
        for kind, name in cs.declared_names(s):
            if kind != "func":
                continue
            d = " ".join(cs.strip_attributes(s).split())
            m = re.match(r"(.*?)\b" + name + r"\s*\((.*)\)$", d)
            ret = m.group(1).replace("extern", "").strip()
            params = [parse_param(p, k, fnptr_types, struct_types) for k, p in enumerate(split_params(m.group(2)))]
            header = next((h for path, h in hs if re.search(r"\b" + name + r"\s*\(", texts[path])), "?")
            path = next(p for p, h in hs if h == header) if header != "?" else None
            doc, own = doc_of(texts[path], name) if path else ("", False)
            funcs.append((name, ret, params, header, doc, own))
    w = []
    w.append("/* Generated by tests/abi/null_args_gen.py from the public headers: do not edit. */")
    w += ["#include <%s>" % h for _, h in hs]
    w.append('#include "abi/null_args.h"')
    for name, ret, params, header, doc, own in funcs:
        args = []
        for k, (kind, base, pname, ctype) in enumerate(params):
            if kind == "varargs":
                continue
            if kind in ("ptr", "fnptr"):
                args.append("(%s)p[%d]" % (ctype, k))
            elif kind == "struct":
                args.append("*(%s *)p[%d]" % (ctype, k))
            else:
                args.append("(%s)v[%d]" % (ctype, k))
        call = "%s(%s)" % (name, ", ".join(args))
        body = ("return (long long)%s;" % call if ret == "socmon_status" else "(void)%s;\n    return 0;" % call)
        w.append("static long long call_%s(void *const *p, const long long *v)\n{\n"
                 "    (void)p;\n    (void)v;\n    %s\n}" % (name, body))
        # "NULL is fine" in a function's own comment speaks of its one pointer, if it has one
        single = own and sum(1 for pp in params if pp[0] in ("ptr", "fnptr")) == 1
        rows = []
        for kind, base, pname, ctype in params:
            documented, allowed = null_facts(doc, pname, single) if kind in ("ptr", "fnptr") else (0, 0)
            rows.append("{NA_%s, %s, %s, %s, %d, %d}" % (kind.upper(), c_str(base), c_str(pname),
                                                         c_str(ctype), documented, allowed))
        rows.append("{NA_END, NULL, NULL, NULL, 0, 0}")
        w.append("static const na_param params_%s[] = {%s};" % (name, ",\n    ".join(rows)))
    w.append("const na_func na_funcs[] = {")
    for name, ret, params, header, doc, own in funcs:
        w.append("    {%s, %s, %d, params_%s, call_%s}," % (c_str(name), c_str(header),
                                                           ret == "socmon_status", name, name))
    w.append("};")
    w.append("const size_t na_nfuncs = sizeof na_funcs / sizeof na_funcs[0];")
    opq = sorted(opaque_decl - struct_types)
    w.append("const char *const na_opaque[] = {%s, NULL};" % ", ".join(c_str(o) for o in opq))
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(w) + "\n")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
