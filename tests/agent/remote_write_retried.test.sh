#!/bin/sh
# Prometheus Remote-Write (issue 41), scenario 'retried' of tests/agent/remote_write.py (its docstring
# says what it shows). Every process it starts is stopped on exit.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
if python3 "$SOCMON_SRC/tests/agent/remote_write.py" retried "$TMP"; then ok; else bad "remote_write.py retried"; fi
finish remote_write_retried
