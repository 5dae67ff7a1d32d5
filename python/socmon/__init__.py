"""socmon from Python: recordings, stat documents, diffs and sweep tables as tables, and runs of
socmon's targets through its C library (libsocmon.so, through ctypes).

    import socmon
    rec = socmon.read_recording("run.rec")
    rec.deltas            # one row per interval, a column per counter (report --json --deltas)
    rec.metrics           # one row per interval, a column per metric result
    sweep = socmon.read_sweep("esp.csv")          # one row per point (socmon sweep)
    r = socmon.stat("esp", workload="multifft")   # the totals socmon stat --json gives
    r["counters"]["tile0.l2_hits"]
    fw = socmon.stat("ibex", program="fw.elf")    # fw.end, fw.exit_code, fw.output: how it ended, what it printed
    rec.profile.call_tree                         # a program's exact profile (record -t ibex -- fw.elf)

Tables are pandas DataFrames when pandas can be imported, and lists of dicts (one per row)
otherwise; HAVE_PANDAS says which. The Tensix counters module is socmon.tensix. docs/python.md.
"""

from ._lib import SocmonError, library_path
from ._tables import HAVE_PANDAS
from .docs import Profile, Recording, Stat, read, read_diff, read_profile, read_recording, read_stat, read_sweep, stat

__all__ = ["SocmonError", "HAVE_PANDAS", "Profile", "Recording", "Stat", "read", "read_diff", "read_profile",
           "read_recording", "read_stat", "read_sweep", "stat", "library_path", "__version__"]


def _version():
    """The library's version: written into the package by cmake --install and by the wheel's
    build; in the source tree, read from include/socmon/version.h, the one place it is written."""
    try:
        from ._version import VERSION
        return VERSION
    except ImportError:
        pass
    import os
    import re
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "socmon", "version.h")
    try:
        with open(header, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return "unknown"
    parts = [re.search(r"^#define SOCMON_VERSION_%s (\d+)$" % k, text, re.M) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(p.group(1) for p in parts) if all(parts) else "unknown"


__version__ = _version()
