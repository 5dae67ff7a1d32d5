# Shared by the shell tests (tests/**/*.test.sh): source it, then call
# `expect`, `ok` and `bad`, and end with `finish NAME`.
#   expect CODE PATTERN -- command...   the exit code, and PATTERN (grep) in stdout+stderr
set -u
BIN=${SOCMON_BIN:?SOCMON_BIN must point at the socmon binary}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

expect() {
    code=$1 pat=$2
    shift 3
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$code" ]; then
        bad "$* exited $rc, expected $code"; echo "$out" | head -40; return
    fi
    if ! printf '%s' "$out" | grep -q -- "$pat"; then
        bad "$*: output lacks '$pat'"; echo "$out" | head -40; return
    fi
    ok
}

# Prints the closing line ctest's log shows and exits non-zero on any failure.
finish() {
    echo "$1: $pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit $?
}
