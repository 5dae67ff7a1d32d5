"""Finding and calling socmon's C library (libsocmon.so) through ctypes.

The library is looked for, in order: in $SOCMON_LIBDIR; in the directory an install recorded
(_install.py, written by `cmake --install`); next to this package; in the lib/ directories of
this Python's prefix and of /usr/local; then on the system's library path (ldconfig).
"""

import ctypes
import ctypes.util
import os
import sys

__all__ = ["SocmonError", "lib", "library_path", "check", "take_text", "invalid"]


class SocmonError(Exception):
    """A socmon call failed; .status is the SOCMON_E* name, str() the library's message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class _InvalidError(SocmonError, ValueError):
    """Bad input caught in Python (a malformed file, a bad argument): a SocmonError with status
    SOCMON_EINVAL, and still the ValueError such input raised before."""


def invalid(message):
    """The error for bad input, its message naming the bad value (or the file)."""
    return _InvalidError("SOCMON_EINVAL", message)


def _candidates():
    dirs = []
    if os.environ.get("SOCMON_LIBDIR"):
        dirs.append(os.environ["SOCMON_LIBDIR"])
    try:
        from . import _install   # written by cmake --install: the prefix's library directory
        dirs.append(_install.LIBDIR)
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    dirs += [here, os.path.join(sys.prefix, "lib"), "/usr/local/lib", "/usr/local/lib64"]
    return [os.path.join(d, "libsocmon.so") for d in dirs]


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            return ctypes.CDLL(path), path
        tried.append(os.path.dirname(path))
    found = ctypes.util.find_library("socmon")
    if found:
        return ctypes.CDLL(found), found
    raise ImportError("socmon: libsocmon.so not found (looked in %s and the system's library path); set "
                      "SOCMON_LIBDIR to the directory holding it (an install's lib/, or the build "
                      "directory)" % ", ".join(tried))


lib, library_path = _load()

lib.socmon_errmsg.restype = ctypes.c_char_p
lib.socmon_errmsg.argtypes = []
lib.socmon_status_name.restype = ctypes.c_char_p
lib.socmon_status_name.argtypes = [ctypes.c_int]


def check(status, what=None):
    """Raises SocmonError for a failed status (nonzero), with the library's message."""
    if status != 0:
        msg = (lib.socmon_errmsg() or b"").decode("utf-8", "replace")
        name = (lib.socmon_status_name(status) or b"?").decode()
        raise SocmonError(name, msg or (what or "socmon call") + " failed: " + name)


def take_text(ptr, length):
    """The bytes of a document the library made, as str, and the document freed."""
    try:
        return ctypes.string_at(ptr, length).decode("utf-8", "replace")
    finally:
        lib.socmon_document_free(ptr)


lib.socmon_document_free.restype = None
lib.socmon_document_free.argtypes = [ctypes.c_void_p]
