// web/src/units.js in node: how the page writes numbers (3 significant digits, k/M/G/T), times
// (3 significant digits in a unit by size) and which units are counts per interval. Exit 1 with
// the differing cases on stderr.
'use strict';
const path = require('path');
const U = require(path.join(__dirname, '..', '..', 'web', 'src', 'units.js'));

const cases = [
  // [function, argument(s), expected]
  ['sig3', [0], '0'], ['sig3', [8.251808], '8.25'], ['sig3', [2], '2'], ['sig3', [0.5], '0.5'],
  ['sig3', [123456], '123k'], ['sig3', [1234567], '1.23M'], ['sig3', [999.4], '999'], ['sig3', [999.7], '1k'],
  ['sig3', [999600], '1M'], ['sig3', [-45678], '-45.7k'], ['sig3', [0.000123], '0.000123'], ['sig3', [5e-5], '5e-5'],
  ['sig3', [2.5e12], '2.5T'], ['sig3', [3e15], '3e15'], ['sig3', [null], '–'], ['sig3', [NaN], '–'], ['sig3', [Infinity], '–'],
  ['time', [0.008251808], '8.25 ms'], ['time', [1e-4], '100 µs'], ['time', [2], '2 s'], ['time', [123.456], '123 s'],
  ['time', [0.0009996], '1 ms'], ['time', [5e-8], '50 ns'], ['time', [0], '0 s'], ['time', [null], '–'],
  ['isCount', ['packets'], true], ['isCount', ['cycles'], true], ['isCount', ['MB/s'], false], ['isCount', ['%'], false],
  ['isCount', ['cycles/inst'], false], ['isCount', ['cycles', 'avg_wr_latency'], false], ['isCount', ['cycles', 'noc_bp_plane0'], true],
  ['chartUnit', ['cycles', 50e6, 'avg_rd_latency'], 'cycles'], ['chartUnit', ['txns', 50e6, 'wr_transactions'], 'txns per interval (50 ms)'], ['isCount', [''], false], ['isCount', [undefined], false],
  ['chartUnit', ['packets', 100000], 'packets per interval (100 µs)'], ['chartUnit', ['cycles', 2.5e8], 'cycles per interval (250 ms)'],
  ['chartUnit', ['MB/s', 100000], 'MB/s'], ['chartUnit', ['', 100000], ''], ['chartUnit', ['packets', 0], 'packets per interval'],
  ['rate', ['packets'], 'packets/s'], ['rate', ['bytes'], 'bytes/s'],
];
let bad = 0;
for (const [fn, args, want] of cases) {
  const got = U[fn](...args);
  if (got !== want) { console.error('units_check: ' + fn + '(' + args.map(String).join(', ') + ') = ' + JSON.stringify(got) + ', expected ' + JSON.stringify(want)); bad++; }
}
console.log('units_check: ' + (cases.length - bad) + ' of ' + cases.length + ' cases as expected');
process.exitCode = bad ? 1 : 0;
