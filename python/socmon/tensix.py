"""Tensix performance counters from Python, over socmon's C library.

The functions follow the Tensix Performance Counters Guide (tt-llk's
helpers/counters.py and helpers/metrics.py): configure_counters,
read_counters, print_counters, export_counters, compute_metrics,
print_metrics and export_metrics. Where tt-llk takes a core location "x,y",
these take a location object: a Simulator (a Tensix core model that runs a
matmul-like kernel), or anything with ``bus`` and ``l1_base`` attributes.

Only the standard library is used (ctypes). The shared library libsocmon.so
is found as the socmon package finds it (socmon/_lib.py: SOCMON_LIBDIR, the
install's lib/, the system library path). `import socmon_tensix` still works.

    from socmon.tensix import Simulator, configure_counters, read_counters, \\
        print_counters, compute_metrics
    sim = Simulator(bound="math", tiles=64)
    configure_counters(sim)
    sim.run()
    results = read_counters(sim)
    print_counters(results)
    print(compute_metrics(results)["dominant_bound_per_thread"])   # "math-bound"

As in tt-llk, read_counters returns a pandas DataFrame when pandas can be
imported (columns thread, bank, counter_name, counter_id, cycles, count,
l1_mux, then socmon's undefined), and a list of dicts otherwise; every
function taking results accepts either. compute_metrics returns a dict with
every metric key, None where undefined (tt-llk's metrics dicts do the same),
and {} for empty results. tt-llk's module-level names are here too:
COUNTER_SLOT_COUNT, COUNTER_DATA_WORD_COUNT, COUNTER_BANK_NAMES,
COUNTER_NAMES, ALL_COUNTERS, ALL_THREADS (counters.py at 9fa02aa).
"""

import ctypes
import math
import warnings

try:   # optional, as in tt-llk: DataFrames when present, lists of dicts otherwise
    import pandas as _pd
except ImportError:
    _pd = None

__all__ = [
    "BANKS", "THREADS", "SocmonError", "Simulator", "configure_counters", "configure_slots",
    "read_counters", "print_counters", "format_counters", "export_counters", "compute_metrics",
    "print_metrics", "format_metrics", "export_metrics", "slot_word", "counter_name",
    "COUNTER_SLOT_COUNT", "COUNTER_DATA_WORD_COUNT", "COUNTER_BANK_NAMES", "COUNTER_NAMES",
    "ALL_COUNTERS", "ALL_THREADS", "HAVE_PANDAS",
]

HAVE_PANDAS = _pd is not None

BANKS = ["INSTRN_THREAD", "FPU", "TDMA_UNPACK", "L1", "TDMA_PACK"]
THREADS = ["UNPACK", "MATH", "PACK"]


from socmon._lib import SocmonError, lib as _lib  # noqa: E402  (one loader for the package)
_vp = ctypes.c_void_p


class _Row(ctypes.Structure):
    _fields_ = [("thread", ctypes.c_uint), ("bank", ctypes.c_uint), ("counter_id", ctypes.c_uint),
                ("l1_mux", ctypes.c_int), ("cycles", ctypes.c_uint32), ("count", ctypes.c_uint32),
                ("undefined", ctypes.c_int), ("thread_name", ctypes.c_char_p),
                ("bank_name", ctypes.c_char_p), ("counter_name", ctypes.c_char_p)]


class _KV(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("value", ctypes.c_char_p)]


def _proto(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_int = ctypes.c_int
_errmsg = _proto("socmon_errmsg", ctypes.c_char_p)
_status_name = _proto("socmon_status_name", ctypes.c_char_p, _int)
_sim_new = _proto("llk_perf_sim_new", _int, ctypes.c_char_p, ctypes.POINTER(_vp))
_sim_free = _proto("llk_perf_sim_free", None, _vp)
_sim_bus = _proto("llk_perf_sim_bus", _vp, _vp)
_sim_l1 = _proto("llk_perf_sim_l1_base", ctypes.c_uint64, _vp)
_sim_regs = _proto("llk_perf_sim_regs_base", ctypes.c_uint64, _vp)
_sim_platform = _proto("llk_perf_sim_platform", ctypes.c_char_p, _vp)
_sim_run = _proto("llk_perf_sim_run", _int, _vp)
_bus_read = _proto("socmon_bus_read32", _int, _vp, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint32))
_bus_write = _proto("socmon_bus_write32", _int, _vp, ctypes.c_uint64, ctypes.c_uint32)
_configure = _proto("llk_perf_configure_counters", _int, _vp, ctypes.c_uint64)
_configure_slots = _proto("llk_perf_configure_slots", _int, _vp, ctypes.c_uint64, ctypes.c_uint,
                          ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t)
_read = _proto("llk_perf_read_counters", _int, _vp, ctypes.c_uint64, ctypes.POINTER(_vp))
_res_new = _proto("llk_perf_results_new", _int, ctypes.POINTER(_vp))
_res_add = _proto("llk_perf_results_add", _int, _vp, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                  ctypes.c_uint, ctypes.c_uint32, ctypes.c_uint32, _int)
_res_count = _proto("llk_perf_results_count", ctypes.c_size_t, _vp)
_res_row = _proto("llk_perf_results_row", ctypes.POINTER(_Row), _vp, ctypes.c_size_t)
_res_free = _proto("llk_perf_results_free", None, _vp)
_fmt_counters = _proto("llk_perf_format_counters", _int, _vp, ctypes.c_char_p, ctypes.c_size_t,
                       ctypes.POINTER(ctypes.c_size_t))
_export_counters = _proto("llk_perf_export_counters", _int, _vp, ctypes.c_char_p,
                          ctypes.POINTER(_KV), ctypes.c_size_t, ctypes.c_char_p)
_compute = _proto("llk_perf_compute_metrics", _int, _vp, ctypes.c_char_p, ctypes.POINTER(_vp))
_m_count = _proto("llk_perf_metrics_count", ctypes.c_size_t, _vp)
_m_at = _proto("llk_perf_metrics_at", _int, _vp, ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p),
               ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_char_p),
               ctypes.POINTER(ctypes.c_char_p))
_m_free = _proto("llk_perf_metrics_free", None, _vp)
_m_warning = _proto("llk_perf_metrics_warning", ctypes.c_char_p, _vp)
_fmt_metrics = _proto("llk_perf_format_metrics", _int, _vp, ctypes.c_char_p, ctypes.c_size_t,
                      ctypes.POINTER(ctypes.c_size_t))
_export_metrics = _proto("llk_perf_export_metrics", _int, _vp, ctypes.c_char_p, ctypes.POINTER(_KV),
                         ctypes.c_size_t, ctypes.c_char_p)


class _Event(ctypes.Structure):
    _fields_ = [("bank", ctypes.c_uint), ("counter_id", ctypes.c_uint), ("l1_mux", ctypes.c_uint),
                ("name", ctypes.c_char_p), ("desc", ctypes.c_char_p)]


_nevents = _proto("socmon_tensix_nevents", ctypes.c_size_t)
_event_at = _proto("socmon_tensix_event_at", ctypes.POINTER(_Event), ctypes.c_size_t)
_counter_name = _proto("socmon_tensix_counter_name", ctypes.c_size_t, ctypes.c_uint, ctypes.c_uint,
                       ctypes.c_uint, ctypes.c_char_p, ctypes.c_size_t)


def _check(st):
    if st != 0:
        raise SocmonError(_status_name(st).decode(), _errmsg().decode(errors="replace"))


def _b(s):
    return None if s is None else str(s).encode()


# ---- tt-llk's module-level names (helpers/counters.py at 9fa02aa, lines 12-13, 30-36,
# 41-155, 164-201), built from the library's one event table ----

COUNTER_SLOT_COUNT = 86
COUNTER_DATA_WORD_COUNT = COUNTER_SLOT_COUNT * 2
COUNTER_BANK_NAMES = dict(enumerate(BANKS))
ALL_THREADS = list(THREADS)


def _tables():
    names = {b: {} for b in ("INSTRN_THREAD", "FPU", "TDMA_UNPACK", "L1", "TDMA_PACK")}
    every = []
    for i in range(_nevents()):
        e = _event_at(i).contents
        bank = BANKS[e.bank]
        if bank == "L1":
            names[bank][(e.counter_id, e.l1_mux)] = e.name.decode()
            every.append({"bank": bank, "counter_id": e.counter_id, "l1_mux": e.l1_mux})
        else:
            names[bank][e.counter_id] = e.name.decode()
            every.append({"bank": bank, "counter_id": e.counter_id})
    return names, every


# COUNTER_NAMES: bank -> {id: name}; L1 -> {(id, mux): name}. ALL_COUNTERS: the 94, in
# the order configure_counters builds them (INSTRN, FPU, UNPACK, PACK, L1 mux 0, mux 1).
COUNTER_NAMES, ALL_COUNTERS = _tables()


def counter_name(bank, counter_id, l1_mux=0):
    """tt-llk's name for a counter: the guide's, or {BANK}_UNKNOWN_{id}
    (L1_UNKNOWN_{id}_{mux}; UNKNOWN_{bank}_UNKNOWN_{id} past bank 4)."""
    b = BANKS.index(bank) if isinstance(bank, str) else int(bank)
    buf = ctypes.create_string_buffer(64)
    _counter_name(b, int(counter_id), int(l1_mux) & 1, buf, 64)
    return buf.value.decode()


def slot_word(bank, counter_id, l1_mux=0):
    """The 32-bit config word of a counter slot: valid, mux, counter id, bank."""
    b = BANKS.index(bank) if isinstance(bank, str) else int(bank)
    return (1 << 31) | ((l1_mux & 1) << 17) | ((counter_id & 0x1FF) << 8) | (b & 0xFF)


class Simulator:
    """A simulated Tensix core. Options as the "tensix" target's: bound
    (natural, math, unpack, pack, balanced), tiles, format, fidelity, platform,
    and kernel (matmul, sfpu, reduce, topk, sync: the target's workloads)."""

    def __init__(self, **options):
        opts = ",".join("%s=%s" % (k, v) for k, v in options.items() if v is not None)
        h = _vp()
        _check(_sim_new(_b(opts), ctypes.byref(h)))
        self._h = h
        self.bus = _sim_bus(h)
        self.l1_base = _sim_l1(h)
        self.regs_base = _sim_regs(h)
        self.platform = _sim_platform(h).decode()

    def run(self):
        """One kernel run, every thread's counters started before it and stopped after."""
        _check(_sim_run(self._h))

    def read32(self, addr):
        v = ctypes.c_uint32()
        _check(_bus_read(self.bus, addr, ctypes.byref(v)))
        return v.value

    def write32(self, addr, value):
        _check(_bus_write(self.bus, addr, value))

    def close(self):
        if self._h:
            _sim_free(self._h)
            self._h = None
            self.bus = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Results(list):
    """Counter rows (dicts); .platform is the location's platform if known."""
    platform = None


COLUMNS = ["thread", "bank", "counter_name", "counter_id", "cycles", "count", "l1_mux", "undefined"]


def _to_frame(rows, platform):
    df = _pd.DataFrame(list(rows), columns=COLUMNS)
    df.attrs["platform"] = platform
    return df


def _is_frame(x):
    return _pd is not None and isinstance(x, _pd.DataFrame)


def _platform_of(results):
    if _is_frame(results):
        return results.attrs.get("platform")
    return getattr(results, "platform", None)


def _missing(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def _rows(results):
    """Rows as dicts from a DataFrame (tt-llk's or ours) or a list of dicts."""
    if _is_frame(results):
        return results.to_dict("records")
    return results


def _where(location):
    if not (hasattr(location, "bus") and hasattr(location, "l1_base")):
        raise SocmonError("SOCMON_ENOTSUP",
                          "location %r: socmon reaches a core through a Simulator or an object with "
                          "bus and l1_base attributes, not a core coordinate" % (location,))
    if not location.bus:
        raise SocmonError("SOCMON_ESTATE", "location %r is closed" % (location,))
    return location.bus, location.l1_base


def configure_counters(location):
    """Configure all counters (the guide's 86 slots) on all three threads."""
    _check(_configure(*_where(location)))


def configure_slots(location, thread, words):
    """Configure one thread's slots from config words (see slot_word)."""
    t = THREADS.index(thread) if isinstance(thread, str) else int(thread)
    arr = (ctypes.c_uint32 * max(1, len(words)))(*words)
    bus, l1 = _where(location)
    _check(_configure_slots(bus, l1, t, arr, len(words)))


def _row_dict(r):
    undefined = bool(r.undefined)
    return {
        "thread": r.thread_name.decode(),
        "bank": r.bank_name.decode(),
        "counter_name": r.counter_name.decode(),
        "counter_id": r.counter_id,
        "cycles": None if undefined else r.cycles,
        "count": None if undefined else r.count,
        "l1_mux": None if r.l1_mux < 0 else r.l1_mux,
        "undefined": undefined,
    }


def read_counters(location):
    """Counter results of every thread: rows with thread, bank, counter_name,
    counter_id, cycles, count, l1_mux (None off L1) and undefined (cycles and
    count are None when the L1 mux changed mid-run). A pandas DataFrame with
    those columns when pandas imports (as tt-llk's), else a list of dicts.
    Ids the guide does not list are named {BANK}_UNKNOWN_{id} as in tt-llk."""
    h = _vp()
    bus, l1 = _where(location)
    _check(_read(bus, l1, ctypes.byref(h)))
    try:
        out = Results(_row_dict(_res_row(h, i).contents) for i in range(_res_count(h)))
    finally:
        _res_free(h)
    out.platform = getattr(location, "platform", None)
    return _to_frame(out, out.platform) if _pd is not None else out


class _CResults:
    """Rows handed back to C for printing, export and metrics."""

    def __init__(self, rows):
        self.h = _vp()
        _check(_res_new(ctypes.byref(self.h)))
        try:
            for r in _rows(rows):
                if r.get("thread") not in THREADS or r.get("bank") not in BANKS:
                    raise SocmonError("SOCMON_EINVAL", "row %r: thread must be one of %s and bank one "
                                      "of %s" % (r, ", ".join(THREADS), ", ".join(BANKS)))
                mux = r.get("l1_mux")
                undef = bool(r.get("undefined")) or _missing(r.get("count")) or _missing(r.get("cycles"))
                _check(_res_add(self.h, THREADS.index(r["thread"]), BANKS.index(r["bank"]),
                                int(r["counter_id"]), 0 if _missing(mux) else int(mux),
                                0 if undef else int(r["cycles"]), 0 if undef else int(r["count"]),
                                1 if undef else 0))
        except Exception:
            _res_free(self.h)
            raise

    def __enter__(self):
        return self.h

    def __exit__(self, *exc):
        _res_free(self.h)


def _fmt(fn, h):
    n = ctypes.c_size_t()
    _check(fn(h, None, 0, ctypes.byref(n)))
    buf = ctypes.create_string_buffer(n.value + 1)
    _check(fn(h, buf, n.value + 1, ctypes.byref(n)))
    return buf.value.decode()


def format_counters(results):
    with _CResults(results) as h:
        return _fmt(_fmt_counters, h)


def print_counters(results):
    """Display results as counters.py does: per thread, per bank, count and rate."""
    print(format_counters(results), end="")


def _kv(test_params):
    items = list((test_params or {}).items())
    arr = (_KV * max(1, len(items)))()
    for i, (k, v) in enumerate(items):
        arr[i].key = _b(k)
        arr[i].value = _b(v)
    return arr, len(items)


def export_counters(results, filename, test_params=None, worker_id="gw0"):
    """Append results to FILENAME.WORKER_ID.csv, test parameters as extra columns."""
    arr, n = _kv(test_params)
    with _CResults(results) as h:
        _check(_export_counters(h, _b(filename), arr, n, _b(worker_id)))


class IdleThreadsWarning(UserWarning):
    """compute_metrics left threads out of the means: their banks counted 0 cycles (they never
    started the counters, as in a one-thread kernel). tt-llk averages them in (docs/tensix.md)."""


class _CMetrics:
    def __init__(self, results, platform):
        platform = platform or _platform_of(results)
        self.h = _vp()
        with _CResults(results) as r:
            _check(_compute(r, _b(platform), ctypes.byref(self.h)))

    def __enter__(self):
        return self.h

    def __exit__(self, *exc):
        _m_free(self.h)


def compute_metrics(results, platform=None):
    """The guide's metrics as a dict: utilisations, NoC and estimated
    bytes/cycle, stall and issue rates (tt-llk's sums over the threads, and
    *_per_thread means), the bound scores, and dominant_bound /
    dominant_bound_per_thread as labels ("math-bound", ...). results: a
    DataFrame or a list of dicts. Every key is there; undefined values (their
    counters were not read, or 0/0) are None. Empty results give {}.
    platform: wormhole_b0 / wormhole, blackhole, quasar, any case.
    Threads whose banks counted 0 cycles (a one-thread kernel) are left out of the
    means, with an IdleThreadsWarning that names them."""
    out = {}
    with _CMetrics(results, platform) as m:
        w = _m_warning(m)
        if w:
            warnings.warn(w.decode(), IdleThreadsWarning, stacklevel=2)
        for i in range(_m_count(m)):
            name, unit, label = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_char_p()
            v = ctypes.c_double()
            _check(_m_at(m, i, ctypes.byref(name), ctypes.byref(v), ctypes.byref(unit),
                         ctypes.byref(label)))
            if label.value is not None:
                out[name.value.decode()] = label.value.decode()
            else:
                out[name.value.decode()] = None if math.isnan(v.value) else v.value
    return out


def format_metrics(results, platform=None):
    with _CMetrics(results, platform) as m:
        return _fmt(_fmt_metrics, m)


def print_metrics(results, platform=None):
    """Print the kernel metrics, with the guide's util -> est B/cyc lines."""
    print(format_metrics(results, platform), end="")


def export_metrics(results, filename, test_params=None, worker_id="gw0", platform=None):
    """Append one row of metrics to FILENAME.WORKER_ID.csv, then test parameters."""
    arr, n = _kv(test_params)
    with _CMetrics(results, platform) as m:
        _check(_export_metrics(m, _b(filename), arr, n, _b(worker_id)))
