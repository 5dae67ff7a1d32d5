"""Rows to tables: pandas DataFrames when pandas imports, lists of dicts otherwise."""

from typing import Any, Dict, List, Optional, Sequence

try:   # optional: DataFrames when present
    import pandas as _pd
except ImportError:
    _pd = None

HAVE_PANDAS = _pd is not None


def table(rows: List[Dict[str, Any]], columns: Optional[Sequence[str]] = None):
    """rows (dicts) as a DataFrame with these columns in this order (every key of the rows, in
    order of first appearance, when None), or the list itself without pandas."""
    if columns is None:
        seen: Dict[str, None] = {}
        for r in rows:
            for k in r:
                seen.setdefault(k, None)
        columns = list(seen)
    if _pd is None:
        return [{c: r.get(c) for c in columns} for r in rows]
    return _pd.DataFrame.from_records([[r.get(c) for c in columns] for r in rows], columns=list(columns))
