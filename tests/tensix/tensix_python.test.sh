#!/bin/sh
# The socmon_tensix Python module's tests (python3 -m unittest) against the
# build's libsocmon.so, in both of the module's modes: with pandas (Debian's
# python3-pandas, for /usr/bin/python3: read_counters returns DataFrames as
# tt-llk's does) and with pandas made unimportable (lists of dicts).
# SOCMON_TEST_PANDAS tells each run which mode it must see. A sanitizer build's
# library needs the sanitizer runtimes preloaded into python3; leak checking
# is off because the interpreter itself keeps memory until exit.
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
pp="$SOCMON_SRC/python${PYTHONPATH:+:$PYTHONPATH}"

# 1. pandas unimportable: a package named pandas that refuses to import comes first.
block=$(mktemp -d)
trap 'rm -rf "$block"' EXIT
mkdir "$block/pandas"
echo 'raise ImportError("pandas blocked by tensix_python.test.sh")' >"$block/pandas/__init__.py"
echo "== without pandas (python3: $(command -v python3))"
SOCMON_TEST_PANDAS=0 PYTHONPATH="$block:$pp" python3 -m unittest -v

# 2. with pandas, through the interpreter Debian's python3-pandas installs for.
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c 'import pandas' 2>/dev/null; then
    echo "== with pandas ($py, pandas $("$py" -c 'import pandas; print(pandas.__version__)'))"
    SOCMON_TEST_PANDAS=1 PYTHONPATH="$pp" "$py" -m unittest -v
else
    echo "tensix_python.test.sh: SKIPPED the pandas run: $py cannot import pandas" \
         "(scripts/install-deps.sh installs python3-pandas)" >&2
fi
