/* Keeps the test-support library non-empty before any helper exists. */
typedef int socmon_testsupport_empty;
