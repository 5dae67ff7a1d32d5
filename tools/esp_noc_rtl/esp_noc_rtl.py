#!/usr/bin/env python3
"""Build ESP's NoC router RTL with Verilator and replay packet traces through it.

  esp_noc_rtl.py ESP [--out DIR] [--build DIR] [--jobs N] [TRACE...]
  esp_noc_rtl.py ESP --speed [--build DIR] [--jobs N]

ESP is an ESP checkout: a work tree (with rtl/noc/router/) or a git directory (a bare clone,
or a work tree's .git), read at --rev (default HEAD). Nothing is copied into this repository:
the router sources are extracted into the build directory, beside a hand-written esp_global.svh
(socmap_gen.py's for a 64-bit NoC: MAX_X = MAX_Y = 16), and Verilator builds them with
noc_mesh.sv (R x C routers wired as tests/esp/noc_rtl/README.md says) and tb.cpp (the testbench),
once per mesh size.

Without --speed it replays every trace of tests/esp/noc_rtl/traces/ (or only the TRACEs named,
without .txt) and writes <trace>.txt in the fixture's format into --out (default: the fixture's
expected/, so that it regenerates the fixture), then says how many equal the fixture's files as
they were before the run.

--speed replays a 4,000-cycle version of syn_8x8_uniform_near (gen_traces.py's generator, 0.9 x
saturation) and prints the RTL's speed in simulated cycles and router traversals (flit hops:
flits x (hops + 1)) per CPU second of the simulation loop.

Exit 0 on success, 1 if a build or a run fails, 2 on bad arguments (a missing checkout, a
checkout without ESP's router, an unknown trace, a bad number).
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(SRC_ROOT, "tests", "esp", "noc_rtl")
ROUTER_DIR = "rtl/noc/router"
# Compile order: the package first, then what the wrapper instantiates. The multicast files are
# compiled (the wrapper names lookahead_router_multicast) but not elaborated with DEST_SIZE = 1.
ROUTER_FILES = ["noc_pkg.sv", "router_fifo.sv", "router_arbiter.sv", "router_mcast_arbiter.sv",
                "lookahead_routing.sv", "lookahead_routing_multicast.sv", "lookahead_router.sv",
                "lookahead_router_multicast.sv", "lookahead_router_wrapper.sv"]
FIXTURE_ESP_COMMIT = "009a3f5bae0db2a54ae9b3e1eab0b9c7fb7bfa84"
ESP_GLOBAL_SVH = ("// esp_global.svh as ESP's socmap_gen.py writes it for a 64-bit NoC\n"
                  "// (written by tools/esp_noc_rtl/esp_noc_rtl.py)\n"
                  "`define MAX_Y 16\n"
                  "`define MAX_X 16\n")
VERILATOR_FLAGS = ["--cc", "--exe", "-O2", "--top-module", "noc_mesh",
                   # lookahead_router.sv assigns parts of data_void_out and saved_routing_request
                   # both ways on the disabled ports; the wrapper's FlowControl is a bit passed to
                   # an enum parameter; router_fifo.sv compares a 3-bit pointer with an int.
                   "-Wno-BLKANDNBLK", "-Wno-ENUMVALUE", "-Wno-WIDTH"]
MESHES = ("2x3", "4x4", "8x8")
SPEED_CYCLES = 4000


class Usage(Exception):
    pass


def log(msg):
    print("esp_noc_rtl: " + msg, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(r.stdout)
        raise RuntimeError("'%s' exited %d" % (" ".join(cmd[:3]) + " ...", r.returncode))
    return r.stdout


def git_dir_of(path):
    """The git directory of a bare repository or of a work tree, or None."""
    r = subprocess.run(["git", "--git-dir", path, "rev-parse", "--git-dir"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if r.returncode == 0 and os.path.isdir(os.path.join(path, "objects")):
        return path
    dot = os.path.join(path, ".git")
    if os.path.exists(dot):
        return dot
    return None


def extract_router(esp, rev, dest):
    """Writes ESP's router sources into dest; returns a description of where they came from."""
    if not os.path.exists(esp):
        raise Usage("ESP checkout '%s' does not exist" % esp)
    if not os.path.isdir(esp):
        raise Usage("ESP checkout '%s' is not a directory" % esp)
    tree = os.path.join(esp, ROUTER_DIR)
    gd = git_dir_of(esp)
    if os.path.isdir(tree) and rev is None:
        os.makedirs(dest, exist_ok=True)
        for f in ROUTER_FILES:
            if not os.path.isfile(os.path.join(tree, f)):
                raise Usage("ESP checkout '%s' has no %s/%s" % (esp, ROUTER_DIR, f))
            shutil.copyfile(os.path.join(tree, f), os.path.join(dest, f))
        commit = "unknown (not a git checkout)"
        if gd:
            r = subprocess.run(["git", "-C", esp, "rev-parse", "HEAD"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            if r.returncode == 0:
                commit = r.stdout.strip()
                st = subprocess.run(["git", "-C", esp, "status", "--porcelain", "--", ROUTER_DIR],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                if st.stdout.strip():
                    commit += " (with local changes to %s)" % ROUTER_DIR
        return commit
    if gd is None:
        raise Usage("'%s' is neither an ESP work tree (no %s/) nor a git directory" % (esp, ROUTER_DIR))
    rev = rev or "HEAD"
    r = subprocess.run(["git", "--git-dir", gd, "rev-parse", "--verify", "--quiet", rev + "^{commit}"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if r.returncode != 0:
        raise Usage("revision '%s' is not in '%s'" % (rev, esp))
    commit = r.stdout.strip()
    blobs = {}
    for f in ROUTER_FILES:
        r = subprocess.run(["git", "--git-dir", gd, "show", "%s:%s/%s" % (commit, ROUTER_DIR, f)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            raise Usage("'%s' at %s has no %s/%s: not an ESP checkout?" % (esp, commit[:12], ROUTER_DIR, f))
        blobs[f] = r.stdout
    os.makedirs(dest, exist_ok=True)
    for f, data in blobs.items():
        with open(os.path.join(dest, f), "wb") as fp:
            fp.write(data)
    return commit


def build(mesh, srcdir, builddir, jobs):
    """Builds the model of one mesh size (only when an input changed); returns the binary."""
    rows, cols = mesh.split("x")
    ours = [os.path.join(HERE, "noc_mesh.sv"), os.path.join(HERE, "tb.cpp")]
    svs = [os.path.join(srcdir, f) for f in ROUTER_FILES] + [ours[0]]
    flags = VERILATOR_FLAGS + ["-GROWS=" + rows, "-GCOLS=" + cols, "-I" + srcdir,
                               "-CFLAGS", "-O2 -DMESH_ROWS=%s -DMESH_COLS=%s" % (rows, cols)]
    h = hashlib.sha256(" ".join(flags).encode())
    for f in svs + [os.path.join(srcdir, "esp_global.svh"), ours[1]]:
        with open(f, "rb") as fp:
            h.update(fp.read())
    mdir = os.path.join(builddir, "obj_" + mesh)
    binary = os.path.join(mdir, "tb_" + mesh)
    stamp = os.path.join(mdir, "inputs.sha256")
    if os.path.exists(binary) and os.path.exists(stamp) and open(stamp).read() == h.hexdigest():
        return binary
    shutil.rmtree(mdir, ignore_errors=True)
    log("building the %s mesh (Verilator, then make -j%d)" % (mesh, jobs))
    t0 = time.time()
    run(["verilator"] + flags + ["--Mdir", mdir, "-o", "tb_" + mesh] + svs + [ours[1]])
    run(["make", "-C", mdir, "-f", "Vnoc_mesh.mk", "-j%d" % jobs, "OPT_FAST=-O2", "OPT_SLOW=-O2"])
    with open(stamp, "w") as fp:
        fp.write(h.hexdigest())
    log("built %s in %.0f s" % (binary, time.time() - t0))
    return binary


def replay(binary, trace, out):
    """Runs one trace; returns (cycles, traversals, cpu seconds) from the testbench."""
    r = subprocess.run([binary, trace, out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise RuntimeError("%s on %s exited %d" % (os.path.basename(binary), trace, r.returncode))
    m = re.search(r"cycles (\d+) traversals (\d+) cpu_s ([0-9.]+)", r.stderr)
    return int(m.group(1)), int(m.group(2)), float(m.group(3))


def trace_mesh(path):
    with open(path) as fp:
        for raw in fp:
            w = raw.split("#", 1)[0].split()
            if w:
                if w[0] != "mesh" or len(w) != 3:
                    raise Usage("trace '%s' does not start with 'mesh ROWS COLS'" % path)
                return "%sx%s" % (w[1], w[2])
    raise Usage("trace '%s' is empty" % path)


def speed_trace(path):
    """syn_8x8_uniform_near as gen_traces.py writes it (same seed), with SPEED_CYCLES cycles of
    injection instead of 400."""
    sys.path.insert(0, FIXTURE)
    import gen_traces
    seed = 1000
    for mesh in ("2x3", "4x4", "8x8"):      # gen_traces.all_traces' order of seeds
        for pattern in gen_traces.PATTERNS:
            for load_name, factor in gen_traces.LOADS:
                seed += 1
                if (mesh, pattern, load_name) == ("8x8", "uniform", "near"):
                    gen_traces.CYCLES = dict(gen_traces.CYCLES, **{"8x8": SPEED_CYCLES})
                    with open(path, "w") as fp:
                        fp.write(gen_traces.trace(mesh, pattern, load_name, factor, seed))
                    return


def positive(s):
    try:
        v = int(s)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError("'%s' is not a positive integer" % s)
    return v


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("esp_noc_rtl: %s\n" % message)
        sys.exit(2)


def main():
    p = Parser(description=__doc__.split("\n")[0], epilog=__doc__.split("\n", 4)[4],
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("esp", metavar="ESP", help="ESP checkout: a work tree or a git directory")
    p.add_argument("traces", metavar="TRACE", nargs="*", help="only these traces (names without .txt)")
    p.add_argument("--rev", help="revision of a git checkout to read (default HEAD; a work tree's "
                                 "files as they are when not given)")
    p.add_argument("--out", help="where expected/<trace>.txt go (default: the fixture's expected/)")
    p.add_argument("--build", default=os.path.join(tempfile.gettempdir(), "esp_noc_rtl_build"),
                   help="build directory, outside the repository (default: %(default)s)")
    p.add_argument("--jobs", type=positive, default=1, help="parallel compile jobs (default 1)")
    p.add_argument("--speed", action="store_true", help="measure the RTL's simulation speed instead")
    a = p.parse_intermixed_args()
    try:
        return go(a)
    except Usage as e:
        sys.stderr.write("esp_noc_rtl: %s\n" % e)
        return 2
    except (RuntimeError, OSError) as e:
        sys.stderr.write("esp_noc_rtl: %s\n" % e)
        return 1


def go(a):
    tdir = os.path.join(FIXTURE, "traces")
    names = sorted(f[:-4] for f in os.listdir(tdir) if f.endswith(".txt"))
    for t in a.traces:
        if t not in names:
            raise Usage("no trace '%s' in %s" % (t, tdir))
    if a.speed and a.traces:
        raise Usage("--speed takes no TRACE")
    build_root = os.path.abspath(a.build)
    if (build_root + os.sep).startswith(SRC_ROOT + os.sep):
        raise Usage("build directory '%s' is inside the repository" % a.build)
    out = os.path.abspath(a.out) if a.out else os.path.join(FIXTURE, "expected")
    esp = os.path.abspath(a.esp) if os.path.exists(a.esp) else a.esp
    srcdir = os.path.join(build_root, "esp_src")
    t_start = time.time()
    commit = extract_router(esp, a.rev, srcdir)
    with open(os.path.join(srcdir, "esp_global.svh"), "w") as fp:
        fp.write(ESP_GLOBAL_SVH)
    vver = run(["verilator", "--version"]).strip()
    log("ESP %s at %s; %s" % (a.esp, commit, vver))
    if not commit.startswith(FIXTURE_ESP_COMMIT):
        log("warning: the fixture was captured at ESP %s, not this commit" % FIXTURE_ESP_COMMIT)

    if a.speed:
        binary = build("8x8", srcdir, build_root, a.jobs)
        tr = os.path.join(build_root, "speed_8x8_uniform_near_%d.txt" % SPEED_CYCLES)
        speed_trace(tr)
        cycles, trav, cpu = replay(binary, tr, os.path.join(build_root, "speed_out.txt"))
        with open(os.path.join(build_root, "speed_out.txt")) as fp:
            fl = re.search(r"^flits (\d+)$", fp.read(), re.M).group(1)
        log("speed: syn_8x8_uniform_near with %d cycles of injection (%s flits, %d cycles to the "
            "drain): %.2f CPU s, %.0f cycles/s, %.3f M router traversals/s"
            % (SPEED_CYCLES, fl, cycles, cpu, cycles / cpu, trav / cpu / 1e6))
        return 0

    todo = a.traces or names
    by_mesh = {}
    for t in todo:
        m = trace_mesh(os.path.join(tdir, t + ".txt"))
        if m not in MESHES:
            raise Usage("trace '%s' is a %s mesh; the fixture's are %s" % (t, m, ", ".join(MESHES)))
        by_mesh.setdefault(m, []).append(t)
    binaries = {m: build(m, srcdir, build_root, a.jobs) for m in MESHES if m in by_mesh}
    t_build = time.time()
    os.makedirs(out, exist_ok=True)
    # Each output is compared with the fixture's file as it was before the run.
    changed, added, cpu_total = [], [], 0.0
    for m in MESHES:
        for t in by_mesh.get(m, []):
            ref = os.path.join(FIXTURE, "expected", t + ".txt")
            old = open(ref).read() if os.path.exists(ref) else None
            dst = os.path.join(out, t + ".txt")
            _, _, cpu = replay(binaries[m], os.path.join(tdir, t + ".txt"), dst + ".tmp")
            cpu_total += cpu
            os.replace(dst + ".tmp", dst)
            with open(dst) as fp:
                new = fp.read()
            if old is None:
                added.append(t)
            elif old != new:
                changed.append(t)
    t_end = time.time()
    log("%d traces replayed into %s: %d equal to the fixture's expected/, %d differ, %d not in it" %
        (len(todo), out, len(todo) - len(changed) - len(added), len(changed), len(added)))
    for t in changed:
        log("differs: " + t)
    log("%.0f s in all: %.0f s extracting and building, %.1f s replaying (%.1f CPU s simulating)" %
        (t_end - t_start, t_build - t_start, t_end - t_build, cpu_total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
