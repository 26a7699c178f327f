import { chromium } from 'playwright-core';
const [, , file, out, ...anchors] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
await page.goto('file://' + file);
let i = 0;
for (const anchor of ['', ...anchors]) {
  if (anchor) await page.evaluate((a) => document.querySelector(a).scrollIntoView(), anchor);
  await page.screenshot({ path: `${out}-${i++}.png` });
}
await browser.close();
