#!/bin/sh
# Parquet output (issue 41 item 2): every table socmon writes as CSV has a Parquet form, and DuckDB
# and hyparquet (two readers that share no code with socmon's writer, web/node_modules) read each
# file equal to the CSV of the same table, value for value: stat's totals (labels, repeated runs'
# spread), report's intervals with every delta and its --summary, diff (significance from
# repeated host runs), sweep (-o FILE.parquet, --parquet, -o DIR/ per shard, merge into
# Parquet). A Parquet path that cannot be written is an error naming it; Parquet with another
# format, --append, or a table Parquet has no form for is refused. Skips (77) only where node or
# the readers are missing.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
MODULES=${SOCMON_WEB_MODULES:-$SOCMON_SRC/web/node_modules}
export SOCMON_WEB_MODULES=$MODULES
skip() { echo "parquet_tables: SKIPPED: $1"; exit 77; }
command -v node >/dev/null 2>&1 || skip "node is not installed (sh scripts/install-deps.sh)"
for m in @duckdb/node-api hyparquet hyparquet-compressors; do
    [ -d "$MODULES/$m" ] || skip "$MODULES/$m is missing (sh scripts/install-deps.sh runs npm ci in web/)"
done
CHECK="node $SOCMON_SRC/tests/export/parquet_check.mjs"
# same TABLE.parquet TABLE.csv MODE WHAT: both readers equal the CSV
same() {
    if out=$($CHECK compare "$1" "$2" "$3" 2>&1); then ok; else bad "$4: $out"; fi
}

# ---- stat: totals, counts exact, metrics rounded in the CSV, labels ----
stat_case() {
    n=$1
    shift
    "$BIN" stat "$@" -o "$TMP/stat_$n.parquet" && ok || bad "stat $* -o .parquet"
    "$BIN" stat "$@" -x, -o "$TMP/stat_$n.csv" && ok || bad "stat $* -x,"
    same "$TMP/stat_$n.parquet" "$TMP/stat_$n.csv" rounded "stat $*"
}
stat_case esp -t esp -w multifft
stat_case tensix -t tensix
stat_case zynq -t zynq:duration_ms=20
# --parquet FILE is the same file as -o FILE.parquet
"$BIN" stat -t tensix --parquet "$TMP/stat_tensix2.parquet" && ok || bad "stat --parquet"
cmp -s "$TMP/stat_tensix2.parquet" "$TMP/stat_tensix.parquet" && ok || bad "--parquet and -o .parquet differ"
# the labelled metrics (esp's hottest plane, tensix's bound) are in the label column, numbers are DOUBLE
node - "$MODULES" "$TMP/stat_esp.parquet" <<'JS' && ok || bad "stat's typed columns"
const { DuckDBInstance } = require(process.argv[2] + '/@duckdb/node-api');
(async () => {
  const c = await (await DuckDBInstance.create()).connect();
  const f = `'${process.argv[3]}'`;
  const types = Object.fromEntries((await c.runAndReadAll(`DESCRIBE SELECT * FROM ${f}`)).getRowObjectsJS()
    .map((r) => [r.column_name, r.column_type]));
  const want = { type: 'VARCHAR', name: 'VARCHAR', value: 'DOUBLE', count: 'BIGINT', label: 'VARCHAR', unit: 'VARCHAR' };
  for (const k in want) if (types[k] !== want[k]) throw new Error(`${k} is ${types[k]}, not ${want[k]}`);
  const [r] = (await c.runAndReadAll(`SELECT count(*) FILTER (WHERE label IS NOT NULL) AS labels,
      count(*) FILTER (WHERE type = 'counter' AND count IS NULL) AS inexact FROM ${f}`)).getRowObjectsJS();
  if (r.labels < 1n || r.inexact !== 0n) throw new Error(JSON.stringify(r, (k, v) => String(v)));
})().catch((e) => { console.error(e.message); process.exit(1); });
JS
# repeated runs: the spread column, as the CSV's percent
"$BIN" stat -t zynq:duration_ms=5 -r 3 -o "$TMP/stat_r3.parquet" && ok || bad "stat -r 3 -o .parquet"
"$BIN" stat -t zynq:duration_ms=5 -r 3 -x, -o "$TMP/stat_r3.csv" && ok || bad "stat -r 3 -x,"
head -1 "$TMP/stat_r3.csv" | grep -q stddev && ok || bad "stat -r 3's CSV has no stddev: $(head -1 "$TMP/stat_r3.csv")"
same "$TMP/stat_r3.parquet" "$TMP/stat_r3.csv" rounded "stat -r 3"

# ---- report: a row per interval, every counter's delta; the summary ----
"$BIN" record -q -t esp -w multifft -I 200us -o "$TMP/esp.rec" >/dev/null 2>&1 && ok || bad "record esp"
"$BIN" report -i "$TMP/esp.rec" --deltas --parquet "$TMP/report.parquet" && ok || bad "report --parquet"
"$BIN" report -i "$TMP/esp.rec" --deltas -x, >"$TMP/report.csv" && ok || bad "report -x,"
same "$TMP/report.parquet" "$TMP/report.csv" rounded "report --deltas"
"$BIN" report -i "$TMP/esp.rec" --parquet "$TMP/report_nodeltas.parquet" && ok || bad "report --parquet without --deltas"
"$BIN" report -i "$TMP/esp.rec" -x, >"$TMP/report_nodeltas.csv"
same "$TMP/report_nodeltas.parquet" "$TMP/report_nodeltas.csv" rounded "report"
"$BIN" report -i "$TMP/esp.rec" --summary --parquet "$TMP/summary.parquet" && ok || bad "report --summary --parquet"
"$BIN" report -i "$TMP/esp.rec" --summary -x, >"$TMP/summary.csv"
same "$TMP/summary.parquet" "$TMP/summary.csv" rounded "report --summary"
# time is TIMESTAMP(ns), to the nanosecond: the first row's t_ns is the CSV's
node - "$MODULES" "$TMP/report.parquet" "$(sed -n 2p "$TMP/report.csv" | cut -d, -f1)" <<'JS' && ok || bad "t_ns as TIMESTAMP_NS"
const { DuckDBInstance } = require(process.argv[2] + '/@duckdb/node-api');
(async () => {
  const c = await (await DuckDBInstance.create()).connect();
  const [r] = (await c.runAndReadAll(`SELECT typeof(t_ns) AS t, epoch_ns(t_ns) AS ns FROM '${process.argv[3]}' LIMIT 1`)).getRowObjectsJS();
  if (r.t !== 'TIMESTAMP_NS' || String(r.ns) !== process.argv[4]) throw new Error(`${r.t} ${r.ns}, CSV ${process.argv[4]}`);
})().catch((e) => { console.error(e.message); process.exit(1); });
JS

# ---- diff: two model runs (exact); repeated host runs (significance, p) ----
"$BIN" record -q -t esp -w acc_sweep -I 200us -o "$TMP/esp2.rec" >/dev/null 2>&1 && ok || bad "record esp acc_sweep"
"$BIN" diff "$TMP/esp.rec" "$TMP/esp2.rec" -o "$TMP/diff.parquet" 2>/dev/null && ok || bad "diff -o .parquet"
"$BIN" diff "$TMP/esp.rec" "$TMP/esp2.rec" -x, -o "$TMP/diff.csv" 2>/dev/null && ok || bad "diff -x,"
same "$TMP/diff.parquet" "$TMP/diff.csv" exact "diff of two recordings"
"$BIN" stat -t host -e task-clock,context-switches -r 3 --json -o "$TMP/h1.json" -- true 2>/dev/null &&
    "$BIN" stat -t host -e task-clock,context-switches -r 3 --json -o "$TMP/h2.json" -- true 2>/dev/null && ok ||
    bad "stat -t host -r 3"
"$BIN" diff "$TMP/h1.json" "$TMP/h2.json" --parquet "$TMP/diff_host.parquet" 2>/dev/null && ok || bad "diff --parquet"
"$BIN" diff "$TMP/h1.json" "$TMP/h2.json" -x, -o "$TMP/diff_host.csv" 2>/dev/null
grep -q ',\(true\|false\),' "$TMP/diff_host.csv" && ok || bad "the host diff has no significance: $(head -3 "$TMP/diff_host.csv")"
same "$TMP/diff_host.parquet" "$TMP/diff_host.csv" exact "diff of repeated host runs"

# ---- sweep: -o .parquet, --parquet, -o DIR/ per shard, merge into Parquet ----
GRID="zynq:duration_ms=2,seed={1,2,3},lat_ns={100,300}"
"$BIN" sweep -q -j 2 -t "$GRID" -w mixed,steady -o "$TMP/sweep.parquet" && ok || bad "sweep -o .parquet"
"$BIN" sweep -q -j 2 -t "$GRID" -w mixed,steady -o "$TMP/sweep.csv" && ok || bad "sweep -o .csv"
same "$TMP/sweep.parquet" "$TMP/sweep.csv" exact "sweep"
for k in 1 2 3; do
    "$BIN" sweep -q -j 2 -t "$GRID" -w mixed,steady --shard $k/3 -o "$TMP/camp/" && ok || bad "sweep --shard $k/3 -o DIR/"
    "$BIN" sweep -q -j 2 -t "$GRID" -w mixed,steady --shard $k/3 -o "$TMP/shard$k.csv" && ok || bad "shard $k CSV"
    same "$TMP/camp/shard-$k-of-3.parquet" "$TMP/shard$k.csv" exact "sweep --shard $k/3"
done
[ "$(ls "$TMP/camp")" = "$(printf 'shard-1-of-3.parquet\nshard-2-of-3.parquet\nshard-3-of-3.parquet')" ] && ok ||
    bad "the campaign directory holds $(ls "$TMP/camp")"
if out=$($CHECK count "$TMP/camp/*.parquet" 12 2>&1); then ok; else bad "one query over the shards: $out"; fi
"$BIN" sweep merge "$TMP/shard1.csv" "$TMP/shard2.csv" "$TMP/shard3.csv" -o "$TMP/merged.parquet" && ok ||
    bad "sweep merge -o .parquet"
same "$TMP/merged.parquet" "$TMP/sweep.csv" exact "merged shards as Parquet"
"$BIN" sweep -q -t "$GRID" --parquet "$TMP/sweep2.parquet" -w mixed,steady && ok || bad "sweep --parquet"
same "$TMP/sweep2.parquet" "$TMP/sweep.csv" exact "sweep --parquet"
# a Parquet table is written, never resumed: an existing one is refused, naming it
expect 2 "sweep.parquet exists, and a Parquet table is not resumed" -- "$BIN" sweep -q -t "$GRID" -w mixed,steady \
    -o "$TMP/sweep.parquet"

# ---- errors: a path that cannot be written, named; refused combinations ----
expect 1 "/nonexistent/s.parquet" -- "$BIN" stat -t tensix -o /nonexistent/s.parquet
expect 1 "/nonexistent/r.parquet" -- "$BIN" report -i "$TMP/esp.rec" --parquet /nonexistent/r.parquet
expect 1 "/nonexistent/d.parquet" -- "$BIN" diff "$TMP/esp.rec" "$TMP/esp2.rec" -o /nonexistent/d.parquet
expect 2 "/nonexistent/w.parquet" -- "$BIN" sweep -q -t "$GRID" -o /nonexistent/w.parquet
mkdir "$TMP/adir.parquet"
expect 1 "adir.parquet" -- "$BIN" report -i "$TMP/esp.rec" --parquet "$TMP/adir.parquet"
expect 2 "give one format" -- "$BIN" stat -t tensix --json --parquet "$TMP/x.parquet"
expect 2 "give one format" -- "$BIN" sweep -q -t "$GRID" --json --parquet "$TMP/x.parquet"
expect 2 "append" -- "$BIN" stat -t tensix --append -o "$TMP/x.parquet"
expect 1 "cannot show a file's facts" -- "$BIN" report -i "$TMP/esp.rec" --stats --parquet "$TMP/x.parquet"
[ ! -e "$TMP/x.parquet" ] && ok || bad "a refused Parquet document left $TMP/x.parquet behind"
finish parquet_tables
