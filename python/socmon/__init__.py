"""socmon from Python: recordings, stat documents, diffs and sweep tables as tables, and runs of
socmon's targets through its C library (libsocmon.so, through ctypes).

    import socmon
    rec = socmon.read_recording("run.rec")
    rec.deltas            # one row per interval, a column per counter (report --json --deltas)
    rec.metrics           # one row per interval, a column per metric result
    sweep = socmon.read_sweep("esp.csv")          # one row per point (socmon sweep)
    r = socmon.stat("esp", workload="multifft")   # the totals socmon stat --json gives
    r["counters"]["tile0.l2_hits"]

Tables are pandas DataFrames when pandas can be imported, and lists of dicts (one per row)
otherwise; HAVE_PANDAS says which. The Tensix counters module is socmon.tensix. docs/python.md.
"""

from ._lib import SocmonError, library_path
from ._tables import HAVE_PANDAS
from .docs import Recording, read, read_diff, read_recording, read_stat, read_sweep, stat

__all__ = ["SocmonError", "HAVE_PANDAS", "Recording", "read", "read_diff", "read_recording", "read_stat",
           "read_sweep", "stat", "library_path", "__version__"]

__version__ = "0.26.0"
