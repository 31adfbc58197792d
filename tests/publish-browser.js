/* publish-browser.js — the published site in a real browser
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run by test-publish-browser.sh with puppeteer-core on NODE_PATH:
 *   node publish-browser.js CHROMIUM SITE EXPECTED.json GAME FAULTS-SITE [SCREENSHOTS]
 * Opens SITE/index.html from file://, follows the links to the series and
 * to game GAME, steps to move N (EXPECTED.json, from the library by
 * publish-position-helper) with the keyboard alone and compares the
 * stones drawn with the library's, toggles the model's orientation and
 * compares again, then opens the move's first call and finds its raw
 * response. FAULTS-SITE (test-publish-browser.sh) has a forfeited game
 * with a transport fault and a turn-limit game: the forfeit's last turn is
 * reached and says why, the fault is shown apart, the request reads as the
 * model saw it, #move= in the address moves the replay, shortcuts keep out
 * of controls and text blocks, turn-limit games are marked, the
 * methodology page is linked from every page and holds the protocol
 * whole, the leaderboard sorts, and no page scrolls sideways at 390 px.
 * Any console error or page error fails the test. With SCREENSHOTS,
 * writes the index, the series page, the game page with a call open and
 * the methodology at 1366 px, and the first three at 390 px, light and
 * dark.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [chromium, site, expectedFile, gameId, faultsSite, shotsArg] = process.argv.slice(2);
const shots = shotsArg || '';
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

const methodologyLink = 'header.site a[href$="methodology.html"]';

// No page scrolls sideways at 390 px.
async function narrow(page, what) {
  await page.setViewport({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `${what} fits 390 px without sideways scroll (${width} px)`);
}

async function readerChecks(page, shoot) {
  const open = async (rel) => {
    await page.goto('file://' + path.resolve(faultsSite, rel), { waitUntil: 'load' });
  };
  const caption = () => page.$eval('#position-caption', (n) => n.textContent);
  await page.setViewport({ width: 1366, height: 900 });

  // The methodology: linked from every page, the protocol whole.
  for (const rel of ['index.html', 'series-1.html', 'games/game-1.html', 'games/game-2.html',
                     'methodology.html']) {
    await open(rel);
    check(await page.$(methodologyLink) !== null, `${rel} links the methodology`);
  }
  await open('methodology.html');
  const rules = fs.readFileSync(path.join(faultsSite, 'protocol-1-rules.txt'), 'utf8');
  check(await page.$eval('#rules-text', (n) => n.textContent) === rules,
        'the methodology holds the whole rules text, byte for byte');
  const method = await page.$eval('main', (n) => n.textContent);
  for (const words of ['play_or_pass', 'best_point', 'points_forbidden_by_superko', 'mix:P:ENGINE',
                       'anti-transpose', '95% interval'])
    check(method.includes(words), `the methodology explains ${words}`);
  for (const id of ['forfeit', 'void', 'transport-fault', 'turn-limit'])
    check(await page.$(`#${id}`) !== null, `the methodology defines ${id}`);
  check((await page.$$('ol.orientations li')).length === 8, 'the methodology lists the 8 orientations');
  await shoot('methodology');

  // The leaderboard: every column a reader looks for, sortable.
  await open('index.html');
  const heads = await page.$$eval('table.leaderboard thead th', (n) => n.map((h) => h.textContent));
  for (const words of ['Rating', 'Games', 'Turn limit', 'Forfeits', 'Tokens per move',
                       'Seconds per move', 'Cost per game', 'Cost per rating',
                       'Invalid answers per 1,000 questions'])
    check(heads.some((h) => h.includes(words)), `the leaderboard has "${words}"`);
  await page.click('table.leaderboard th:nth-child(3) button.sort');
  check(await page.$eval('table.leaderboard th:nth-child(3)', (n) => n.getAttribute('aria-sort'))
        === 'descending', 'a heading sorts the leaderboard by its column');
  const invalid = await page.$eval('table.leaderboard tbody tr td:nth-child(15)', (n) => n.textContent);
  check(Number(invalid) > 0, `invalid answers per 1,000 questions are counted (${invalid})`);
  // Cost per rating: the rated games' cost in all, at least one game's.
  const costs = await page.$eval('table.leaderboard tbody tr', (r) =>
    [r.children[12].textContent, r.children[13].textContent, r.children[2].textContent]);
  const [perGame, perRating, rated] = [Number(costs[0].slice(1)), Number(costs[1].slice(1)), Number(costs[2])];
  check(costs[1].startsWith('$') && perRating > 0 && perRating <= perGame * rated * 1.0001 + 1e-4,
        `the leaderboard shows the cost per rating (${costs[1]}: ${rated} rated games at ${costs[0]} a game)`);
  check(await page.$('#cost-per-rating') !== null, 'the leaderboard says what the cost per rating is');
  await narrow(page, 'the index');

  // Turn-limit games are marked in the list and on their page.
  await page.setViewport({ width: 1366, height: 900 });
  await open('series-1.html');
  const rows = await page.$$eval('table.games tbody tr', (n) => n.map((r) => r.textContent));
  check(rows.some((r) => r.includes('(turn limit)')), 'the series list marks the turn-limit game');
  check(rows.some((r) => r.includes('forfeit')), 'the series list shows the forfeit');
  await narrow(page, 'the series page');
  await page.setViewport({ width: 1366, height: 900 });
  await open('games/game-2.html');
  check(await page.$('#turn-limit') !== null, 'the turn-limit game says so on its page');
  await page.focus('body');
  await page.keyboard.press('End');
  check((await caption()).includes('turn limit'), 'its last move says the game ended at the turn limit');

  // The forfeit: its last turn is reached, with the rejected answers and why.
  await open('games/game-1.html');
  const data = await page.$eval('#game-data', (n) => JSON.parse(n.textContent));
  check(data.forfeit === data.moves.length + 1, `the forfeit's turn is a step of the replay (${data.forfeit})`);
  check(await page.$eval('#slider', (n) => Number(n.max)) === data.forfeit, 'the slider reaches it');
  await page.focus('body');
  await page.keyboard.press('Home');
  await page.keyboard.press('End');
  const last = await caption();
  check(last.includes('forfeits') && last.includes(`Turn ${data.forfeit}`), `End shows the forfeited turn (${last})`);
  const rejected = await page.$$eval('#calls details.call', (n) => n.map((d) => d.className));
  check(rejected.length >= 3 && rejected.every((c) => !c.includes('outcome-answer')),
        `the forfeited turn lists its ${rejected.length} rejected answers`);
  check((await page.$eval('#why', (n) => n.textContent)).length > 0, 'the page says why the game ended');

  // #move= in the address moves the replay: to the transport fault's turn.
  const fault = data.calls.find((c) => c.out === 'transport-error' || c.out === 'http-error');
  check(fault !== undefined, 'the game has a transport fault');
  await page.evaluate((t) => { location.hash = `#move=${t}`; }, fault.t);
  await page.waitForFunction((t) => document.getElementById('position-caption').textContent
    .startsWith(`Move ${t} of`), { timeout: 5000 }, fault.t);
  check(true, 'changing #move= in the address moves the replay');
  const styled = await page.$$eval('#calls details.call.transport', (n) => n.map((d) => [
    d.textContent, getComputedStyle(d).borderLeftStyle]));
  check(styled.length >= 1 && styled[0][0].includes('not counted against the model') &&
        styled[0][1] === 'dashed', 'the transport fault is shown apart from the model\'s faults');

  // The request as the model saw it, the wire JSON one click away (the
  // transport fault's: it was sent, and the model never saw an answer).
  await page.focus('#calls details.call.transport summary');
  await page.keyboard.press('Enter');
  await page.focus('#calls details.call.transport details.raw summary');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#calls details.call.transport pre.request-seen', { timeout: 10000 });
  await page.$eval('#calls details.call.transport', (n) => n.scrollIntoView());
  const seen = await page.$eval('#calls details.call.transport pre.request-seen', (n) => n.textContent);
  check(seen.includes('Go on a 9x9 board.') && /\n {4}9 [.XO]( [.XO]){8}\n/.test(seen) &&
        /\nquestion (play_or_pass|best_point): (Should|If) X /.test(seen) && !seen.includes('\\"'),
        `the request reads as the model saw it: rules, board rows, the question (${seen.slice(-700)})`);
  check(await page.$eval('#calls details.call.transport details.wire', (n) => !n.open &&
        n.querySelector('pre.request-body') !== null), 'the raw request JSON is one click away');
  await shoot('game', '-faults');

  // Shortcuts keep out of text blocks and controls.
  const before = await caption();
  await page.focus('#calls details.call.transport pre.request-seen');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  check(await caption() === before, 'keys in a text block do not move the replay');
  await page.focus('#model-view');
  await page.keyboard.press('o');
  check(await page.$eval('#model-view', (n) => !n.checked), 'O in a control does not toggle the view');
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('ArrowLeft');
  check(await caption() !== before, 'outside them the keys still step');

  // A raw response of 200,000 characters shows its first 65,536, the rest
  // one click away (test-publish-browser.sh planted it).
  const longOne = data.calls.find((c) => c.out === 'invalid-option');
  check(longOne !== undefined, 'the game has an invalid answer');
  await page.evaluate((t) => { location.hash = `#move=${t}`; }, longOne.t);
  const longCall = `#calls details.call[data-call="${longOne.k}"]`;
  await page.waitForSelector(longCall, { timeout: 5000 });
  await page.$eval(longCall, (n) => { n.open = true; n.querySelector('details.raw').open = true; });
  await page.waitForSelector(`${longCall} pre.response-body`, { timeout: 10000 });
  const cut = await page.$eval(`${longCall} pre.response-body`, (n) => n.textContent.length);
  const note = await page.$eval(`${longCall} p.cut`, (n) => n.textContent);
  check(cut === 65536 && note.includes('The first 65,536 of 200,040 characters are shown.'),
        `a long raw response shows its start (${cut} characters: ${note})`);
  await page.click(`${longCall} p.cut button.show-all`);
  const whole = await page.$eval(`${longCall} pre.response-body`, (n) => n.textContent);
  check(whole.length === 200040 && whole.endsWith('Z9"}}]}') &&
        await page.$(`${longCall} p.cut`) === null, 'Show all shows the whole response');

  await narrow(page, 'a game page');
  await open('methodology.html');
  await narrow(page, 'the methodology');
  await page.setViewport({ width: 1366, height: 900 });
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

  // At 1366 px (publish-NAME-SCHEME.png) and 390 px (publish-NAME-390-SCHEME.png).
  const shoot = async (name, suffix) => {
    if (!shots) return;
    for (const width of [1366, 390]) {
      await page.setViewport({ width, height: width === 390 ? 844 : 900 });
      for (const scheme of ['light', 'dark']) {
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        const file = `publish-${name}${suffix || ''}${width === 390 ? '-390' : ''}-${scheme}.png`;
        await page.screenshot({ path: path.join(shots, file), fullPage: name !== 'game' });
      }
    }
    await page.setViewport({ width: 1366, height: 900 });
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
  check(request === expected.calls[0].request_body,
        'the request body is shown byte for byte (the rules text, kept once in the page, put back)');
  // Whether the first call's answer decided the move, as the library says.
  const decidedRow = await page.$eval('#calls details.call dl', (n) => n.textContent);
  const decidedWanted = expected.calls[0].decided === 1 ? 'yes: this answer decided the move'
    : expected.calls[0].decided === 0 ? 'no: no move was made with this answer' : 'not yet';
  check(decidedRow.includes(decidedWanted), `the first call says whether it decided the move (${decidedWanted})`);
  await shoot('game');

  await readerChecks(page, shoot);

  await browser.close();
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => { console.log(`FAIL - ${e.stack}`); process.exit(1); });
