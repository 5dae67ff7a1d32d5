// Prints the notes a socmon page shows (#notes, as a user reads them), one a line, after the
// page has drawn; exit 1 on a page error or console error. Usage: node page_notes.js URL
'use strict';
const path = require('path');
const modules = process.env.SOCMON_WEB_MODULES || path.join(__dirname, '..', '..', 'web', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  let failed = false;
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => { console.error('page error: ' + e.message); failed = true; });
    page.on('console', (m) => { if (m.type() === 'error') { console.error('console: ' + m.text()); failed = true; } });
    await page.goto(process.argv[2]);
    await page.waitForFunction(() => document.querySelectorAll('canvas').length > 0, null, { timeout: 20000 });
    const notes = await page.$$eval('#notes p', (ps) => ps.map((p) => p.textContent));
    for (const n of notes) console.log(n);
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.error(e.message); process.exit(1); });
