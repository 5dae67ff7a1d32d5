"""Tests of the socmon_tensix Python module (run by tests/tensix/tensix_python.test.sh)."""
import contextlib
import csv
import io
import os
import shutil
import tempfile
import unittest

import socmon_tensix as st

COUNTER_COLUMNS = ["thread", "bank", "counter_name", "counter_id", "cycles", "count", "l1_mux"]


def run(**opts):
    sim = st.Simulator(**opts)
    st.configure_counters(sim)
    sim.run()
    return sim, st.read_counters(sim)


class CountersTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="socmon-tensix-py-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_configure_run_read(self):
        sim, rows = run(tiles=32)
        self.assertEqual(len(rows), 3 * 86)
        self.assertEqual([r["thread"] for r in rows[::86]], ["UNPACK", "MATH", "PACK"])
        for i, r in enumerate(rows):
            self.assertLessEqual(r["count"], r["cycles"])
            self.assertEqual(r["count"], rows[i % 86]["count"])   # one set of banks
            self.assertEqual(r["l1_mux"] is None, r["bank"] != "L1")
            self.assertFalse(r["undefined"])
        fpu = {r["counter_name"]: r["count"] for r in rows[:86] if r["bank"] == "FPU"}
        self.assertGreaterEqual(fpu["FPU_OR_SFPU_INSTRN"], max(fpu["FPU_INSTRUCTION"], fpu["SFPU_INSTRUCTION"]))
        self.assertEqual(rows.platform, "wormhole_b0")
        sim.close()

    def test_slot_word_and_custom_slots(self):
        self.assertEqual(st.slot_word("FPU", 257), 0x80010101)
        self.assertEqual(st.slot_word("L1", 7, 1), 0x80020703)
        self.assertEqual(st.slot_word(4, 272), 0x80011004)
        with st.Simulator(bound="pack", tiles=20) as sim:
            st.configure_slots(sim, "MATH", [0, st.slot_word("TDMA_PACK", 18), 0, st.slot_word("FPU", 0)])
            sim.run()
            rows = st.read_counters(sim)
            self.assertEqual([(r["thread"], r["counter_name"]) for r in rows],
                             [("MATH", "PACKER_BUSY"), ("MATH", "FPU_INSTRUCTION")])
            with self.assertRaises(st.SocmonError) as cm:
                st.configure_slots(sim, "PACK", [st.slot_word("FPU", 2)])
            self.assertEqual(cm.exception.status, "SOCMON_ENOENT")
            self.assertIn("slot 0", str(cm.exception))
            self.assertIn("counter id 2", str(cm.exception))

    def test_print(self):
        _, rows = run(tiles=16)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            st.print_counters(rows)
        text = out.getvalue()
        self.assertIn("PERFORMANCE COUNTER RESULTS", text)
        self.assertIn("THREAD: MATH", text)
        self.assertIn("FPU_OR_SFPU_INSTRN", text)
        self.assertIn("(mux0)", text)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            st.print_counters([])
        self.assertEqual(out.getvalue(), "No counter results to display.\n")

    def test_export_counters(self):
        _, rows = run(tiles=16)
        base = os.path.join(self.dir, "test_matmul_counters")
        params = {"math_fidelity": "LoFi", "kt_dim": 2}
        st.export_counters(rows, base, params, "master")
        st.export_counters(rows, base, params, "master")
        with open(base + ".master.csv", newline="") as f:
            table = list(csv.reader(f))
        self.assertEqual(table[0], COUNTER_COLUMNS + ["math_fidelity", "kt_dim"])
        self.assertEqual(len(table), 1 + 2 * 258)
        self.assertEqual(table[1][:4], ["UNPACK", "INSTRN_THREAD", "CFG_INSTRN_AVAILABLE_0", "0"])
        self.assertEqual(table[1][-2:], ["LoFi", "2"])
        st.export_counters(rows, base)
        self.assertTrue(os.path.exists(base + ".gw0.csv"))

    def test_undefined_rows(self):
        sim, _ = run(tiles=16)
        data = 0x16A560   # MATH data area
        for k in range(78, 86):
            sim.write32(data + 8 * k, 0xFFFFFFFF)
            sim.write32(data + 8 * k + 4, 0xFFFFFFFF)
        rows = st.read_counters(sim)
        bad = [r for r in rows if r["undefined"]]
        self.assertEqual(len(bad), 8)
        self.assertTrue(all(r["thread"] == "MATH" and r["bank"] == "L1" and r["count"] is None
                            and r["cycles"] is None for r in bad))
        base = os.path.join(self.dir, "undef")
        st.export_counters(rows, base, worker_id="w")
        with open(base + ".w.csv", newline="") as f:
            table = list(csv.reader(f))
        self.assertEqual(table[1 + 86 + 78], ["MATH", "L1", "NOC_RING0_INCOMING_1", "0", "", "", "0"])
        m = st.compute_metrics(rows)
        self.assertGreater(m["noc_txn_per_cycle"], 0)   # from the other threads
        sim.close()


class MetricsTest(unittest.TestCase):
    def test_bound_classification(self):
        for bound in ("math", "unpack", "pack"):
            for platform in ("wormhole_b0", "blackhole", "quasar"):
                _, rows = run(bound=bound, tiles=40, platform=platform)
                m = st.compute_metrics(rows)
                self.assertEqual(m["dominant_bound"], bound + "-bound", (bound, platform, m))
                self.assertEqual(m["dominant_bound_score"], m[bound + "_bound_score"])

    def test_kernels(self):
        # kernel= picks the simulated kernel: an SFPU op leaves the FPU idle and
        # unpacks no srcB (unpacker 1 is 0/0, None); top-k issues XSEARCH.
        _, rows = run(kernel="sfpu", tiles=32)
        m = st.compute_metrics(rows)
        self.assertEqual(m["dominant_bound"], "math-bound", m)
        self.assertEqual(m["fpu_util"], 0)
        self.assertGreater(m["sfpu_util"], 0.8)
        self.assertIsNone(m["unpack1_util"])
        _, rows = run(kernel="topk", tiles=32)
        xs = [r["count"] for r in rows[:86] if r["counter_name"].startswith("XSEARCH_INSTRN_AVAILABLE_")]
        self.assertEqual(len(xs), 3)
        self.assertTrue(all(x > 0 for x in xs), xs)
        with self.assertRaises(st.SocmonError) as cm:
            st.Simulator(kernel="conv")
        self.assertIn("kernel 'conv' unknown", str(cm.exception))

    def test_platform_table(self):
        _, rows = run(platform="blackhole")
        m = st.compute_metrics(rows)   # the platform comes with the results
        self.assertAlmostEqual(m["noc_bytes_per_cycle"], 256 * m["noc_txn_per_cycle"])
        self.assertAlmostEqual(m["unpack_est_bpc"], 120 * m["unpack_util"])
        m = st.compute_metrics(rows, platform="wormhole_b0")
        self.assertAlmostEqual(m["noc_bytes_per_cycle"], 32 * m["noc_txn_per_cycle"])
        with self.assertRaises(st.SocmonError) as cm:
            st.compute_metrics(rows, platform="grayskull")
        self.assertIn("grayskull", str(cm.exception))

    def test_hand_made_rows(self):
        rows = [
            {"thread": "UNPACK", "bank": "FPU", "counter_name": "FPU_OR_SFPU_INSTRN", "counter_id": 257,
             "cycles": 1000, "count": 300, "l1_mux": None},
            {"thread": "MATH", "bank": "FPU", "counter_name": "FPU_OR_SFPU_INSTRN", "counter_id": 257,
             "cycles": 800, "count": 500, "l1_mux": None},
            {"thread": "MATH", "bank": "TDMA_PACK", "counter_name": "PACKER_BUSY", "counter_id": 18,
             "cycles": 400, "count": 100, "l1_mux": None},
        ]
        m = st.compute_metrics(rows)
        self.assertAlmostEqual(m["math_util"], 400 / 1000)   # mean count / max cycles
        self.assertAlmostEqual(m["pack_util"], 0.25)
        self.assertNotIn("unpack_util", m)   # its counters were not read
        self.assertNotIn("dominant_bound", m)   # needs all four scores' counters

    def test_print_and_export_metrics(self):
        _, rows = run(bound="unpack", tiles=24)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            st.print_metrics(rows)
        self.assertIn("Bound     unpack-bound", out.getvalue())
        self.assertIn("est ~", out.getvalue())
        d = tempfile.mkdtemp(prefix="socmon-tensix-py-")
        try:
            base = os.path.join(d, "m")
            st.export_metrics(rows, base, {"tiles": 24}, "gw3")
            with open(base + ".gw3.csv", newline="") as f:
                table = list(csv.reader(f))
            m = st.compute_metrics(rows)
            self.assertEqual(table[0], list(m.keys()) + ["tiles"])
            row = dict(zip(table[0], table[1]))
            self.assertEqual(row["dominant_bound"], "unpack-bound")
            self.assertAlmostEqual(float(row["math_util"]), m["math_util"])
            self.assertEqual(row["tiles"], "24")
        finally:
            shutil.rmtree(d)

    def test_bad_location(self):
        with self.assertRaises(st.SocmonError) as cm:
            st.configure_counters("0,0")
        self.assertEqual(cm.exception.status, "SOCMON_ENOTSUP")
        self.assertIn("'0,0'", str(cm.exception))
        sim = st.Simulator()
        sim.close()
        with self.assertRaises(st.SocmonError) as cm:
            st.read_counters(sim)
        self.assertEqual(cm.exception.status, "SOCMON_ESTATE")

    def test_bad_options(self):
        with self.assertRaises(st.SocmonError) as cm:
            st.Simulator(bound="sideways")
        self.assertEqual(cm.exception.status, "SOCMON_EINVAL")
        self.assertIn("sideways", str(cm.exception))
        with self.assertRaises(st.SocmonError):
            st.Simulator(tiles=0)


if __name__ == "__main__":
    unittest.main()
