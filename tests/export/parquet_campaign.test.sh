#!/bin/sh
# A campaign as docs/sweep.md runs it on Slurm (issue 41 item 2): a 10,000-point sweep of a small
# model grid (zynq, 1 simulated ms a point: 100 seeds x 100 latencies) run as 10 shards, each with
# -o DIR/ into DIR/shard-K-of-N.parquet, then one DuckDB query over DIR/*.parquet returns the
# 10,000 rows, every point once, and their values (grouped by a grid option) agree with the
# shards' own. Skips (77) only where node or the readers are missing from web/node_modules.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
MODULES=${SOCMON_WEB_MODULES:-$SOCMON_SRC/web/node_modules}
export SOCMON_WEB_MODULES=$MODULES
skip() { echo "parquet_campaign: SKIPPED: $1"; exit 77; }
command -v node >/dev/null 2>&1 || skip "node is not installed (sh scripts/install-deps.sh)"
for m in @duckdb/node-api hyparquet hyparquet-compressors; do
    [ -d "$MODULES/$m" ] || skip "$MODULES/$m is missing (sh scripts/install-deps.sh runs npm ci in web/)"
done
SEEDS=$(seq -s, 1 100)
LAT=$(seq -s, 101 200)
GRID="zynq:duration_ms=1,seed={$SEEDS},lat_ns={$LAT}"

# the shards two at a time, as two nodes of an array job would run them
for pair in "1 2" "3 4" "5 6" "7 8" "9 10"; do
    for k in $pair; do
        "$BIN" sweep -q -j 1 -t "$GRID" --shard $k/10 -o "$TMP/campaign/" &
    done
    wait
done
[ "$(ls "$TMP/campaign" | wc -l)" = 10 ] && ok || bad "the campaign directory: $(ls "$TMP/campaign")"
[ -f "$TMP/campaign/shard-10-of-10.parquet" ] && ok || bad "no shard-10-of-10.parquet"
if out=$(node "$SOCMON_SRC/tests/export/parquet_check.mjs" count "$TMP/campaign/*.parquet" 10000 2>&1); then
    ok; echo "$out"
else
    bad "the query over the directory: $out"
fi
node - "$MODULES" "$TMP/campaign" <<'JS' && ok || bad "the campaign's values"
const { DuckDBInstance } = require(process.argv[2] + '/@duckdb/node-api');
(async () => {
  const c = await (await DuckDBInstance.create()).connect();
  const d = process.argv[3];
  const rows = async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJS();
  // every point ran; 100 latencies, 100 seeds each; the points of one shard are i % 10 == K - 1
  const [a] = await rows(`SELECT count(*) FILTER (WHERE status = 'ok') AS ok, count(DISTINCT "option:lat_ns") AS lats,
      count(DISTINCT "option:seed") AS seeds, min(point) AS lo, max(point) AS hi, any_value(points) AS total
      FROM '${d}/*.parquet'`);
  if (a.ok !== 10000n || a.lats !== 100n || a.seeds !== 100n || a.lo !== 0n || a.hi !== 9999n || a.total !== 10000n)
    throw new Error(JSON.stringify(a, (k, v) => String(v)));
  const bad = await rows(`SELECT filename, count(*) AS n FROM read_parquet('${d}/*.parquet', filename = true)
      WHERE point % 10 != CAST(regexp_extract(filename, 'shard-([0-9]+)-of', 1) AS BIGINT) - 1 GROUP BY filename`);
  if (bad.length) throw new Error(`points in the wrong shard: ${JSON.stringify(bad, (k, v) => String(v))}`);
  // a counter is an exact INT64 in every file; the read latency grows with lat_ns
  const [t] = await rows(`SELECT typeof("counter:slot0.rd_lat") AS t FROM '${d}/*.parquet' LIMIT 1`);
  if (t.t !== 'BIGINT') throw new Error(`counter:slot0.rd_lat is ${t.t}`);
  const by = await rows(`SELECT "option:lat_ns" AS lat, avg("counter:slot0.rd_lat" / "counter:slot0.rd_txns") AS per
      FROM '${d}/*.parquet' GROUP BY 1 ORDER BY CAST(lat AS INTEGER)`);
  if (by.length !== 100 || !(by[99].per > by[0].per)) throw new Error(JSON.stringify(by.slice(0, 3)));
})().catch((e) => { console.error(e.message); process.exit(1); });
JS
finish parquet_campaign
