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

__all__ = ["Profile", "Recording", "Stat", "read", "read_diff", "read_profile", "read_recording", "read_stat",
           "read_sweep", "stat"]

_L = _lib.lib


class _DocOpts(ctypes.Structure):
    """socmon_document_opts (socmon/document.h)."""
    _fields_ = [("size", ctypes.c_size_t), ("format", ctypes.c_char_p), ("metric_file", ctypes.c_char_p),
                ("deltas", ctypes.c_int), ("duration_ns", ctypes.c_uint64)]


_OUT = [ctypes.POINTER(_DocOpts), ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t)]
_L.socmon_document_recording.argtypes = [ctypes.c_char_p] + _OUT
_L.socmon_document_functions.argtypes = [ctypes.c_char_p] + _OUT
_L.socmon_document_stat.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p] + _OUT
_L.socmon_document_profile.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p] + _OUT
for _f in (_L.socmon_document_recording, _L.socmon_document_functions, _L.socmon_document_stat,
           _L.socmon_document_profile):
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


def _text(fn, *args, metric_file=None, deltas=False, duration_ns=0) -> str:
    opts = _DocOpts(ctypes.sizeof(_DocOpts), b"json", _b(metric_file), 1 if deltas else 0, int(duration_ns))
    out, n = ctypes.c_void_p(), ctypes.c_size_t()
    _lib.check(fn(*args, ctypes.byref(opts), ctypes.byref(out), ctypes.byref(n)))
    return _lib.take_text(out, n.value)


def _document(fn, *args, **kwargs) -> Dict[str, Any]:
    return json.loads(_text(fn, *args, **kwargs))


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
    profile    a program's exact profile (record -t ibex -- prog.elf): a Profile, read when first
               asked for; None for a recording without one
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

    @property
    def profile(self) -> Optional["Profile"]:
        if not hasattr(self, "_profile"):
            try:
                self._profile: Optional[Profile] = Profile(self.path)
            except _lib.SocmonError as e:
                if e.status != "SOCMON_ENOENT":
                    raise
                self._profile = None
        return self._profile

    def __repr__(self):
        n = len(self.deltas)
        return "<socmon.Recording %s: %s, %d intervals>" % (self.path, self.target, n)


class Profile:
    """A program's exact profile (docs/profile.md), from its recording's attachment "profile",
    through the library's views (report --children, --call-tree, --by-line, --folded). Every event
    is a column named as --by-symbol names it (cycles, instret, lsu_wait, ...); values are signed.

    events     the profile's events, in order
    children   one row per function that ran: function, calls, then every event's self count,
               then every event's inclusive count as EVENT_children (report --children --json)
    call_tree  one row per caller -> callee edge: caller, callee, trap (1: the callee was entered
               by a trap, shown as "[trap] callee"), calls, then every event's inclusive count of the
               callee under that caller (report --call-tree --json)
    by_line    one row per (file, line, function): file, line, function, pc (the instruction's
               address when the ELF has no line for it, else None), then every event
               (report --by-line --json); by_line_note says why lines are missing, or is None
    folded(event="cycles")  one row per call path whose own frame counted the event: stack
               ("outer;...;inner", as report --folded writes it), function (the innermost
               frame), depth (frames), value

    elf: the program the lines are read from (None: the one the recording names, from the current
    directory, then beside the recording). The views are read when first asked for.
    """

    def __init__(self, path: Union[str, os.PathLike], elf: Optional[Union[str, os.PathLike]] = None):
        self.path = os.fspath(path)
        self.elf = None if elf is None else os.fspath(elf)
        self._views: Dict[str, Any] = {}
        doc = self._view("children")   # the profile must be there: SOCMON_ENOENT naming the file if not
        rows = doc.get("functions", [])
        self.events: List[str] = [k for k in (rows[0] if rows else {}) if k not in ("function", "calls")
                                  and not k.endswith("_children")]

    def _view(self, view: str, event: Optional[str] = None):
        key = view + ":" + (event or "")
        if key not in self._views:
            text = _text(_L.socmon_document_profile, _b(self.path), view.encode(), _b(event), _b(self.elf))
            self._views[key] = text if view == "folded" else json.loads(text)
        return self._views[key]

    @property
    def children(self):
        return table(self._view("children").get("functions", []),
                     ["function", "calls"] + self.events + [e + "_children" for e in self.events])

    @property
    def call_tree(self):
        return table(self._view("call-tree").get("edges", []), ["caller", "callee", "trap", "calls"] + self.events)

    @property
    def by_line(self):
        return table(self._view("by-line").get("lines", []), ["file", "line", "function", "pc"] + self.events)

    @property
    def by_line_note(self) -> Optional[str]:
        return self._view("by-line").get("note")

    def folded(self, event: str = "cycles"):
        rows = []
        for line in self._view("folded", event).splitlines():
            stack, _, value = line.rpartition(" ")
            if not stack:
                raise _lib.invalid("%s: folded stacks: line %r is not 'STACK VALUE'" % (self.path, line))
            frames = stack.split(";")
            rows.append({"stack": stack, "function": frames[-1], "depth": len(frames), "value": int(value)})
        return table(rows, ["stack", "function", "depth", "value"])

    def __repr__(self):
        return "<socmon.Profile %s: %d events>" % (self.path, len(self.events))


def read_profile(path: Union[str, os.PathLike], elf: Optional[Union[str, os.PathLike]] = None) -> Profile:
    """A program recording's exact profile (see Profile); SocmonError (SOCMON_ENOENT) naming the
    file for a recording without one."""
    return Profile(path, elf)


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


class Stat(dict):
    """A run's totals (socmon.stat, read_stat): a dict ("counters", "metrics", "units",
    "document", ...) with how its program ended as attributes, None for a run without a program:

    end          "halt", "trap" (an exception whose handler never returns), "cycle_limit"
                 (max_cycles ran out), "hang" (asleep or spinning forever) or "timeout" (still
                 running when duration ended)
    exit_code    what `socmon stat` exits with for it: 0 halt, 3 trap, 4 cycle_limit, 5 hang, 0 timeout
    end_message  the line socmon says it with ("program trapped out: exception mcause 2 ...")
    output       what the firmware printed (SimCtrl), as text (UTF-8, bad bytes replaced)
    output_bytes the same, the exact bytes
    """

    end: Optional[str] = None
    exit_code: Optional[int] = None
    end_message: Optional[str] = None
    output: Optional[str] = None
    output_bytes: Optional[bytes] = None


_ENDS = {"halt": 0, "trap": 3, "cycle_limit": 4, "hang": 5, "timeout": 0}


def _program(res: Stat, prog: Any, where: str) -> None:
    """The document's "program" (how its program ended) as res's attributes, or SocmonError
    naming where the document came from and the field."""
    if not isinstance(prog, dict):
        raise _lib.invalid("%s: \"program\" is %s, not an object" % (where, type(prog).__name__))
    for field, kind in (("end", str), ("exit_code", int), ("message", str), ("output", str)):
        if field not in prog:
            raise _lib.invalid("%s: \"program\" has no \"%s\"" % (where, field))
        v = prog[field]
        if not isinstance(v, kind) or isinstance(v, bool):
            raise _lib.invalid("%s: \"program\".\"%s\" is %r, not %s" % (where, field, v, kind.__name__))
    if prog["end"] not in _ENDS:
        raise _lib.invalid("%s: \"program\".\"end\" is %r: an end unknown (valid: %s)"
                           % (where, prog["end"], ", ".join(_ENDS)))
    try:
        raw = prog["output"].encode("latin-1")   # one character per byte (socmon/document.h)
    except UnicodeEncodeError as e:
        raise _lib.invalid("%s: \"program\".\"output\": character %d is not a byte (U+%04X)"
                           % (where, e.start, ord(prog["output"][e.start]))) from None
    res.end, res.exit_code, res.end_message = prog["end"], prog["exit_code"], prog["message"]
    res.output_bytes, res.output = raw, raw.decode("utf-8", "replace")


def _stat_result(doc: Dict[str, Any], where: str) -> Stat:
    """stat's JSON with "counters" and "metrics" as name -> value maps ("INSTANCE.METRIC" or
    "METRIC" for metrics); the document as socmon wrote it stays under "document"; its "program"
    (how the program ended) also as attributes. where names the document in errors."""
    res = Stat({k: v for k, v in doc.items() if k not in ("counters", "metrics", "hotspots")})
    if "program" in doc:
        _program(res, doc["program"], where)
    res["counters"] = {c["name"]: c.get("value") for c in doc.get("counters", [])}
    res["metrics"] = {("%s.%s" % (m["instance"], m["name"])) if m.get("instance") else m["name"]: m.get("value")
                      for m in doc.get("metrics", [])}
    res["units"] = {c["name"]: c.get("unit", "") for c in doc.get("counters", [])}
    res["document"] = doc
    return res


@_reader
def read_stat(path: Union[str, os.PathLike]) -> Stat:
    """The JSON of `socmon stat --json` (or report --summary --json, or a Stat's "document"
    saved): a dict whose "counters" and "metrics" map each name to its value (see Stat)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not ("counters" in doc or "metrics" in doc):
        raise _lib.invalid("%s: not the JSON of socmon stat (no \"counters\" or \"metrics\")" % os.fspath(path))
    return _stat_result(doc, os.fspath(path))


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
            return _stat_result(doc, os.fspath(path))
    raise _lib.invalid("%s: neither a recording nor a document of socmon stat, diff or sweep" % os.fspath(path))


def stat(target: str, workload: Optional[str] = None, program: Optional[Union[str, os.PathLike]] = None,
         metric_file: Optional[str] = None, duration: Optional[float] = None, **options: Any) -> Stat:
    """Runs a target once through the library, as `socmon stat --json` does, and returns its totals:
    a dict (a Stat) whose "counters" maps each counter's name to its value and "metrics" each
    metric result ("INSTANCE.METRIC" or "METRIC") to its value. A program's run also says how it
    ended and what it printed (Stat's end, exit_code, end_message, output): one that traps, hangs
    or runs out of max_cycles is no error.

        socmon.stat("esp", workload="multifft", soc="esp_4x4")
        r = socmon.stat("ibex", program="fw.elf", config="maxperf")
        r.end, r.exit_code, r.output      # "halt", 0, what the firmware printed

    Keyword options become the target spec's options (target "ibex" with config="maxperf" is
    "ibex:config=maxperf"): a string or a finite number each, never one holding the spec's
    separators (',' or ';') or a control character; True and False are 1 and 0. duration
    (seconds, 0 .. 2^64 ns) is for hardware targets, and stops a model's program there (end
    "timeout" if it was still running). A bad one is a SocmonError naming it."""
    spec = target
    if options:
        spec += ("," if ":" in target else ":") + ",".join(_option(k, v) for k, v in options.items())
    ns = _duration_ns(duration)
    doc = _document(_L.socmon_document_stat, spec.encode(), _b(workload), _b(program), metric_file=metric_file,
                    duration_ns=ns)
    return _stat_result(doc, "socmon.stat(%r)" % spec)
