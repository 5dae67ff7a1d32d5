#!/bin/sh
# The Parquet writer's fuzz harness (fuzz/fuzz_parquet.c) over a fixed list of seeds, as the
# program parquet_fuzz_seeds: each seed's random table (nulls at any rate, long and multi-byte
# strings, any doubles and int64s, 10,000 columns in seed 1, 0 rows in seed 2, pages and row groups
# small enough that a table spans many) written as a file, which DuckDB and hyparquet must read
# back equal to what the harness put in, cell for cell. The checker must also catch a difference:
# a copy of one table's expected cells with one cell changed fails. Skips (77) only where node or
# the readers are missing from web/node_modules.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
BUILD=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}
MODULES=${SOCMON_WEB_MODULES:-$SOCMON_SRC/web/node_modules}
export SOCMON_WEB_MODULES=$MODULES
SEEDS=${SOCMON_PARQUET_SEEDS:-40}
skip() { echo "parquet_fuzz: SKIPPED: $1"; exit 77; }
command -v node >/dev/null 2>&1 || skip "node is not installed (sh scripts/install-deps.sh)"
for m in @duckdb/node-api hyparquet hyparquet-compressors; do
    [ -d "$MODULES/$m" ] || skip "$MODULES/$m is missing (sh scripts/install-deps.sh runs npm ci in web/)"
done
CHECK="node $SOCMON_SRC/tests/export/parquet_check.mjs"

mkdir "$TMP/seeds"
"$BUILD/parquet_fuzz_seeds" "$TMP/seeds" "$SEEDS" && ok || bad "parquet_fuzz_seeds wrote $SEEDS tables"
[ "$(ls "$TMP/seeds"/*.parquet | wc -l)" = "$SEEDS" ] && ok || bad "$(ls "$TMP/seeds" | wc -l) files for $SEEDS seeds"
if out=$($CHECK expected "$TMP/seeds" 2>&1); then ok; echo "$out"; else bad "read back: $out"; fi
# the shapes the seeds promise: 10,000 columns, 0 rows, several row groups somewhere
node - "$MODULES" "$TMP/seeds" <<'JS' && ok || bad "the seeds' shapes"
const { DuckDBInstance } = require(process.argv[2] + '/@duckdb/node-api');
(async () => {
  const c = await (await DuckDBInstance.create()).connect();
  const d = process.argv[3];
  const q = async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJS()[0];
  const wide = await q(`SELECT count(*) AS n FROM (DESCRIBE SELECT * FROM '${d}/seed-1.parquet')`);
  const empty = await q(`SELECT count(*) AS n FROM '${d}/seed-2.parquet'`);
  const groups = await q(`SELECT max(g) AS g FROM (SELECT file_name, count(DISTINCT row_group_id) AS g
                          FROM parquet_metadata('${d}/*.parquet') GROUP BY file_name)`);
  if (wide.n !== 10000n || empty.n !== 0n || groups.g < 4n)
    throw new Error(`seed 1: ${wide.n} columns, seed 2: ${empty.n} rows, most row groups ${groups.g}`);
})().catch((e) => { console.error(e.message); process.exit(1); });
JS
# planted: one cell of seed 4's expected table changed
python3 - "$TMP/seeds/seed-4.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
row = next(r for r in d["rows"] if any(v is not None for v in r))
i = next(i for i, v in enumerate(row) if v is not None)
row[i] = "planted" if d["columns"][i]["type"] == "STRING" else (not row[i]) if isinstance(row[i], bool) else "424242"
json.dump(d, open(sys.argv[1], "w"))
PY
if $CHECK expected "$TMP/seeds" >"$TMP/planted.out" 2>&1; then bad "the checker passed a changed cell"; else ok; fi
grep -q "seed-4.parquet" "$TMP/planted.out" && ok || bad "the planted difference: $(head -3 "$TMP/planted.out")"
finish parquet_fuzz
