#!/bin/sh
# Prometheus Remote-Write (issue 41), scenario 'prometheus' of tests/agent/remote_write.py (its docstring
# says what it shows). Every process it starts is stopped on exit.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
command -v prometheus >/dev/null || { echo "FAIL: prometheus missing (sh scripts/install-deps.sh installs it)"; exit 1; }
if python3 "$SOCMON_SRC/tests/agent/remote_write.py" prometheus "$TMP"; then ok; else bad "remote_write.py prometheus"; fi
finish remote_write_prometheus
