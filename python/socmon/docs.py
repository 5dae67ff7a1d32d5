"""socmon's files and runs as Python values: recordings, stat and diff documents, sweep tables.

Every number comes from socmon itself: a recording is read by the C library into the document
`socmon report --json --deltas` writes, and a run is the document of `socmon stat --json`, made
by the library (socmon/document.h). Only the JSON and CSV that socmon wrote are parsed here.
"""

import csv
import ctypes
import functools
import io
import json
import math
import os
import re
from typing import Any, Dict, List, Optional, Union

from . import _lib
from ._tables import table

__all__ = ["Recording", "read", "read_diff", "read_recording", "read_stat", "read_sweep", "stat"]

_L = _lib.lib


class _DocOpts(ctypes.Structure):
    """socmon_document_opts (socmon/document.h)."""
    _fields_ = [("size", ctypes.c_size_t), ("format", ctypes.c_char_p), ("metric_file", ctypes.c_char_p),
                ("deltas", ctypes.c_int), ("duration_ns", ctypes.c_uint64)]


_OUT = [ctypes.POINTER(_DocOpts), ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t)]
_L.socmon_document_recording.argtypes = [ctypes.c_char_p] + _OUT
_L.socmon_document_functions.argtypes = [ctypes.c_char_p] + _OUT
_L.socmon_document_stat.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p] + _OUT
for _f in (_L.socmon_document_recording, _L.socmon_document_functions, _L.socmon_document_stat):
    _f.restype = ctypes.c_int


def _b(s: Optional[Union[str, os.PathLike]]) -> Optional[bytes]:
    return None if s is None else os.fsencode(s)


def _reader(fn):
    """A reader of a file socmon wrote: whatever a malformed file makes the parsing raise (JSON
    nested past Python's recursion limit, bytes that are not UTF-8, a list where an object
    belongs) becomes a SocmonError naming the file. A missing file stays the OSError it is."""
    @functools.wraps(fn)
    def read_file(path, *args, **kwargs):
        try:
            return fn(path, *args, **kwargs)
        except (_lib.SocmonError, OSError):
            raise
        except RecursionError:
            raise _lib.invalid("%s: nested too deeply: not a document socmon wrote" % os.fspath(path)) from None
        except UnicodeDecodeError as e:
            raise _lib.invalid("%s: byte %d is not UTF-8: not a document socmon wrote" % (os.fspath(path), e.start)) \
                from None
        except (ValueError, AttributeError, TypeError, KeyError, IndexError, csv.Error) as e:
            raise _lib.invalid("%s: not a document socmon wrote (%s: %s)" % (os.fspath(path), type(e).__name__, e)) \
                from None
    return read_file


_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _option(key: str, value: Any) -> str:
    """key=value of a target spec, or SocmonError: a spec has no quoting, so a value that holds
    its separators (',' between options, ';' between targets) would add options of its own."""
    if not _KEY.match(key):
        raise _lib.invalid("option name %r is not a name (letters, digits, '_')" % key)
    if isinstance(value, bool):
        text = "1" if value else "0"
    elif isinstance(value, (int, float, str)) and not (isinstance(value, float) and not math.isfinite(value)):
        text = str(value)
    else:
        raise _lib.invalid("option %s=%r: a value is a string or a finite number" % (key, value))
    bad = [c for c in text if c in ",;" or ord(c) < 0x20 or ord(c) == 0x7f]
    if bad or not text:
        raise _lib.invalid("option %s=%r: %s" % (key, value, "a value may not hold %r (a target spec's separators "
                           "and control characters)" % bad[0] if bad else "empty"))
    return "%s=%s" % (key, text)


def _duration_ns(duration: Optional[float]) -> int:
    if duration is None:
        return 0
    if isinstance(duration, bool) or not isinstance(duration, (int, float)):
        raise _lib.invalid("duration=%r: seconds, a number" % (duration,))
    ns = duration * 1e9
    if not math.isfinite(ns) or ns < 0 or ns >= 2.0 ** 64:
        raise _lib.invalid("duration=%r: out of range (0 .. %.0f seconds)" % (duration, 2.0 ** 64 / 1e9))
    return int(ns)


def _document(fn, *args, metric_file=None, deltas=False, duration_ns=0) -> Dict[str, Any]:
    opts = _DocOpts(ctypes.sizeof(_DocOpts), b"json", _b(metric_file), 1 if deltas else 0, int(duration_ns))
    out, n = ctypes.c_void_p(), ctypes.c_size_t()
    _lib.check(fn(*args, ctypes.byref(opts), ctypes.byref(out), ctypes.byref(n)))
    return json.loads(_lib.take_text(out, n.value))


class Recording:
    """A recording (socmon record), read through the library.

    deltas     one row per interval: t_ns, interval_ns, then every counter's delta, named as
               `socmon report --json --deltas` names them
    metrics    one row per interval: t_ns, interval_ns, then every metric result
               ("INSTANCE.METRIC", or "METRIC" device-wide); None where undefined
    functions  a program's recording (record -t ibex -- prog.elf): one row per function with
               its counters, as `report --by-symbol --json` (empty for other recordings)
    gaps       the intervals that lost samples or hold undefined values: t_ns, interval_ns,
               missed (samples lost before it), undef (a counter read as undefined)
    target, device, interval_ns: as the recording says.
    """

    def __init__(self, path: Union[str, os.PathLike], metric_file: Optional[str] = None):
        self.path = os.fspath(path)
        doc = _document(_L.socmon_document_recording, _b(path), metric_file=metric_file, deltas=True)
        self.target: Optional[str] = doc.get("target")
        self.device: Optional[str] = doc.get("device")
        self.interval_ns: int = doc.get("interval_ns", 0)
        rows = doc.get("intervals", [])
        counters = list(rows[0].get("deltas", {})) if rows else []
        metrics = list(rows[0].get("metrics", {})) if rows else []
        self.deltas = table([dict(t_ns=r["t_ns"], interval_ns=r["interval_ns"], **r.get("deltas", {})) for r in rows],
                            ["t_ns", "interval_ns"] + counters)
        self.metrics = table([dict(t_ns=r["t_ns"], interval_ns=r["interval_ns"], **r.get("metrics", {}))
                              for r in rows], ["t_ns", "interval_ns"] + metrics)
        gaps = (_gap(r) for r in rows)
        self.gaps = table([g for g in gaps if g["missed"] or g["undef"]], ["t_ns", "interval_ns", "missed", "undef"])
        try:
            fdoc = _document(_L.socmon_document_functions, _b(path), metric_file=metric_file)
            self.functions = table(fdoc.get("functions", []))
        except _lib.SocmonError:   # no per-function counters in this recording
            self.functions = table([], ["function"])

    def __repr__(self):
        n = len(self.deltas)
        return "<socmon.Recording %s: %s, %d intervals>" % (self.path, self.target, n)


def _gap(row: Dict[str, Any]) -> Dict[str, Any]:
    flags = (row.get("flags") or "").split()
    missed = 0
    for f in flags:
        if f.startswith("missed="):
            missed = int(f[7:])
    return {"t_ns": row["t_ns"], "interval_ns": row["interval_ns"], "missed": missed, "undef": "undef" in flags}


def read_recording(path: Union[str, os.PathLike], metric_file: Optional[str] = None) -> Recording:
    """A recording's intervals, metrics, functions and gaps (see Recording)."""
    return Recording(path, metric_file)


def _stat_result(doc: Dict[str, Any]) -> Dict[str, Any]:
    """stat's JSON with "counters" and "metrics" as name -> value maps ("INSTANCE.METRIC" or
    "METRIC" for metrics); the document as socmon wrote it stays under "document"."""
    res = {k: v for k, v in doc.items() if k not in ("counters", "metrics", "hotspots")}
    res["counters"] = {c["name"]: c.get("value") for c in doc.get("counters", [])}
    res["metrics"] = {("%s.%s" % (m["instance"], m["name"])) if m.get("instance") else m["name"]: m.get("value")
                      for m in doc.get("metrics", [])}
    res["units"] = {c["name"]: c.get("unit", "") for c in doc.get("counters", [])}
    res["document"] = doc
    return res


@_reader
def read_stat(path: Union[str, os.PathLike]) -> Dict[str, Any]:
    """The JSON of `socmon stat --json` (or report --summary --json): a dict whose "counters" and
    "metrics" map each name to its value."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not ("counters" in doc or "metrics" in doc):
        raise _lib.invalid("%s: not the JSON of socmon stat (no \"counters\" or \"metrics\")" % os.fspath(path))
    return _stat_result(doc)


@_reader
def read_diff(path: Union[str, os.PathLike]):
    """The JSON of `socmon diff --json`: one row per value (kind, name, instance, event, key,
    unit, baseline, new, delta, ratio, significant, p, new_instance, new_key: the new run's tile
    where two layouts paired tiles by kind, docs/compare.md)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise _lib.invalid("%s: not the JSON of socmon diff (no \"rows\")" % os.fspath(path))
    return table(doc["rows"])


_FIXED = ["point", "target", "workload", "program", "status", "error", "recording"]


def _sweep_rows_json(doc: Dict[str, Any], path) -> List[Dict[str, Any]]:
    if not isinstance(doc.get("sweep"), dict) or not isinstance(doc.get("points"), list):
        raise _lib.invalid("%s: not a table of socmon sweep" % os.fspath(path))
    rows = []
    for p in doc["points"]:
        r = {k: p.get(k) for k in _FIXED}
        r.update({"option:" + k: v for k, v in (p.get("options") or {}).items()})
        r.update({"counter:" + k: v for k, v in (p.get("counters") or {}).items()})
        r.update({"metric:" + k: v for k, v in (p.get("metrics") or {}).items()})
        rows.append(r)
    return rows


def _sweep_rows_csv(text: str, path) -> List[Dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or reader.fieldnames[:2] != ["point", "sweep"]:
        raise _lib.invalid("%s: not a table of socmon sweep (its header starts %r)" % (os.fspath(path), reader.fieldnames[:2]
                                                                                      if reader.fieldnames else None))
    rows = []
    for raw in reader:
        r: Dict[str, Any] = {}
        for k, v in raw.items():
            if k in ("sweep", "points"):
                continue
            if k == "point":
                r[k] = int(v)
            elif k.startswith("counter:"):
                r[k] = int(v) if v not in ("", "null") else None
            elif k.startswith("metric:"):
                r[k] = float(v) if v not in ("", "null") else None
            else:
                r[k] = v if v != "" else None
        rows.append(r)
    return rows


@_reader
def read_sweep(path: Union[str, os.PathLike]):
    """A sweep's table (socmon sweep, its CSV or its JSON): one row per point with point, target,
    workload, program, status, error, recording, then "option:KEY", "counter:NAME" and
    "metric:KEY" columns, the same for both formats."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rows = _sweep_rows_json(json.loads(text), path) if text.lstrip().startswith("{") else _sweep_rows_csv(text, path)
    cols: Dict[str, None] = {k: None for k in _FIXED}
    for prefix in ("option:", "counter:", "metric:"):
        for r in rows:
            for k in r:
                if k.startswith(prefix):
                    cols.setdefault(k, None)
    return table(rows, list(cols))


@_reader
def read(path: Union[str, os.PathLike]):
    """Any file socmon writes, told apart by content: a recording (a Recording), a sweep's table,
    diff's JSON (rows) or stat's JSON (a dict)."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if head.startswith(b"SOCMONRC"):
        return read_recording(path)
    text = head.lstrip()
    if text.startswith(b"point,sweep"):
        return read_sweep(path)
    if text.startswith(b"{"):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if isinstance(doc, dict) and "sweep" in doc:
            return read_sweep(path)
        if isinstance(doc, dict) and "rows" in doc:
            return read_diff(path)
        if isinstance(doc, dict) and ("counters" in doc or "metrics" in doc):
            return _stat_result(doc)
    raise _lib.invalid("%s: neither a recording nor a document of socmon stat, diff or sweep" % os.fspath(path))


def stat(target: str, workload: Optional[str] = None, program: Optional[Union[str, os.PathLike]] = None,
         metric_file: Optional[str] = None, duration: Optional[float] = None, **options: Any) -> Dict[str, Any]:
    """Runs a target once through the library, as `socmon stat --json` does, and returns its totals:
    a dict whose "counters" maps each counter's name to its value and "metrics" each metric
    result ("INSTANCE.METRIC" or "METRIC") to its value.

        socmon.stat("esp", workload="multifft", soc="esp_4x4")
        socmon.stat("ibex", program="fw.elf", config="maxperf")

    Keyword options become the target spec's options (target "ibex" with config="maxperf" is
    "ibex:config=maxperf"): a string or a finite number each, never one holding the spec's
    separators (',' or ';') or a control character; True and False are 1 and 0. duration
    (seconds, 0 .. 2^64 ns) is for hardware targets. A bad one is a SocmonError naming it."""
    spec = target
    if options:
        spec += ("," if ":" in target else ":") + ",".join(_option(k, v) for k, v in options.items())
    ns = _duration_ns(duration)
    doc = _document(_L.socmon_document_stat, spec.encode(), _b(workload), _b(program), metric_file=metric_file,
                    duration_ns=ns)
    return _stat_result(doc)
