// The tutorial and the studies in a real browser (Debian's chromium, headless): the first visit's offer,
// lesson 1 completed by clicks, study 1 solved by clicks, a wrong key refuted and taken back, the hint,
// and progress that survives a reload. The lessons' solutions and the studies' keys come from
// tesseract-verify (through the same WebAssembly build, loaded here in node), never from the page.
//
// Run: bash scripts/web.sh --build && (cd web && node --test tests/)
// Env: CHROMIUM (default /usr/bin/chromium), SCREENSHOTS (a folder to write the pictures into).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cellPoint, launchChromium, serveWeb, settled as settledIn } from './browser.mjs';
import { initSync, Chess, studies, lessons, lessonSolution, dailyPuzzle } from '../pkg/tesseract_wasm.js';

const WEB = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(WEB, 'pkg', 'tesseract_wasm_bg.wasm')) });
const SHOTS = process.env.SCREENSHOTS || mkdtempSync(join(tmpdir(), 'tesseract-learn-'));
mkdirSync(SHOTS, { recursive: true });

let server;
let address;
let browser;
const pageErrors = [];
let page;

before(async () => {
  ({ address, server } = await serveWeb());
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err));
  await page.goto(address);
  await page.waitForFunction(() => window.__tesseract?.ready, null, { timeout: 30_000 });
});

after(async () => {
  // An uncaught error on the page fails the run, even when every check above passed.
  assert.deepEqual(pageErrors.map(String), []);
  await browser?.close();
  server?.kill();
});

const state = () => page.evaluate(() => window.__tesseract.state());
const learn = () => page.evaluate(() => window.__tesseract.learn());
const settled = () => settledIn(page);

async function clickCell(cell) {
  const p = await cellPoint(page, cell);
  await page.mouse.click(p.x, p.y);
  await settled();
}

/** The cells of a move text (the library's own entry for it, in the position `fen` with its history). */
function cellsOf(game, text) {
  const m = JSON.parse(game.legalMoves()).find((e) => e.text === text);
  assert.ok(m, `${text} is legal`);
  return m;
}

/** Plays `text` by two clicks, as a person does. */
async function clickMove(game, text) {
  const m = cellsOf(game, text);
  // A lesson lights its piece's moves by itself: then one click on the target plays.
  if ((await state()).selected !== m.from) await clickCell(m.from);
  await clickCell(m.to);
  // Several moves end on that cell (a promotion: the puzzle of 2026-12-06's key promotes): the page asks
  // which, as a player chooses.
  if (await page.$eval('#promotion', (box) => !box.hidden && box.childElementCount > 0)) {
    await page.click(`#promotion button[data-move="${text}"]`);
    await settled();
  }
}

const notBusy = () => page.waitForFunction(() => !window.__tesseract.learn().busy, null, { timeout: 120_000 });

test('a first visit is offered the tutorial, which opens lesson 1', async () => {
  assert.equal(await page.isVisible('#welcome'), true);
  await page.click('#welcome-start');
  const l = await learn();
  assert.deepEqual([l.kind, l.number], ['lesson', 1]);
  assert.equal(await page.isVisible('#welcome'), false);
  const first = JSON.parse(lessons())[0];
  assert.equal(await page.textContent('#learn-text'), first.explain);
  assert.equal((await state()).cells, Chess.fromText(first.fen, 1).board());
  await page.screenshot({ path: join(SHOTS, 'lesson.png') });
});

test('lesson 1 completed by clicks along the proof\'s solution; only the taught piece moves', async () => {
  const first = JSON.parse(lessons())[0];
  // The taught piece's lines are lit from the start.
  assert.deepEqual([(await state()).selected], first.pieces);
  // A piece the lesson does not teach lights nothing.
  const board = Chess.fromText(first.fen, 1);
  const other = JSON.parse(board.legalMoves()).find((m) => !first.pieces.includes(m.from));
  if (other) {
    await clickCell(other.from);
    assert.equal((await state()).selected, -1);
  }
  for (const text of JSON.parse(lessonSolution(1))) {
    const fen = await page.evaluate(() => window.__tesseract.state().text);
    await clickMove(Chess.fromText(fen, 1), text);
  }
  const l = await learn();
  assert.equal(l.over, true);
  assert.match(l.message, /^Done in \d+ move/);
  assert.ok(l.progress.lessons['1'] >= 1);
});

test('study 1 solved by clicks, with the hint; a wrong key refuted and taken back', async () => {
  const study = JSON.parse(studies())[0];
  await page.click('#study-list button[data-number="1"]');
  let l = await learn();
  assert.deepEqual([l.kind, l.number], ['study', 1]);
  assert.match(await page.textContent('#status'), new RegExp(`mates in ${study.n}`));
  const start = Chess.fromText(study.fen, 1);
  const key = cellsOf(start, study.lineText[0]);
  // The hint lights the key's piece.
  await page.click('#learn-hint');
  await notBusy();
  assert.equal((await state()).selected, key.from);
  await clickCell(key.from); // unselect
  // A wrong first move: Black's refutation is played and named, and the study is over until taken back.
  const wrong = JSON.parse(start.legalMoves()).find((m) => m.text !== study.lineText[0] && m.from !== key.from);
  await clickMove(start, wrong.text);
  await notBusy();
  l = await learn();
  assert.equal(l.over, true);
  assert.match(l.message, /Take back and try again/);
  await page.screenshot({ path: join(SHOTS, 'study-refuted.png') });
  await page.click('#learn-back');
  assert.equal((await state()).cells, start.board());
  // The key and the main line to mate.
  const played = Chess.fromText(study.fen, 1);
  for (let i = 0; i < study.lineText.length; i += 2) {
    await clickMove(played, study.lineText[i]);
    await notBusy();
    played.play(study.lineText[i]);
    if (i + 1 < study.lineText.length) played.play(study.lineText[i + 1]);
  }
  l = await learn();
  assert.equal(l.over, true);
  assert.match(l.message, new RegExp(`^Solved in ${study.n}!`));
  assert.equal((await state()).cells, played.board());
  assert.equal(l.progress.studies['1'], study.n);
  await page.screenshot({ path: join(SHOTS, 'study-solved.png') });
});

test('progress survives a reload, and the welcome is not offered again', async () => {
  await page.reload();
  await page.waitForFunction(() => window.__tesseract?.ready, null, { timeout: 30_000 });
  const l = await learn();
  assert.equal(l.kind, null);
  assert.equal(l.progress.studies['1'], JSON.parse(studies())[0].n);
  assert.ok(l.progress.lessons['1'] >= 1);
  assert.equal(await page.textContent('#study-list button[data-number="1"]'), '1 ✓');
  assert.equal(await page.textContent('#lesson-list button[data-number="1"]'), '1 ✓');
  assert.equal(await page.isVisible('#welcome'), false);
});

test('every lesson and study on the page is tesseract-verify\'s, and each opens', async () => {
  assert.equal(await page.locator('#lesson-list button').count(), 8);
  assert.equal(await page.locator('#study-list button').count(), 12);
  for (const [kind, list] of [['lesson', JSON.parse(lessons())], ['study', JSON.parse(studies())]]) {
    for (const item of list) {
      await page.click(`#${kind}-list button[data-number="${item.number}"]`);
      assert.equal((await state()).cells, Chess.fromText(item.fen, 1).board(), `${kind} ${item.number}`);
    }
  }
  await page.click('#learn-leave');
  assert.equal((await learn()).kind, null);
});

test('the composer\'s check: a study is sound with its key, asked longer it mates faster, and a cooked mate', async () => {
  const study = JSON.parse(studies())[1];
  await page.click('#judge-box summary');
  await page.fill('#judge-fen', study.fen);
  await page.fill('#judge-n', String(study.n));
  await page.click('#judge-run');
  await page.waitForFunction(() => document.getElementById('judge-result').dataset.verdict, null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#judge-result', 'data-verdict'), 'sound');
  assert.match(await page.textContent('#judge-result'), new RegExp(`unique key ${study.key.replace(/[+#]/g, '\\$&')}`));
  // Two rooks: Ra8# and Rb8# both mate, a cooked mate in 1 (the rules of chess).
  await page.evaluate(() => delete document.getElementById('judge-result').dataset.verdict);
  await page.fill('#judge-fen', '6k1/8/6K1/8/8/8/8/RR6 w - - 0 1');
  await page.fill('#judge-n', '1');
  await page.click('#judge-run');
  await page.waitForFunction(() => document.getElementById('judge-result').dataset.verdict, null, { timeout: 60_000 });
  assert.equal(await page.textContent('#judge-result'), 'Cooked: 2 first moves mate in 1: Ra8#, Rb8#.');
  // Junk is refused with the reason.
  await page.evaluate(() => delete document.getElementById('judge-result').dataset.verdict);
  await page.fill('#judge-fen', 'junk');
  await page.click('#judge-run');
  await page.waitForFunction(() => document.getElementById('judge-result').dataset.verdict, null, { timeout: 60_000 });
  assert.match(await page.textContent('#judge-result'), /not a valid position text/);
  await page.screenshot({ path: join(SHOTS, 'composer-check.png') });
});

test('the puzzle of the day: composed from the date, the same as the library\'s, solved by clicks, marked', async () => {
  const d = new Date();
  const today = d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
  const puzzle = JSON.parse(dailyPuzzle(today));
  assert.equal(puzzle.n, today % 2 === 0 ? 2 : 3);
  await page.click('#daily');
  await page.waitForFunction(() => window.__tesseract.learn().kind === 'study', null, { timeout: 180_000 });
  const l = await learn();
  assert.equal(l.number, `daily:${today}`);
  assert.equal((await state()).cells, Chess.fromText(puzzle.fen, 1).board());
  assert.match(await page.textContent('#status'), /^Puzzle of \d{4}-\d{2}-\d{2}: White to move mates in [23]$/);
  const played = Chess.fromText(puzzle.fen, 1);
  for (let i = 0; i < puzzle.lineText.length; i += 2) {
    await clickMove(played, puzzle.lineText[i]);
    await notBusy();
    played.play(puzzle.lineText[i]);
    if (i + 1 < puzzle.lineText.length) played.play(puzzle.lineText[i + 1]);
  }
  assert.match((await learn()).message, new RegExp(`^Solved in ${puzzle.n}!`));
  assert.equal(await page.textContent('#daily'), 'Puzzle of the day ✓');
  await page.click('#learn-leave');
});
