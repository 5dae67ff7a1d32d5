#!/usr/bin/env python3
"""Build Ibex's examples/simple_system RTL with Verilator and run the Ibex test programs on it.

  ibex_rtl.py build  --ibex GITDIR [--rev REV] [--build DIR] [--config small|maxperf|all] [--jobs N]
  ibex_rtl.py run    [--build DIR] [--config ...] [--out DIR] [--elf-dir DIR] PROGRAM...
  ibex_rtl.py functions [--build DIR] [--config ...] [--out DIR] [--elf-dir DIR] PROGRAM...
  ibex_rtl.py check  [--build DIR] [--config ...] [--elf-dir DIR] PROGRAM...

This is the harness that tests/ibex/fixtures/README.md describes ("How the RTL was run"). Nothing of
Ibex is copied into this repository: `build` extracts the sources of REV (default: the fixtures'
commit 0a13971f31691153c9c3f552f22f859888cdbfa0) from GITDIR (a bare clone or a work tree's .git)
into DIR/src (default DIR: /tmp/ibex_rtl), works out the files FuseSoC's `sim` target of
lowrisc:ibex:ibex_simple_system would hand to Verilator (a small reader of the CAPI2 .core files;
FuseSoC itself is not needed) and builds one simulator per configuration in DIR/<config>/.
What differs from upstream's FuseSoC flow, none of it touching the design:
  1. primgen does not run: each generated prim wrapper (prim_clock_gating, prim_buf, ...) is the
     prim_generic_<name> module renamed to the wrapper's name (what the wrapper selects for the
     generic implementation), written into DIR/src/_gen/; the prim_generic waivers are rewritten to
     match the renamed file (clock_gating's two UNUSEDPARAM warnings stay non-fatal);
  2. the testbench's end-of-run counter printout (ibex_pcount_string, which skips three counters)
     is replaced by a dump of all 32 counter indices through the same DPI function
     mhpmcounter_get(i), into counters.txt;
  3. the RAM's hierarchical name given to the memory loader follows 1:
     TOP.ibex_simple_system.u_ram.u_ram (upstream: ...u_ram.u_ram.gen_generic.u_impl_generic).
The changes of 2 and 3 are made by text substitutions below that fail loudly when upstream's text
is not found. No signal tracing is built. socmon's own probe (socmon_probe.sv beside this script,
bound into ibex_core, no change to the design) is built in; it writes only when asked to.

`run` runs each PROGRAM (an ELF, or a name looked up as ELF_DIR/NAME.elf; ELF_DIR defaults to the
programs' build directory build/ibex_programs_build of this checkout, made with
`make -C tests/ibex/programs O=...`) on each configuration and writes the fixture files
OUT/<config>/NAME.out, .counters and .windows (OUT default: tests/ibex/fixtures). A program whose
name starts with halt_, or is whole or bootaddr, gets no .windows (as in the existing fixtures).
`functions` runs each PROGRAM with the probe's per-cycle dump and writes only OUT/<config>/NAME.functions,
the per-function self counts of the 12 counters under the attribution convention of functions.py,
after checking that they add up to the counters' end values (counters.txt).
`check` does the same as `run` into a temporary directory and compares with the committed fixture
files, byte for byte (.functions too, for the programs the fixture has one of), and says which differ
(exit 1 if any differs).

Exit 0 on success, 1 if a build, a run or a check fails, 2 on bad arguments.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import functions  # noqa: E402  (functions.py beside this file)

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("ibex_rtl.py needs PyYAML (python3-yaml) to read Ibex's .core files")

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(SRC_ROOT, "tests", "ibex", "fixtures")
DEFAULT_REV = "0a13971f31691153c9c3f552f22f859888cdbfa0"
TOP_CORE = "lowrisc:ibex:ibex_simple_system"
NO_WINDOWS = ("whole", "bootaddr")
PROBE = os.path.join(HERE, "socmon_probe.sv")   # our per-cycle dump (functions.py), bound into ibex_core

COMMON = {
    "RV32E": "0", "RV32B": "ibex_pkg::RV32BNone", "RegFile": "ibex_pkg::RegFileFF",
    "ICache": "0", "ICacheECC": "0", "ICacheScramble": "0", "BranchPredictor": "0",
    "DbgTriggerEn": "0", "SecureIbex": "0", "PMPEnable": "0", "PMPGranularity": "0",
    "PMPNumRegions": "4", "MHPMCounterNum": "10", "MHPMCounterWidth": "40",
}
CONFIGS = {
    "small": dict(COMMON, RV32M="ibex_pkg::RV32MFast", BranchTargetALU="0", WritebackStage="0"),
    "maxperf": dict(COMMON, RV32M="ibex_pkg::RV32MSingleCycle", BranchTargetALU="1",
                    WritebackStage="1"),
}
# vlogdefine parameters of the simple_system core (the rest are vlogparam: -G)
DEFINES = ("RV32M", "RV32B", "RegFile")
FLAGS = {"tool_verilator"}


def die(msg, code=1):
    print("ibex_rtl.py: " + msg, file=sys.stderr)
    sys.exit(code)


def run(cmd, **kw):
    r = subprocess.run(cmd, **kw)
    if r.returncode != 0:
        die("failed (%d): %s" % (r.returncode, " ".join(cmd) if isinstance(cmd, list) else cmd))
    return r


# ---- a minimal reader of FuseSoC CAPI2 core files -------------------------------------------

def vlnv_key(name):
    name = name.lstrip("~=<>^")
    return ":".join(name.split(":")[:3])


def index_cores(src):
    cores = {}
    for path in glob.glob(os.path.join(src, "**", "*.core"), recursive=True):
        if os.sep + "_gen" + os.sep in path:
            continue
        with open(path) as f:
            text = f.read()
        if not text.startswith("CAPI=2"):
            continue
        data = yaml.safe_load(text)
        if not isinstance(data, dict) or "name" not in data:
            continue
        cores.setdefault(vlnv_key(data["name"]), (path, data))
    return cores


def eval_item(item):
    """'flag ? (x)' / '!flag ? (x)' / 'x' -> list of x (or [])."""
    m = re.match(r"^\s*(!?)(\w+)\s*\?\s*\((.*)\)\s*$", item)
    if not m:
        return [item.strip()]
    neg, flag, body = m.groups()
    on = (flag in FLAGS) != bool(neg)
    return [body.strip()] if on else []


class Resolved:
    def __init__(self):
        self.seen = set()
        self.sv = []          # (path, is_include)
        self.vlt = []
        self.cpp = []
        self.incdirs = []


def resolve(cores, name, target, out, gen_dir):
    key = vlnv_key(name)
    if key in out.seen:
        return
    out.seen.add(key)
    if key not in cores:
        die("core %s not found" % name)
    path, data = cores[key]
    root = os.path.dirname(path)
    tgt = (data.get("targets") or {}).get(target) or (data.get("targets") or {}).get("default") or {}
    filesets = []
    for item in tgt.get("filesets") or []:
        filesets += eval_item(item)
    # primgen: the wrapper is the generic implementation under the wrapper's name
    for gname in tgt.get("generate") or []:
        gen = data["generate"][gname]
        if gen.get("generator") != "primgen":
            die("%s: generator %s not supported" % (key, gen.get("generator")))
        if "prim_name" not in gen["parameters"]:
            continue          # prim_pkg (the list of implementations): only the wrappers use it
        prim = gen["parameters"]["prim_name"]
        resolve_generic(cores, prim, out, gen_dir)
    for fs_name in filesets:           # every dependency's files before this core's own
        for dep in data["filesets"][fs_name].get("depend") or []:
            for d in eval_item(dep):
                resolve(cores, d, "default", out, gen_dir)
    for fs_name in filesets:
        add_files(data["filesets"][fs_name], root, out)


def add_files(fs, root, out, rename=None):
    ftype = fs.get("file_type")
    for f in fs.get("files") or []:
        if isinstance(f, str):
            fname, attrs = f, {}
        else:
            fname, attrs = list(f.items())[0]
            attrs = attrs or {}
        for fn in eval_item(fname):
            t = attrs.get("file_type", ftype)
            p = os.path.join(root, fn)
            if rename:
                p = rename(p, t)
            if attrs.get("is_include_file"):
                d = os.path.dirname(p)
                if d not in out.incdirs:
                    out.incdirs.append(d)
                continue
            lst = (out.sv if t and t.startswith(("systemVerilogSource", "verilogSource"))
                   else out.vlt if t == "vlt" else out.cpp if t in ("cppSource", "cSource") else None)
            if lst is not None and os.path.normpath(p) not in lst:
                lst.append(os.path.normpath(p))


def resolve_generic(cores, prim, out, gen_dir):
    key = "lowrisc:prim_generic:" + prim
    if key in out.seen:
        return
    out.seen.add(key)
    path, data = cores[key]
    root = os.path.dirname(path)
    tgt = data["targets"]["default"]
    os.makedirs(gen_dir, exist_ok=True)
    generic, wrapper = "prim_generic_" + prim, "prim_" + prim

    def rename(p, t):
        base = os.path.basename(p)
        if generic not in base:
            return p
        with open(p) as f:
            text = f.read()
        if t == "vlt":
            # the waivers name the file as */rtl/prim_generic_X.sv; Verilator 5.006 reports
            # clock_gating's unused parameters as UNUSEDPARAM, which `-rule UNUSED` misses
            text = text.replace("*/rtl/" + generic + ".sv", "*/" + wrapper + ".sv")
            text += "".join(l.replace("-rule UNUSED ", "-rule UNUSEDPARAM ") + "\n"
                            for l in text.splitlines() if "-rule UNUSED " in l)
        else:
            new = re.sub(r"\bmodule\s+" + generic + r"\b", "module " + wrapper, text)
            new = re.sub(r"\bendmodule\s*:\s*" + generic + r"\b", "endmodule : " + wrapper, new)
            if new == text:
                die("%s: no 'module %s'" % (p, generic))
            text = new
        q = os.path.join(gen_dir, base.replace(generic, wrapper))
        with open(q, "w") as f:
            f.write(text)
        return q

    filesets = [n for item in tgt.get("filesets") or [] for n in eval_item(item)]
    for fs_name in filesets:
        for dep in data["filesets"][fs_name].get("depend") or []:
            for d in eval_item(dep):
                resolve(cores, d, "default", out, gen_dir)
    for fs_name in filesets:
        add_files(data["filesets"][fs_name], root, out, rename)


# ---- the testbench changes ------------------------------------------------------------------

def patch(path, old, new):
    with open(path) as f:
        text = f.read()
    if old not in text:
        die("%s: upstream text not found (another Ibex commit?): %r" % (path, old[:60]))
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


COUNTER_DUMP = """  {
    std::ofstream counters("counters.txt");
    for (int i = 0; i < 32; ++i)
      counters << i << ' ' << mhpmcounter_get(i) << std::endl;
  }
  return true;
}"""


def patch_testbench(src):
    ss = os.path.join(src, "examples", "simple_system")
    patch(os.path.join(ss, "ibex_simple_system_main.cc"),
          '"TOP.ibex_simple_system.u_ram.u_ram.gen_generic.u_impl_generic"',
          '"TOP.ibex_simple_system.u_ram.u_ram"')
    cc = os.path.join(ss, "ibex_simple_system.cc")
    with open(cc) as f:
        text = f.read()
    m = re.search(r'\n  std::cout << "\\nPerformance Counters".*?\n  return true;\n}', text, re.S)
    if not m:
        die("%s: upstream counter printout not found" % cc)
    text = text[:m.start()] + "\n" + COUNTER_DUMP + text[m.end():]
    text = text.replace('#include "ibex_pcounts.h"',
                        '#include "ibex_pcounts.h"\nextern "C" unsigned long long mhpmcounter_get(int index);')
    with open(cc, "w") as f:
        f.write(text)


# ---- build ----------------------------------------------------------------------------------

def cmd_build(args):
    if not os.path.exists(args.ibex):
        die("no such git directory: " + args.ibex, 2)
    src = os.path.join(args.build, "src")
    if os.path.exists(src):
        shutil.rmtree(src)
    os.makedirs(src)
    arch = subprocess.run(["git", "--git-dir", args.ibex, "archive", args.rev],
                          stdout=subprocess.PIPE)
    if arch.returncode != 0:
        die("git archive %s failed" % args.rev)
    subprocess.run(["tar", "-x", "-C", src], input=arch.stdout, check=True)
    with open(os.path.join(args.build, "REV"), "w") as f:
        f.write(args.rev + "\n")
    patch_testbench(src)
    cores = index_cores(src)
    out = Resolved()
    resolve(cores, TOP_CORE, "sim", out, os.path.join(src, "_gen"))
    probe_vlt = os.path.join(src, "_gen", "socmon_probe.vlt")
    with open(probe_vlt, "w") as f:
        f.write("`verilator_config\nlint_off -file \"*/socmon_probe.sv\"\n")
    ver = subprocess.run(["verilator", "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    print("ibex_rtl.py: %s, Ibex %s: %d SystemVerilog files, %d waivers, %d C++ files"
          % (ver, args.rev[:12], len(out.sv), len(out.vlt), len(out.cpp)))
    for cfg in configs_of(args):
        params = CONFIGS[cfg]
        odir = os.path.join(args.build, cfg)
        if os.path.exists(odir):
            shutil.rmtree(odir)
        os.makedirs(odir)
        cmd = ["verilator", "--cc", "--exe", "--build", "-j", str(args.jobs), "-Wall",
               "--unroll-count", "72", "--top-module", "ibex_simple_system",
               "--Mdir", os.path.join(odir, "obj"), "-o", os.path.join(odir, "Vibex_simple_system"),
               "-CFLAGS", "-std=c++17 -Wall -DTOPLEVEL_NAME=ibex_simple_system -O2",
               "-LDFLAGS", "-pthread -lutil -lelf", "+define+RVFI=1"]
        for k, v in sorted(params.items()):
            cmd.append("+define+%s=%s" % (k, v) if k in DEFINES else "-G%s=%s" % (k, v))
        cmd += ["+incdir+" + d for d in out.incdirs]
        cmd += ["-CFLAGS", " ".join("-I" + d for d in out.incdirs)]
        cmd += out.vlt + [probe_vlt] + out.sv + [PROBE] + out.cpp
        with open(os.path.join(odir, "verilator.cmd"), "w") as f:
            f.write(" ".join(cmd) + "\n")
        print("ibex_rtl.py: building %s (log: %s/build.log)" % (cfg, odir), flush=True)
        with open(os.path.join(odir, "build.log"), "w") as log:
            r = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            die("verilator failed for %s; see %s/build.log" % (cfg, odir))
    return 0


# ---- run ------------------------------------------------------------------------------------

def configs_of(args):
    return list(CONFIGS) if args.config == "all" else [args.config]


def parse_trace(path):
    """The tracer's log -> the .windows text: every instruction from `csrw mcountinhibit, x0`
    to `csrw mcountinhibit, x31`, as 'cycle pc insn mnemonic operands'. Each
    `csrw mcountinhibit, x0` starts a new window, also inside an open one."""
    lines, inside, n = [], False, 0
    with open(path) as f:
        next(f)
        for raw in f:
            fields = raw.rstrip("\n").split("\t")
            cycle, pc, insn = fields[1].strip(), fields[2], fields[3]
            mnem = fields[4] if len(fields) > 4 else ""
            ops = fields[5] if len(fields) > 5 else ""
            csr = mnem == "csrrw" and ops.startswith("x0,mcountinhibit,")
            if csr and ops == "x0,mcountinhibit,x0":   # a restart opens a new window too
                inside = True
                n += 1
                lines.append("window %d" % n)
            if inside:
                lines.append("%s %s %s %s %s" % (cycle, pc, insn, mnem, ops))
            if inside and csr and ops == "x0,mcountinhibit,x31":
                inside = False
    return "".join(l + "\n" for l in lines)


NAMES = [(0, "mcycle"), (2, "minstret")] + [(i, "mhpmcounter%d" % i) for i in range(3, 13)]


def functions_table(probe, elf, vals, name):
    """The .functions text from the probe's dump (functions.py), after checking that its counts
    add up, counter by counter, to the end values the testbench read (counters.txt)."""
    rows = functions.wrap(functions.by_function(functions.attribute(probe),
                                                functions.elf_symbols(elf)), functions.WIDTH)
    for col, i in enumerate(functions.COUNTERS):
        total = sum(v[col] for v in rows.values())
        w = 64 if i < 3 else functions.WIDTH
        if (total - vals[i]) % (1 << w):
            die("%s: %s: the functions' counts add up to %d, the counter ends at %d"
                % (name, functions.NAMES[col], total, vals[i]))
    return functions.table(rows)


def run_one(sim, elf, name, outdir, want_windows, want_functions=False, only_functions=False):
    with tempfile.TemporaryDirectory(prefix="ibex_rtl_") as tmp:
        probe = os.path.join(tmp, "probe.txt")
        r = subprocess.run([sim, "--meminit=ram," + os.path.abspath(elf),
                            "--term-after-cycles=50000000"]
                           + (["+socmon_probe=" + probe] if want_functions else []), cwd=tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0 or not os.path.exists(os.path.join(tmp, "counters.txt")):
            print(r.stdout[-2000:], file=sys.stderr)
            die("%s: the simulation failed" % name)
        vals = {}
        with open(os.path.join(tmp, "counters.txt")) as f:
            for line in f:
                i, v = line.split()
                vals[int(i)] = int(v)
        if want_functions:
            if not os.path.exists(probe):
                die("%s: no probe dump (a simulator built before socmon_probe.sv: ibex_rtl.py build)" % sim)
            with open(os.path.join(outdir, name + ".functions"), "w") as f:
                f.write(functions_table(probe, elf, vals, name))
        if only_functions:
            return
        shutil.copyfile(os.path.join(tmp, "ibex_simple_system.log"),
                        os.path.join(outdir, name + ".out"))
        with open(os.path.join(outdir, name + ".counters"), "w") as f:
            for i, cname in NAMES:
                f.write("%s %d\n" % (cname, vals[i]))
        if want_windows:
            with open(os.path.join(outdir, name + ".windows"), "w") as f:
                f.write(parse_trace(os.path.join(tmp, "trace_core_00000000.log")))


def programs_of(args):
    progs = []
    for p in args.programs:
        if p.endswith(".elf") or os.sep in p:
            progs.append((os.path.basename(p)[:-4] if p.endswith(".elf") else os.path.basename(p), p))
        else:
            progs.append((p, os.path.join(args.elf_dir, p + ".elf")))
    for name, elf in progs:
        if not os.path.exists(elf):
            die("no ELF for %s: %s" % (name, elf), 2)
    return progs


def windows_wanted(name):
    return not name.startswith("halt_") and name not in NO_WINDOWS


def functions_wanted(cfg, name, out_root):
    """`functions` writes a program's .functions; `check` compares it where the fixture has one."""
    return os.path.exists(os.path.join(out_root, cfg, name + ".functions"))


def cmd_run(args, out_root=None, check_functions=False):
    out_root = out_root or args.out
    only = args.mode == "functions"
    for cfg in configs_of(args):
        sim = os.path.join(args.build, cfg, "Vibex_simple_system")
        if not os.path.exists(sim):
            die("%s not built (ibex_rtl.py build)" % sim, 2)
        odir = os.path.join(out_root, cfg)
        os.makedirs(odir, exist_ok=True)
        for name, elf in programs_of(args):
            fn = only or (check_functions and functions_wanted(cfg, name, FIXTURES))
            run_one(sim, elf, name, odir, windows_wanted(name), fn, only)
            print("ibex_rtl.py: %s/%s" % (cfg, name), flush=True)
    return 0


def cmd_check(args):
    bad = 0
    with tempfile.TemporaryDirectory(prefix="ibex_rtl_check_") as tmp:
        cmd_run(args, tmp, check_functions=True)
        for cfg in configs_of(args):
            for name, _ in programs_of(args):
                only = not os.path.exists(os.path.join(FIXTURES, cfg, name + ".out"))
                for ext in (".out", ".counters", ".windows", ".functions"):
                    if only and ext != ".functions":   # (trapframes: only its .functions)
                        continue
                    if ext == ".windows" and not windows_wanted(name):
                        continue
                    if ext == ".functions" and not functions_wanted(cfg, name, FIXTURES):
                        continue
                    a = os.path.join(FIXTURES, cfg, name + ext)
                    b = os.path.join(tmp, cfg, name + ext)
                    same = os.path.exists(a) and open(a, "rb").read() == open(b, "rb").read()
                    print("%-8s %s/%s%s" % ("same" if same else "DIFFERS", cfg, name, ext))
                    bad += not same
    print("ibex_rtl.py: %d file(s) differ" % bad)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("build", "run", "functions", "check"))
    ap.add_argument("programs", nargs="*")
    ap.add_argument("--ibex", default="/work/.mirror/lowRISC+ibex/repo")
    ap.add_argument("--rev", default=DEFAULT_REV)
    ap.add_argument("--build", default="/tmp/ibex_rtl")
    ap.add_argument("--config", default="all", choices=("all",) + tuple(CONFIGS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=FIXTURES)
    ap.add_argument("--elf-dir", default=os.path.join(SRC_ROOT, "build", "ibex_programs_build"))
    args = ap.parse_intermixed_args()
    if args.mode == "build":
        return cmd_build(args)
    if not args.programs:
        die("%s: name at least one program" % args.mode, 2)
    return cmd_check(args) if args.mode == "check" else cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())
