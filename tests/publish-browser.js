/* publish-browser.js — the published site in a real browser
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run by test-publish-browser.sh with puppeteer-core on NODE_PATH:
 *   node publish-browser.js CHROMIUM SITE EXPECTED.json GAME [SCREENSHOTS]
 * Opens SITE/index.html from file://, follows the links to the series and
 * to game GAME, steps to move N (EXPECTED.json, from the library by
 * publish-position-helper) with the keyboard alone and compares the
 * stones drawn with the library's, toggles the model's orientation and
 * compares again, then opens the move's first call and finds its raw
 * response. Any console error or page error fails the test. With
 * SCREENSHOTS, writes the index, the series page and the game page with a
 * call open, light and dark.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [chromium, site, expectedFile, gameId, shots] = process.argv.slice(2);
const expected = JSON.parse(fs.readFileSync(expectedFile, 'utf8'));
const failures = [];

function check(ok, what) {
  console.log(`${ok ? 'ok' : 'FAIL'} - ${what}`);
  if (!ok) failures.push(what);
}

function sameStones(drawn, wanted) {
  const a = Object.keys(drawn).sort();
  const b = Object.keys(wanted).sort();
  return a.length === b.length && a.every((k, i) => k === b[i] && drawn[k] === wanted[k]);
}

async function stonesOnBoard(page) {
  return page.$$eval('#board circle.stone', (nodes) => Object.fromEntries(
    nodes.map((n) => [n.getAttribute('data-point'), n.getAttribute('data-color')])));
}

// The text rows must say what the board shows.
async function textRows(page) {
  const text = await page.$eval('#board-text', (n) => n.textContent);
  const rows = text.split('\n').slice(1);
  const stones = {};
  const letters = 'ABCDEFGHJKLMNOPQRST';
  rows.forEach((row) => {
    const [label, ...cells] = row.trim().split(/\s+/);
    cells.forEach((c, x) => { if (c !== '.') stones[letters[x] + label] = c; });
  });
  return stones;
}

async function main() {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files=false'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1366, height: 900 });
  page.on('console', (m) => { if (m.type() === 'error') check(false, `console: ${m.text()}`); });
  page.on('pageerror', (e) => check(false, `page error: ${e.message}`));
  // Nothing may leave the machine: any request not to file:// fails.
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    if (!r.url().startsWith('file://') && !r.url().startsWith('data:')) {
      check(false, `no network request (${r.url()})`);
      r.abort();
    } else {
      r.continue();
    }
  });

  const shoot = async (name) => {
    if (!shots) return;
    for (const scheme of ['light', 'dark']) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      await page.screenshot({ path: path.join(shots, `publish-${name}-${scheme}.png`),
                              fullPage: name !== 'game' });
    }
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  };

  await page.goto('file://' + path.resolve(site, 'index.html'), { waitUntil: 'load' });
  check(await page.$('table.leaderboard') !== null, 'the index has the leaderboard');
  check((await page.$$('table.leaderboard tbody tr')).length >= 1, 'the leaderboard has a subject');
  const rules = await page.$eval('a[href^="protocol-"]', (a) => a.href);
  check(/protocol-1-rules\.txt$/.test(rules), 'the index links the rules text');
  await shoot('index');

  await Promise.all([page.waitForNavigation(), page.click('ul.series a')]);
  check(/series-\d+\.html$/.test(page.url()), 'a link leads to a series page');
  check(await page.$('table.results') !== null, 'the series page has its results');
  await shoot('series');

  const link = `a[href="games/game-${gameId}.html"]`;
  await Promise.all([page.waitForNavigation(), page.click(link)]);
  check(page.url().includes(`games/game-${gameId}.html`), 'a link leads to the game page');
  await page.waitForSelector('#board svg');

  // Every control is labelled.
  const unlabelled = await page.$$eval('button, input, select', (nodes) => nodes.filter((n) =>
    !(n.getAttribute('aria-label') || (n.labels && n.labels.length) || n.textContent.trim()))
    .map((n) => n.id));
  check(unlabelled.length === 0, `every control has a label (${unlabelled.join(' ')})`);

  // Keyboard only: focus the page, go to the start, step to move N.
  await page.focus('body');
  await page.keyboard.press('Home');
  for (let i = 0; i < expected.move; i++) await page.keyboard.press('ArrowRight');
  const caption = await page.$eval('#position-caption', (n) => n.textContent);
  check(caption.startsWith(`Move ${expected.move} of `), `the caption says move ${expected.move}`);
  check(sameStones(await stonesOnBoard(page), expected.real),
        `the stones at move ${expected.move} are the library's`);
  check(sameStones(await textRows(page), expected.real), 'the text rows are the same position');

  await page.keyboard.press('o');
  check(await page.$eval('#model-view', (n) => n.checked), 'O turns on the model\'s view');
  check(sameStones(await stonesOnBoard(page), expected.shown),
        `the model's view is the board in ${expected.orientation}`);
  check(sameStones(await textRows(page), expected.shown), 'its text rows are transformed too');
  check(expected.orientation === 'identity' ||
        !sameStones(expected.real, expected.shown), 'the orientation changes the board');
  const probs = await page.$$eval('#board text.prob-text', (n) => n.length);
  check(probs > 0, 'the model\'s probabilities are on the points');

  // The move's calls, in order; the first one opened with the keyboard.
  const listed = await page.$$eval('#calls details.call', (n) => n.length);
  check(listed === expected.calls.length, `move ${expected.move} lists its ${expected.calls.length} calls`);
  await page.focus('#calls details.call summary');
  await page.keyboard.press('Enter');
  await page.focus('#calls details.call details.raw summary');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#calls details.call pre.response-body', { timeout: 10000 });
  const raw = await page.$eval('#calls details.call pre.response-body', (n) => n.textContent);
  check(raw === expected.calls[0].response_body, 'the first call shows its raw response, byte for byte');
  const request = await page.$eval('#calls details.call pre.request-body', (n) => n.textContent);
  check(request.includes('"messages"') || request.includes('"contents"') || request.includes('"input"'),
        'the request body is shown');
  // Whether the first call's answer decided the move, as the library says.
  const decidedRow = await page.$eval('#calls details.call dl', (n) => n.textContent);
  const decidedWanted = expected.calls[0].decided === 1 ? 'yes: this answer decided the move'
    : expected.calls[0].decided === 0 ? 'no: no move was made with this answer' : 'not yet';
  check(decidedRow.includes(decidedWanted), `the first call says whether it decided the move (${decidedWanted})`);
  await shoot('game');

  await browser.close();
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => { console.log(`FAIL - ${e.stack}`); process.exit(1); });
