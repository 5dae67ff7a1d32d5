#!/bin/sh
# What `make test` runs, read from the Makefile without running it (make -n):
# the once-flaky sampler test repeated 50 times in a row (review finding 6).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

plan=$(make -n -C "$SOCMON_SRC" test-plain BUILD="$TMP/none" 2>&1)
printf '%s\n' "$plan" | grep -q "ctest .*-R '^test_sampler\$' --repeat until-fail:50" && ok ||
    bad "make test-plain does not repeat test_sampler 50 times: $plan"
# ThreadSanitizer runs the thread tests in `make test`, building only them (issue 37)
plan=$(make -n -C "$SOCMON_SRC" test 2>&1)
printf '%s\n' "$plan" | grep -q -- "-DSOCMON_SANITIZE=thread" && ok ||
    bad "make test configures no ThreadSanitizer build: $plan"
printf '%s\n' "$plan" | grep -q -- "--target thread_tests" && ok ||
    bad "make test's TSan build does not build only the thread tests"
printf '%s\n' "$plan" | grep -q "ctest .*-L thread" && ok ||
    bad "make test runs no thread tests under TSan"
finish make_targets
