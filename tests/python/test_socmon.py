"""Tests of the socmon Python package (run by tests/python/python_package.test.sh, and by
scripts/test-install.sh against an install prefix).

Environment: SOCMON_BIN (the socmon CLI whose numbers the package must equal), SOCMON_PROGRAM (an
Ibex program ELF), SOCMON_GAPS_REC (a recording with gaps), SOCMON_TEST_PANDAS (1: pandas must
be in use, 0: it must not); optional: SOCMON_TRAP_PROGRAM and SOCMON_HANG_PROGRAM (Ibex programs
that trap out and sleep forever: tests/ibex/cli's trapout.S and sleep.S; their tests skip without).
The package and its library are found as a user's would be.
"""

import json
import math
import os
import subprocess
import tempfile
import unittest

import socmon

BIN = os.environ["SOCMON_BIN"]
PROGRAM = os.environ["SOCMON_PROGRAM"]
GAPS = os.environ["SOCMON_GAPS_REC"]
WANT_PANDAS = os.environ.get("SOCMON_TEST_PANDAS")
TRAP_PROGRAM = os.environ.get("SOCMON_TRAP_PROGRAM")
HANG_PROGRAM = os.environ.get("SOCMON_HANG_PROGRAM")


def cli(*args):
    return subprocess.run([BIN] + list(args), check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout


def records(t):
    """A table (DataFrame or list of dicts) as a list of dicts, NaN as None."""
    rows = t.to_dict("records") if hasattr(t, "to_dict") else t
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()} for r in rows]


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b


class Base(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def assertRowsEqual(self, got, want, what):
        self.assertEqual(len(got), len(want), what + ": row count")
        for i, (g, w) in enumerate(zip(got, want)):
            self.assertEqual(list(g), list(w), "%s row %d: columns" % (what, i))
            for k in w:
                self.assertTrue(same(g[k], w[k]), "%s row %d %s: %r != %r" % (what, i, k, g[k], w[k]))


class Mode(unittest.TestCase):
    def test_pandas_or_lists(self):
        if WANT_PANDAS is not None:
            self.assertEqual(socmon.HAVE_PANDAS, WANT_PANDAS == "1")
        t = socmon.read_sweep
        self.assertTrue(callable(t))

    def test_version_is_the_librarys(self):
        # one version (issue 37): the package's is the library's and the CLI's, whichever way it came
        # (the source tree, pip install, cmake --install)
        import ctypes
        from socmon._lib import lib
        lib.socmon_version.restype = ctypes.c_char_p
        self.assertEqual(socmon.__version__, lib.socmon_version().decode())
        self.assertEqual("socmon " + socmon.__version__, cli("--version").decode().split("\n")[0])

    def test_tensix_keeps_its_old_name(self):
        import socmon.tensix
        import socmon_tensix
        self.assertIs(socmon_tensix, socmon.tensix)
        sim = socmon_tensix.Simulator(bound="math", tiles=8)
        socmon_tensix.configure_counters(sim)
        sim.run()
        self.assertIn("math", socmon_tensix.compute_metrics(socmon_tensix.read_counters(sim))["dominant_bound_per_thread"])


class Recordings(Base):
    """Every model target's recording read by the package equals report --json --deltas."""

    def check(self, name, *record_args):
        rec = os.path.join(self.tmp, name + ".rec")
        cli("record", "-q", "-o", rec, *record_args)
        doc = json.loads(cli("report", "-i", rec, "--json", "--deltas"))
        r = socmon.read_recording(rec)
        rows = doc["intervals"]
        self.assertGreater(len(rows), 1, name)
        want_d = [dict(t_ns=x["t_ns"], interval_ns=x["interval_ns"], **x["deltas"]) for x in rows]
        want_m = [dict(t_ns=x["t_ns"], interval_ns=x["interval_ns"], **x["metrics"]) for x in rows]
        self.assertRowsEqual(records(r.deltas), want_d, name + " deltas")
        self.assertRowsEqual(records(r.metrics), want_m, name + " metrics")
        self.assertEqual(r.target, doc["target"])
        self.assertEqual(r.interval_ns, doc["interval_ns"])
        self.assertEqual(len(r.gaps), 0, name + ": a whole recording has no gaps")
        return rec, r

    def test_esp(self):
        self.check("esp", "-t", "esp", "-w", "multifft", "-I", "200us")

    def test_esp_4x4(self):
        self.check("esp44", "-t", "esp:soc=esp_4x4", "-w", "acc_sweep", "-I", "500us")

    def test_zynq(self):
        self.check("zynq", "-t", "zynq:duration_ms=20", "-I", "1ms")

    def test_tensix(self):
        self.check("tensix", "-t", "tensix", "-I", "10us")

    def test_ibex_program_and_functions(self):
        rec, r = self.check("ibex", "-t", "ibex", "-I", "10us", "--", PROGRAM)
        want = json.loads(cli("report", "-i", rec, "--by-symbol", "--json"))["functions"]
        self.assertGreater(len(want), 0)
        self.assertRowsEqual(records(r.functions), want, "functions")

    def test_gaps(self):
        r = socmon.read_recording(GAPS)
        gaps = records(r.gaps)
        self.assertGreaterEqual(len(gaps), 1)
        self.assertTrue(all(g["missed"] > 0 for g in gaps), gaps)
        doc = json.loads(subprocess.run([BIN, "report", "-i", GAPS, "--json", "--deltas"], check=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout)
        want = [x["t_ns"] for x in doc["intervals"] if "missed=" in x["flags"]]
        self.assertEqual([g["t_ns"] for g in gaps], want)


class Runs(Base):
    """socmon.stat equals the CLI's stat --json; stat, diff and sweep documents read back."""

    def cli_stat(self, *args):
        out = os.path.join(self.tmp, "stat.json")
        subprocess.run([BIN, "stat", "--json", "-o", out] + list(args), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return out, socmon.read_stat(out)

    def test_stat_esp(self):
        got = socmon.stat("esp", workload="multifft", soc="esp_4x4")
        _, want = self.cli_stat("-t", "esp:soc=esp_4x4", "-w", "multifft")
        self.assertEqual(got["counters"], want["counters"])
        self.assertEqual(got["metrics"], want["metrics"])
        self.assertGreater(got["counters"]["tile0.l2_hits"], 0)

    def test_stat_ibex_program(self):
        got = socmon.stat("ibex", program=PROGRAM, config="maxperf")
        _, want = self.cli_stat("-t", "ibex:config=maxperf", "--", PROGRAM)
        self.assertEqual(got["counters"], want["counters"])
        self.assertGreater(got["counters"]["cycles"], 0)

    def test_read_stat_and_dispatch(self):
        path, st = self.cli_stat("-t", "esp", "-w", "idle")
        with open(path) as f:
            doc = json.load(f)
        self.assertEqual(st["counters"], {c["name"]: c["value"] for c in doc["counters"]})
        self.assertEqual(socmon.read(path)["counters"], st["counters"])

    def test_read_diff(self):
        a, b = os.path.join(self.tmp, "a.json"), os.path.join(self.tmp, "b.json")
        cli("stat", "-t", "esp", "-w", "multifft", "--json", "-o", a)
        cli("stat", "-t", "esp", "-w", "acc_sweep", "--json", "-o", b)
        d = os.path.join(self.tmp, "d.json")
        with open(d, "wb") as f:
            f.write(cli("diff", a, b, "--json"))
        rows = records(socmon.read_diff(d))
        with open(d) as f:
            want = json.load(f)["rows"]
        self.assertRowsEqual(rows, want, "diff")
        self.assertEqual(len(records(socmon.read(d))), len(want))

    def test_sweep_tables(self):
        csvp, jsonp = os.path.join(self.tmp, "s.csv"), os.path.join(self.tmp, "s.json")
        grid = ["-q", "-t", "esp:soc={esp_2x3,esp_4x4}", "-w", "multifft,idle"]
        cli("sweep", *grid, "-o", csvp)
        cli("sweep", *grid, "--json", "-o", jsonp)
        a, b = records(socmon.read_sweep(csvp)), records(socmon.read_sweep(jsonp))
        self.assertEqual(len(a), 4)
        self.assertRowsEqual(a, b, "CSV vs JSON sweep")
        with open(jsonp) as f:
            pts = json.load(f)["points"]
        for row, p in zip(b, pts):
            self.assertEqual(row["target"], p["target"])
            for k, v in p["counters"].items():
                self.assertEqual(row["counter:" + k], v)
        self.assertEqual(records(socmon.read(csvp))[3]["option:soc"], "esp_4x4")


class ProgramEnds(Base):
    """socmon.stat on a program says what the firmware printed and how the run ended, as the CLI's
    stdout, its stderr line and its exit status do (issue 39)."""

    def cli_run(self, *args):
        """The CLI's stat: (stdout bytes, stderr text, exit status, its stat --json document)."""
        out = os.path.join(self.tmp, "stat.json")
        p = subprocess.run([BIN, "stat", "--json", "-o", out] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        with open(out) as f:
            doc = json.load(f)
        return p.stdout, p.stderr.decode(), p.returncode, doc

    def check(self, r, cli_args, end, exit_code):
        stdout, stderr, rc, doc = self.cli_run(*cli_args)
        self.assertEqual(r.end, end)
        self.assertEqual(r.exit_code, exit_code)
        self.assertEqual(r.exit_code, rc, "the CLI's exit status")
        self.assertEqual(r.output_bytes, stdout, "what the firmware printed: the CLI's stdout")
        self.assertEqual(r.output, stdout.decode("utf-8", "replace"))
        if rc:
            self.assertIn("socmon stat: " + r.end_message + "\n", stderr)
        self.assertEqual(r["counters"], {c["name"]: c["value"] for c in doc["counters"]})
        self.assertEqual(r["program"]["end"], end)   # the document says it too
        self.assertIsInstance(r, dict)

    def test_halt(self):
        r = socmon.stat("ibex", program=PROGRAM)
        self.check(r, ["-t", "ibex", "--", PROGRAM], "halt", 0)
        self.assertEqual(r.end_message, "program halted")
        self.assertIn("checksum ", r.output)

    def test_cycle_limit(self):
        r = socmon.stat("ibex", program=PROGRAM, max_cycles=1000)
        self.check(r, ["-t", "ibex", "--max-cycles", "1000", "--", PROGRAM], "cycle_limit", 4)
        self.assertIn("did not halt within 1000 cycles", r.end_message)

    def test_timeout(self):
        r = socmon.stat("ibex", program=PROGRAM, duration=2e-6)
        self.check(r, ["-t", "ibex", "-d", "2us", "--", PROGRAM], "timeout", 0)
        self.assertLess(r["counters"]["cycles"], 200)

    @unittest.skipUnless(TRAP_PROGRAM, "SOCMON_TRAP_PROGRAM not set (no riscv64-unknown-elf-gcc)")
    def test_trap(self):
        r = socmon.stat("ibex", program=TRAP_PROGRAM)
        self.check(r, ["-t", "ibex", "--", TRAP_PROGRAM], "trap", 3)
        self.assertEqual(r.output, "before\n")
        self.assertIn("trapped out: exception mcause 2", r.end_message)

    @unittest.skipUnless(HANG_PROGRAM, "SOCMON_HANG_PROGRAM not set (no riscv64-unknown-elf-gcc)")
    def test_hang(self):
        r = socmon.stat("ibex", program=HANG_PROGRAM)
        self.check(r, ["-t", "ibex", "--", HANG_PROGRAM], "hang", 5)
        self.assertIn("sleeps forever", r.end_message)

    def test_no_program_no_end(self):
        r = socmon.stat("esp", workload="idle")
        self.assertNotIn("program", r)
        self.assertEqual((r.end, r.exit_code, r.end_message, r.output, r.output_bytes), (None,) * 5)

    def test_document_read_back(self):
        r = socmon.stat("ibex", program=PROGRAM, max_cycles=1000)
        p = os.path.join(self.tmp, "r.json")
        with open(p, "w") as f:
            json.dump(r["document"], f)
        for back in (socmon.read_stat(p), socmon.read(p)):
            self.assertEqual((back.end, back.exit_code, back.end_message, back.output_bytes),
                             (r.end, r.exit_code, r.end_message, r.output_bytes))

    def test_output_bytes_exact(self):
        # the document carries bytes one character each (U+0000..U+00FF): not-UTF-8 survives
        p = os.path.join(self.tmp, "b.json")
        with open(p, "w") as f:
            json.dump({"counters": [], "program": {"end": "halt", "exit_code": 0, "message": "program halted",
                                                   "output": "caf\u00c3\u00a9 \u00ff\n"}}, f)
        r = socmon.read_stat(p)
        self.assertEqual(r.output_bytes, b"caf\xc3\xa9 \xff\n")
        self.assertEqual(r.output, "caf\u00e9 \ufffd\n")

    def test_bad_program_fields(self):
        good = {"end": "halt", "exit_code": 0, "message": "program halted", "output": ""}
        cases = {
            "unknown_end": (dict(good, end="exploded"), ['"end"', "'exploded'"]),
            "no_end": ({k: v for k, v in good.items() if k != "end"}, ['no "end"']),
            "no_exit_code": ({k: v for k, v in good.items() if k != "exit_code"}, ['no "exit_code"']),
            "no_output": ({k: v for k, v in good.items() if k != "output"}, ['no "output"']),
            "text_exit_code": (dict(good, exit_code="0"), ['"exit_code"']),
            "bool_exit_code": (dict(good, exit_code=True), ['"exit_code"']),
            "wide_output": (dict(good, output="\u20ac"), ['"output"']),
            "list": ([good], ['"program"']),
        }
        for name, (prog, words) in cases.items():
            p = os.path.join(self.tmp, name + ".json")
            with open(p, "w") as f:
                json.dump({"counters": [], "program": prog}, f)
            for fn in (socmon.read_stat, socmon.read):
                with self.assertRaises(socmon.SocmonError, msg="%s %s" % (fn.__name__, name)) as e:
                    fn(p)
                self.assertEqual(e.exception.status, "SOCMON_EINVAL")
                for w in [p] + words:
                    self.assertIn(w, str(e.exception), "%s %s" % (fn.__name__, name))


class Profiles(Base):
    """A program recording's exact profile from Python equals report's views (issue 39)."""

    def setUp(self):
        super().setUp()
        self.rec = os.path.join(self.tmp, "prog.rec")
        cli("record", "-q", "-t", "ibex", "-o", self.rec, "--", PROGRAM)

    def report(self, *args):
        return subprocess.run([BIN, "report", "-i", self.rec] + list(args), check=True, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL).stdout.decode()

    def test_views_equal_report(self):
        prof = socmon.read_recording(self.rec).profile
        self.assertIsInstance(prof, socmon.Profile)
        self.assertEqual(prof.events[:2], ["cycles", "instret"])
        edges = json.loads(self.report("--call-tree", "--json"))["edges"]
        self.assertGreater(len(edges), 1)
        self.assertRowsEqual(records(prof.call_tree), edges, "call tree")
        lines = json.loads(self.report("--by-line", "--json"))
        want = [dict([(k, x[k]) for k in ("file", "line", "function")] + [("pc", x.get("pc"))] +
                     [(e, x[e]) for e in prof.events]) for x in lines["lines"]]
        self.assertRowsEqual(records(prof.by_line), want, "by line")
        self.assertEqual(prof.by_line_note, lines["note"])
        kids = json.loads(self.report("--children", "--json"))["functions"]
        self.assertRowsEqual(records(prof.children), kids, "children")
        for event in ("cycles", "instret"):
            text = self.report("--folded", "--event", event)
            want = []
            for ln in text.splitlines():
                stack, value = ln.rsplit(" ", 1)
                want.append({"stack": stack, "function": stack.split(";")[-1], "depth": stack.count(";") + 1,
                             "value": int(value)})
            got = records(prof.folded(event))
            self.assertRowsEqual(got, want, "folded " + event)
            total = json.loads(cli("report", "-i", self.rec, "--by-symbol", "--json"))["whole_program"][event]
            self.assertEqual(sum(r["value"] for r in got), total, "folded %s sums to the run's" % event)

    def test_read_profile_with_elf(self):
        prof = socmon.read_profile(self.rec, elf=PROGRAM)
        lines = json.loads(self.report("--by-line", "--json", "--elf", PROGRAM))["lines"]
        self.assertEqual([(r["function"], r["cycles"]) for r in records(prof.by_line)],
                         [(x["function"], x["cycles"]) for x in lines])

    def test_no_profile_and_bad_event(self):
        rec = os.path.join(self.tmp, "esp.rec")
        cli("record", "-q", "-o", rec, "-t", "esp", "-w", "idle")
        self.assertIsNone(socmon.read_recording(rec).profile)
        with self.assertRaises(socmon.SocmonError) as e:
            socmon.read_profile(rec)
        self.assertEqual(e.exception.status, "SOCMON_ENOENT")
        self.assertIn(rec, str(e.exception))
        with self.assertRaises(socmon.SocmonError) as e:
            socmon.read_profile(self.rec).folded("nosuch")
        self.assertIn("nosuch", str(e.exception))
        with self.assertRaises(socmon.SocmonError) as e:
            socmon.read_profile(os.path.join(self.tmp, "none.rec"))
        self.assertIn("none.rec", str(e.exception))


class Errors(Base):
    def test_missing_recording(self):
        with self.assertRaises(socmon.SocmonError) as e:
            socmon.read_recording(os.path.join(self.tmp, "none.rec"))
        self.assertIn("none.rec", str(e.exception))
        self.assertTrue(e.exception.status.startswith("SOCMON_E"), e.exception.status)

    def test_not_a_recording(self):
        p = os.path.join(self.tmp, "junk.rec")
        with open(p, "wb") as f:
            f.write(b"not a recording at all\n" * 10)
        with self.assertRaises(socmon.SocmonError):
            socmon.read_recording(p)
        with self.assertRaises(ValueError):
            socmon.read(p)

    def test_unknown_target_and_option(self):
        with self.assertRaises(socmon.SocmonError) as e:
            socmon.stat("nosuch")
        self.assertIn("unknown target 'nosuch'", str(e.exception))
        with self.assertRaises(socmon.SocmonError) as e:
            socmon.stat("esp", speed=3)
        self.assertIn("unknown option 'speed'", str(e.exception))

    def test_option_values_refused(self):
        # a spec has no quoting: a value with its separators would add options (issue 37: trace_bus= wrote a file)
        trace = os.path.join(self.tmp, "trace.log")
        for bad in ({"soc": "esp_2x3,trace_bus=" + trace}, {"soc": "esp_2x3;host"}, {"soc": "a\nb"},
                    {"soc": ""}, {"soc": None}, {"soc": ["esp_4x4"]}, {"soc": float("nan")}, {"so,c": "x"}):
            with self.assertRaises(socmon.SocmonError, msg=repr(bad)) as e:
                socmon.stat("esp", **bad)
            self.assertEqual(e.exception.status, "SOCMON_EINVAL")
            self.assertIn(repr(next(iter(bad.values()))) if "so,c" not in bad else "'so,c'", str(e.exception))
        self.assertFalse(os.path.exists(trace), "an option's value wrote a file")
        # a good one still runs, booleans as 1 and 0
        self.assertIn("tile0.l2_hits", socmon.stat("esp", soc="esp_2x3")["counters"])

    def test_duration_refused(self):
        for bad in (-1, -1e-9, float("inf"), float("nan"), 1e11, "1s", True):
            with self.assertRaises(socmon.SocmonError, msg=repr(bad)) as e:
                socmon.stat("esp", duration=bad)
            self.assertIn("duration=%r" % (bad,), str(e.exception))

    def test_malformed_files(self):
        # whatever is wrong in a file, a SocmonError that names it (never RecursionError,
        # AttributeError, UnicodeDecodeError ...); still a ValueError for callers that caught that
        cases = {
            "deep.json": b"[" * 100000 + b"]" * 100000,
            "deepobj.json": b'{"counters": ' + b"[" * 100000 + b"]" * 100000 + b"}",
            "list.json": b"[1, 2]",
            "strings.json": b'{"counters": ["a", "b"]}',
            "latin1.json": b'{"counters": [{"name": "caf\xe9", "value": 1}]}',
            "rows.json": b'{"rows": 3}',
            "sweep.json": b'{"sweep": {"id": "a"}, "points": [1]}',
            "sweep.csv": b"point,sweep,points,target\nx,a,1,esp\n",
            "sweep8.csv": b"point,sweep,points,target\n0,a,1,\xff\n",
        }
        readers = [socmon.read, socmon.read_stat, socmon.read_diff, socmon.read_sweep]
        for name, data in cases.items():
            p = os.path.join(self.tmp, name)
            with open(p, "wb") as f:
                f.write(data)
            for fn in readers:
                try:
                    fn(p)
                except socmon.SocmonError as e:
                    self.assertIn(p, str(e), "%s(%s)" % (fn.__name__, name))
                    self.assertIsInstance(e, ValueError)
                except Exception as e:   # noqa: BLE001 - the point of the test
                    self.fail("%s(%s) raised %s: %s" % (fn.__name__, name, type(e).__name__, e))
                else:
                    self.fail("%s(%s) read a malformed file" % (fn.__name__, name))

    def test_not_a_sweep(self):
        p = os.path.join(self.tmp, "t.csv")
        with open(p, "w") as f:
            f.write("a,b\n1,2\n")
        with self.assertRaises(ValueError):
            socmon.read_sweep(p)


if __name__ == "__main__":
    unittest.main()
