// Reads socmon's Parquet files with two readers that share no code with socmon's writer nor with
// each other: DuckDB (@duckdb/node-api) and hyparquet (pure JavaScript, with
// hyparquet-compressors for zstd), both from web/node_modules (SOCMON_WEB_MODULES). Exit 1 with
// what differs on stderr.
//
//   compare FILE.parquet FILE.csv exact|rounded   every CSV cell equals its Parquet cell in both
//       readers (rounded: the CSV wrote the number rounded for people, so it must be the
//       Parquet value rounded to the CSV's digits); the rows in the same order
//   count 'DIR/*.parquet' N      one DuckDB query over the files returns N rows, N distinct points
//   expected DIR                 each DIR/NAME.parquet equals DIR/NAME.json (the fuzz harness's
//       tables: {"columns": [{"name", "type"}], "rows": [[cell...]]}, int64 cells as strings)
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const modules = process.env.SOCMON_WEB_MODULES || join(fileURLToPath(import.meta.url), '..', '..', '..', 'web', 'node_modules');
const require = createRequire(join(modules, 'x.js'));
const { DuckDBInstance } = require('@duckdb/node-api');
const hyparquet = await import(pathToFileURL(require.resolve('hyparquet')).href);
const { compressors } = await import(pathToFileURL(require.resolve('hyparquet-compressors')).href);

let failures = 0;
function fail(msg) {
  if (failures++ < 20) console.error(msg);
}

const quote = (s) => "'" + s.replaceAll("'", "''") + "'";
const ident = (s) => '"' + s.replaceAll('"', '""') + '"';

// DuckDB's view: the columns with their types, and the rows with timestamps as epoch nanoseconds
// (a JavaScript Date would keep milliseconds).
async function duck(conn, from) {
  const desc = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowObjectsJS();
  const cols = desc.map((d) => ({ name: d.column_name, type: d.column_type }));
  const sel = cols.map((c) => (c.type.startsWith('TIMESTAMP') ? `epoch_ns(${ident(c.name)})` : ident(c.name)));
  const rows = (await conn.runAndReadAll(`SELECT ${sel.join(', ') || '1'} FROM ${from}`)).getRowsJS();
  return { cols, rows };
}

// hyparquet's view of the same file, cells in DuckDB's terms: int64 as BigInt, timestamps as
// epoch nanoseconds (read raw: hyparquet would make a Date of them).
async function hyp(file) {
  const buf = readFileSync(file);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const meta = hyparquet.parquetMetadata(ab);
  const names = meta.schema.slice(1).map((s) => s.name);
  const rows = [];
  await hyparquet.parquetRead({
    file: ab, metadata: meta, compressors, rowFormat: 'array', utf8: true,
    parsers: { timestampFromNanoseconds: (n) => n },
    onComplete: (data) => rows.push(...data),
  });
  return { names, rows };
}

function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') cell += '"', i++;
      else if (c === '"') q = false;
      else cell += c;
    } else if (c === '"') q = true;
    else if (c === ',') row.push(cell), cell = '';
    else if (c === '\n') row.push(cell), rows.push(row), row = [], cell = '';
    else cell += c;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

// Words the CSV writes where a number has no value.
const NULL_WORDS = new Set(['', 'null', '-', '<not counted>', '<not supported>']);

// Half a unit of the CSV text's last digit: how far a number rounded to it may be from the value
// ("12.3456": 5e-5; "1.235e+07": 5e3; "350": float noise only, smn_format_value's whole numbers).
function roundingOf(text, v) {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(text);
  if (!m) return NaN;
  const dec = m[1] ? m[1].length : 0, exp = m[2] ? Number(m[2]) : 0;
  if (!m[1] && !m[2]) return 1e-9 * Math.max(1, Math.abs(v));
  return 0.5 * 10 ** (exp - dec) * (1 + 1e-9);
}

function cellEqual(csv, val, type, mode) {
  if (val === null || val === undefined) return NULL_WORDS.has(csv);
  if (type === 'VARCHAR') return csv === val;
  if (type === 'BOOLEAN') return csv === String(val);
  if (type === 'BIGINT' || type.startsWith('TIMESTAMP')) return /^-?\d+$/.test(csv) && BigInt(csv) === BigInt(val);
  if (type === 'DOUBLE') {
    const t = csv.endsWith('%') ? csv.slice(0, -1) : csv;
    const want = t === 'inf' ? Infinity : t === '-inf' ? -Infinity : Number(t);
    if (t === '' || Number.isNaN(want)) return false;
    if (mode === 'exact' || !Number.isFinite(want)) return want === val;
    return Math.abs(want - val) <= roundingOf(t, val);
  }
  return false;
}

// A totals document writes a word for some values: a metric's label, "<not counted>"; those are
// in the label and note columns, and exact counts in count.
function totalsValue(csv, get) {
  if (get('label') !== null && get('label') !== undefined) return csv === get('label');
  if (get('note')) return csv === '<' + get('note') + '>';
  if (get('count') !== null && get('count') !== undefined) return csv === String(get('count'));
  return null;   // a measure: the general rule
}

async function compare(conn, file, csvFile, mode) {
  const csv = parseCsv(readFileSync(csvFile, 'utf8'));
  const header = csv.shift();
  const d = await duck(conn, `read_parquet(${quote(file)})`);
  const h = await hyp(file);
  const names = d.cols.map((c) => c.name);
  if (JSON.stringify(names) !== JSON.stringify(h.names)) fail(`${file}: DuckDB's columns ${names} are not hyparquet's ${h.names}`);
  if (d.rows.length !== csv.length) fail(`${file}: DuckDB reads ${d.rows.length} rows, the CSV has ${csv.length}`);
  if (h.rows.length !== csv.length) fail(`${file}: hyparquet reads ${h.rows.length} rows, the CSV has ${csv.length}`);
  const at = header.map((n) => names.indexOf(n));
  header.forEach((n, k) => at[k] < 0 && fail(`${file}: no column '${n}' (it has ${names.join(',')})`));
  const totals = names.includes('count') && names.includes('note');
  for (const [reader, rows] of [['DuckDB', d.rows], ['hyparquet', h.rows]]) {
    for (let r = 0; r < Math.min(rows.length, csv.length); r++) {
      const get = (n) => rows[r][names.indexOf(n)];
      header.forEach((n, k) => {
        if (at[k] < 0) return;
        const val = rows[r][at[k]], type = d.cols[at[k]].type, text = csv[r][k] ?? '';
        const special = totals && n === 'value' ? totalsValue(text, get) : null;
        const okay = special !== null ? special : cellEqual(text, val, type, mode);
        if (!okay) fail(`${file}: ${reader} row ${r} column '${n}' (${type}): Parquet ${val}, CSV '${text}'`);
      });
    }
  }
  return { rows: d.rows.length, cols: names.length };
}

async function expected(conn, dir) {
  let files = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    const want = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const file = join(dir, f.replace(/\.json$/, '.parquet'));
    const d = await duck(conn, `read_parquet(${quote(file)})`);
    const h = await hyp(file);
    const types = { INT64: 'BIGINT', DOUBLE: 'DOUBLE', STRING: 'VARCHAR', TIMESTAMP_NS: 'TIMESTAMP_NS', BOOLEAN: 'BOOLEAN' };
    if (d.cols.length !== want.columns.length) fail(`${file}: ${d.cols.length} columns, expected ${want.columns.length}`);
    want.columns.forEach((c, i) => {
      if (!d.cols[i] || d.cols[i].name !== c.name || d.cols[i].type !== types[c.type])
        fail(`${file}: column ${i} is ${JSON.stringify(d.cols[i])}, expected ${c.name} ${types[c.type]}`);
    });
    for (const [reader, rows] of [['DuckDB', d.rows], ['hyparquet', h.rows]]) {
      if (rows.length !== want.rows.length) fail(`${file}: ${reader} reads ${rows.length} rows, expected ${want.rows.length}`);
      for (let r = 0; r < Math.min(rows.length, want.rows.length); r++) {
        want.columns.forEach((c, i) => {
          const w = want.rows[r][i], g = rows[r][i];
          const same = w === null ? g === null || g === undefined
            : c.type === 'INT64' || c.type === 'TIMESTAMP_NS' ? typeof g === 'bigint' || typeof g === 'number' ? BigInt(g) === BigInt(w) : false
            : c.type === 'DOUBLE' ? (w === 'nan' ? Number.isNaN(g) : w === 'inf' ? g === Infinity : w === '-inf' ? g === -Infinity : g === w)
            : g === w;
          if (!same) fail(`${file}: ${reader} row ${r} column ${c.name}: ${g}, expected ${w}`);
        });
      }
    }
    files++;
  }
  if (!files) fail(`${dir}: no tables to check`);
  return files;
}

const [cmd, ...args] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
if (cmd === 'compare') {
  const r = await compare(conn, args[0], args[1], args[2] || 'exact');
  if (!failures) console.log(`${args[0]}: ${r.rows} rows x ${r.cols} columns equal the CSV in DuckDB and hyparquet`);
} else if (cmd === 'count') {
  const q = `SELECT count(*) AS n, count(DISTINCT point) AS points FROM read_parquet(${quote(args[0])})`;
  const [row] = (await conn.runAndReadAll(q)).getRowObjectsJS();
  if (Number(row.n) !== Number(args[1]) || Number(row.points) !== Number(args[1]))
    fail(`${args[0]}: ${row.n} rows, ${row.points} distinct points; expected ${args[1]}`);
  else console.log(`${q}: ${row.n} rows`);
} else if (cmd === 'expected') {
  const n = await expected(conn, args[0]);
  if (!failures) console.log(`${args[0]}: ${n} tables equal in DuckDB and hyparquet`);
} else {
  fail(`unknown command '${cmd}' (compare, count, expected)`);
}
process.exit(failures ? 1 : 0);
