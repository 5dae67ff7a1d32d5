#!/bin/sh
# The socmon_tensix Python module's tests (python3 -m unittest) against the
# build's libsocmon.so. A sanitizer build's library needs the sanitizer
# runtimes preloaded into python3; leak checking is off because the
# interpreter itself keeps memory until exit.
set -e
: "${SOCMON_SRC:?SOCMON_SRC must name the source tree}"
: "${SOCMON_LIBDIR:?SOCMON_LIBDIR must name the directory of libsocmon.so}"
lib="$SOCMON_LIBDIR/libsocmon.so"
if [ ! -f "$lib" ]; then
    echo "tensix_python.test.sh: $lib not built (target socmon_shared)" >&2
    exit 1
fi
pre=$(ldd "$lib" 2>/dev/null | awk '/lib(asan|ubsan)\.so/ {print $3}' | tr '\n' ' ')
if [ -n "$pre" ]; then
    LD_PRELOAD="$pre"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"   # last setting wins
    export LD_PRELOAD ASAN_OPTIONS
fi
cd "$SOCMON_SRC/tests/tensix/py"
PYTHONPATH="$SOCMON_SRC/python${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m unittest -v
