// What a player sees and hears, in a real browser (Debian's chromium, headless): the board turned for Black,
// the move list in SAN and in the long form, stepping through it, PGN saved and loaded, sounds (a spied
// AudioContext), fullscreen (a spied requestFullscreen), the result panel, the hover names and Four Tac Toe's
// hover lines, the layout at 1280×720 and on a phone. Expected moves and texts come from the library loaded
// here in node, or from the rules of chess, never from the page.
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
import { initSync, Chess } from '../pkg/tesseract_wasm.js';

const WEB = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(WEB, 'pkg', 'tesseract_wasm_bg.wasm')) });
const SHOTS = process.env.SCREENSHOTS || mkdtempSync(join(tmpdir(), 'tesseract-reading-'));
mkdirSync(SHOTS, { recursive: true });

let server;
let address;
let browser;
const pageErrors = [];
let context;
let page;
const notFound = []; // every response of the page's server that was not found

// Counts the sounds' oscillators and the fullscreen requests, under the page's own code.
const SPIES = () => {
  window.__spy = { oscillators: 0, contexts: 0, fullscreen: 0 };
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) {
      super(...args);
      window.__spy.contexts += 1;
    }
    createOscillator() {
      window.__spy.oscillators += 1;
      return super.createOscillator();
    }
  };
  Element.prototype.requestFullscreen = function () {
    window.__spy.fullscreen += 1;
    return Promise.resolve();
  };
};

before(async () => {
  ({ address, server } = await serveWeb());
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 720 }, acceptDownloads: true });
  await context.addInitScript(SPIES);
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err));
  page.on('response', (r) => {
    if (r.status() === 404) notFound.push(r.url());
  });
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
const settled = () => settledIn(page);
const point = (cell) => cellPoint(page, cell);

async function clickCell(cell) {
  const p = await point(cell);
  await page.mouse.click(p.x, p.y);
  await settled();
}

async function newGame({ mode, army, white = 'human', black = 'human', level }) {
  await page.selectOption('#mode', mode);
  if (army) await page.selectOption('#army', army);
  if (mode !== 'tactoe') {
    await page.selectOption('#white', white);
    await page.selectOption('#black', black);
  }
  if (level) await page.selectOption('#level', level);
  await page.click('#new');
  await settled();
}

const sq = (name) => name.charCodeAt(0) - 97 + 8 * (Number(name[1]) - 1);

/** Plays UCI moves by clicks on their cells. */
async function playClicks(moves) {
  for (const m of moves) {
    await clickCell(sq(m.slice(0, 2)));
    await clickCell(sq(m.slice(2, 4)));
  }
}

test('the page fits 1280×720 without scrolling, and loads with no 404', async () => {
  // The page never scrolls: the board, the bar above it and the panel beside it (which scrolls on its own)
  // all end inside the window.
  const size = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    board: document.getElementById('board').getBoundingClientRect().toJSON(),
    aside: document.querySelector('aside').getBoundingClientRect().toJSON(),
    views: document.getElementById('views').getBoundingClientRect().toJSON(),
  }));
  assert.ok(size.width <= 1280, JSON.stringify(size));
  assert.ok(size.aside.bottom <= 720 && size.views.top >= 0, JSON.stringify(size));
  // White's own first row: the lowest cell of the 4D grid is inside the window.
  const corner = await point(0);
  assert.ok(corner.y < 720 && corner.y > 0, JSON.stringify(corner));
  assert.ok(size.board.bottom <= 720, JSON.stringify(size.board));
  assert.deepEqual(notFound, []);
});

test('chess: the move list is SAN, its moves step through the game, and the arrows too', async () => {
  await newGame({ mode: 'classic' });
  const line = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6'];
  await playClicks(line);
  const texts = await page.$$eval('#moves button.ply', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(texts, ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6']);
  const present = await state();
  // Back to after 1. e4: the board is the library's after one move, the game itself unchanged.
  await page.click('#moves button.ply[data-ply="1"]');
  await settled();
  let s = await state();
  const lib = Chess.start('classic', 1);
  lib.play('e2e4');
  assert.equal(s.shown, lib.board());
  assert.equal(s.viewPly, 1);
  assert.equal(s.cells, present.cells, 'the game itself is unchanged');
  assert.equal(await page.textContent('#viewing'), 'Move 1 of 6');
  await page.screenshot({ path: join(SHOTS, 'move-list.png') });
  // ← from move 1 is the start; three → later the board is after 2. Bc4.
  await page.keyboard.press('ArrowLeft');
  assert.equal((await state()).shown, Chess.start('classic', 1).board());
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  lib.play('e7e5');
  lib.play('f1c4');
  assert.equal((await state()).shown, lib.board());
  // A click on the board while looking at the past comes back to the present.
  await clickCell(sq('a2'));
  s = await state();
  assert.equal(s.viewPly, null);
  assert.equal(s.shown, present.cells);
  // The mate, and the result panel with the PGN to copy.
  await playClicks(['h5f7']);
  s = await state();
  assert.ok(s.over);
  assert.equal(await page.textContent('#result-title'), 'White wins');
  assert.equal(await page.textContent('#result-why'), 'by checkmate');
  const pgn = await page.inputValue('#result-pgn');
  assert.match(pgn, /1\. e4 e5 2\. Bc4 Nc6 3\. Qh5 Nf6 4\. Qxf7# 1-0/);
  await page.screenshot({ path: join(SHOTS, 'finished-game.png') });
});

test('sounds: move, capture, check, mate and illegal, through a real AudioContext; muting is remembered', async () => {
  await newGame({ mode: 'classic' });
  const before = (await page.evaluate(() => window.__tesseract.sounds)).length;
  const oscillators = await page.evaluate(() => window.__spy.oscillators);
  // 1. e4 (move) f5 2. exf5 (capture) g5 3. Qh5# (mate); then an illegal click: a piece chosen, a wrong cell.
  await playClicks(['e2e4', 'f7f5', 'e4f5', 'g7g5', 'd1h5']);
  let sounds = (await page.evaluate(() => window.__tesseract.sounds)).slice(before);
  assert.deepEqual(sounds, ['move', 'move', 'capture', 'move', 'mate']);
  await newGame({ mode: 'classic' });
  await playClicks(['e2e4', 'f7f5', 'd1h5']); // 2. Qh5+ is check (g6 blocks it)
  await clickCell(sq('g7'));
  await clickCell(sq('g5')); // g7g6 blocks the check, g7g5 does not: illegal
  sounds = (await page.evaluate(() => window.__tesseract.sounds)).slice(before);
  assert.deepEqual(sounds.slice(5), ['move', 'move', 'check', 'illegal']);
  const spy = await page.evaluate(() => window.__spy);
  assert.ok(spy.contexts === 1 && spy.oscillators > oscillators + 9, JSON.stringify(spy));
  // Muted: nothing is played, and the choice survives a reload.
  await page.click('#sound');
  assert.equal(await page.textContent('#sound'), 'Sound off');
  await page.reload();
  await page.waitForFunction(() => window.__tesseract?.ready, null, { timeout: 30_000 });
  assert.equal(await page.textContent('#sound'), 'Sound off');
  await newGame({ mode: 'classic' });
  await playClicks(['e2e4']);
  assert.deepEqual(await page.evaluate(() => window.__tesseract.sounds), []);
  assert.equal(await page.evaluate(() => window.__spy.oscillators), 0);
  await page.click('#sound');
  assert.equal(await page.textContent('#sound'), 'Sound on');
});

test('fullscreen is requested by its button', async () => {
  await page.click('#fullscreen');
  assert.equal(await page.evaluate(() => window.__spy.fullscreen), 1);
});

test('the board turns for Black: offline against an engine playing White, and by the Flip button', async () => {
  await newGame({ mode: 'classic', white: 'beginner', black: 'human' });
  await page.waitForFunction(() => window.__tesseract.state().turn === 'b' && !window.__tesseract.state().thinking);
  let s = await state();
  assert.ok(s.flipped);
  // Black's h8 is at the bottom left, White's a1 at the top right.
  const h8 = await point(sq('h8'));
  const a1 = await point(sq('a1'));
  assert.ok(h8.y > a1.y && h8.x < a1.x, `h8 ${JSON.stringify(h8)} a1 ${JSON.stringify(a1)}`);
  // A click still means the cell under it: Black plays e7e5 by clicks on the turned board.
  await clickCell(sq('e7'));
  await clickCell(sq('e5'));
  s = await state();
  assert.equal(s.history[1], 'e7e5');
  await page.click('#flip');
  await settled();
  assert.equal((await state()).flipped, false);
  assert.ok((await point(sq('a1'))).y > (await point(sq('h8'))).y);
  await page.click('#flip');
  // 4D: Black at the bottom means Black's plate (z = 5, w = 5) at the bottom left.
  await newGame({ mode: 'tesseract', army: 'standard', white: 'beginner', black: 'human' });
  await page.waitForFunction(() => window.__tesseract.state().turn === 'b' && !window.__tesseract.state().thinking, null, { timeout: 60_000 });
  const black = await point(624); // 5555
  const white = await point(0); // 1111
  assert.ok(black.y > white.y && black.x < white.x);
  await page.screenshot({ path: join(SHOTS, 'black-at-the-bottom.png') });
});

test('PGN: saved from the page, loaded back, and a PGN from elsewhere', async () => {
  await newGame({ mode: 'classic' });
  await playClicks(['e2e4', 'c7c5', 'g1f3']);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-pgn')]);
  const text = readFileSync(await download.path(), 'utf8');
  assert.match(text, /1\. e4 c5 2\. Nf3 \*/);
  assert.match(text, /\[White "human"\]/);
  await newGame({ mode: 'tesseract' });
  await page.setInputFiles('#load', { name: 'game.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(text) });
  await settled();
  let s = await state();
  assert.equal(s.error, '');
  assert.equal(s.mode, 'classic');
  assert.deepEqual(s.history, ['e2e4', 'c7c5', 'g1f3']);
  // Someone else's PGN: Chess960 by its FEN tag, and the page calls it Chess960.
  const fen = 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1'; // Chess960 no. 0
  const other = `[Event "casual"]\n[White "Ann"]\n[Black "Bob"]\n[Variant "Chess960"]\n[FEN "${fen}"]\n\n1. b3 g6 2. Bxh8 *\n`;
  const lib = Chess.fromText(fen, 1);
  // The game must replay in the library too (else the test itself is wrong).
  const record = JSON.parse(Chess.recordFromPgn(other));
  for (const m of record.moves) lib.play(m);
  await page.setInputFiles('#load', { name: 'other.pgn', mimeType: 'text/plain', buffer: Buffer.from(other) });
  await settled();
  s = await state();
  assert.equal(s.error, '');
  assert.equal(s.mode, 'chess960');
  assert.equal(s.cells, lib.board());
  assert.match(await page.textContent('#status'), /^Chess960: /);
  // A broken PGN changes nothing and says where.
  await page.setInputFiles('#load', { name: 'bad.pgn', mimeType: 'text/plain', buffer: Buffer.from('1. e4 e5 2. Ke3 *') });
  s = await state();
  assert.match(s.error, /Ke3/);
  assert.equal(s.cells, lib.board());
});

test('4D: the long form in the move list, cell names on hover, the engine in words', async () => {
  await newGame({ mode: 'tesseract', army: 'standard', white: 'human', black: 'beginner' });
  const lib = Chess.start('standard', 1);
  const first = JSON.parse(lib.legalMoves()).find((m) => m.text === '22132313');
  assert.ok(first, 'the Y-pawn double step is legal');
  await clickCell(first.from);
  await clickCell(first.to);
  await page.waitForFunction(() => window.__tesseract.state().history.length === 2, null, { timeout: 60_000 });
  const s = await state();
  const texts = await page.$$eval('#moves button.ply', (bs) => bs.map((b) => b.textContent));
  lib.play(s.history[0]);
  lib.play(s.history[1]);
  assert.deepEqual(texts, JSON.parse(lib.notation()));
  assert.equal(texts[0], 'Y2213-2313');
  // The engine's line in words, the raw figures under details.
  const words = await page.textContent('#engine');
  assert.match(words, /(better|even|mates)/, words);
  assert.match(await page.textContent('#engine-raw'), /depth \d+/);
  // Hover: the name of the cell and its piece.
  const p = await point(first.to);
  await page.mouse.move(p.x, p.y);
  await settled();
  assert.equal(await page.textContent('#hover'), '2313: white Y-pawn');
  await page.screenshot({ path: join(SHOTS, 'pieces.png') });
  // A new game clears the engine's line.
  await newGame({ mode: 'tesseract', army: 'standard', white: 'human', black: 'human' });
  assert.equal(await page.textContent('#engine'), '');
});

test('Four Tac Toe: hover lights the live lines through a cell; its position field says what it reads', async () => {
  await newGame({ mode: 'tactoe', level: 'human' });
  assert.match(await page.textContent('#position-label'), /Four Tac Toe/);
  // Hover the corner 1111 (cell 0): RULES.md §7, 14 playable lines through a corner, all open on an empty board.
  const p = await point(0);
  await page.mouse.move(p.x, p.y);
  await settled();
  assert.equal(await page.textContent('#hover'), '1111');
  const hints = await page.evaluate(() => window.__tesseract.hints());
  assert.equal(hints.length, 14);
  await page.screenshot({ path: join(SHOTS, 'tactoe-hover.png') });
  await page.mouse.move(0, 0);
});

test('a phone in portrait: the board fits the width, and a move is played by touch', async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const p = await phone.newPage();
  await p.goto(address);
  await p.waitForFunction(() => window.__tesseract?.ready, null, { timeout: 30_000 });
  const box = await p.evaluate(() => document.getElementById('board').getBoundingClientRect().toJSON());
  assert.ok(box.left >= 0 && box.right <= 390, JSON.stringify(box));
  await p.selectOption('#mode', 'classic');
  await p.selectOption('#black', 'human');
  await p.click('#new');
  for (const cell of [sq('e2'), sq('e4')]) {
    const at = await p.evaluate((c) => window.__tesseract.clientPoint(c), cell);
    await p.touchscreen.tap(at.x, at.y);
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  assert.deepEqual((await p.evaluate(() => window.__tesseract.state())).history, ['e2e4']);
  await p.screenshot({ path: join(SHOTS, 'phone.png') });
  await phone.close();
});

test('letters stay as the high-contrast option, remembered', async () => {
  await page.click('#letters');
  assert.equal(await page.getAttribute('#letters', 'aria-pressed'), 'true');
  await page.reload();
  await page.waitForFunction(() => window.__tesseract?.ready, null, { timeout: 30_000 });
  assert.equal(await page.getAttribute('#letters', 'aria-pressed'), 'true');
  await page.click('#letters');
  assert.equal(await page.getAttribute('#letters', 'aria-pressed'), 'false');
});

test('a change of game under the pointer, an undo while looking back, a closed result panel: nothing stale', async () => {
  await newGame({ mode: 'tesseract', army: 'standard' });
  const p = await point(600);
  await page.mouse.move(p.x, p.y);
  await settled();
  assert.equal((await state()).hover, 600);
  // New game with the pointer still there: the hovered 4D cell is forgotten (a 2D board has no cell 600).
  await page.selectOption('#mode', 'classic');
  await page.focus('#new');
  await page.keyboard.press('Enter');
  await settled();
  let s = await state();
  assert.equal(s.hover, -1);
  assert.equal(await page.isVisible('#hover'), false);
  // Looking back at move 1, then Undo: the present is shown, not a stale past.
  await playClicks(['e2e4', 'e7e5', 'g1f3']);
  await page.click('#moves button.ply[data-ply="1"]');
  await page.click('#undo');
  await settled();
  s = await state();
  assert.equal(s.viewPly, null);
  assert.equal(s.shown, s.cells);
  assert.deepEqual(s.history, ['e2e4', 'e7e5']);
  // A closed result panel stays closed while the moves are stepped through.
  await newGame({ mode: 'classic' });
  await playClicks(['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  assert.equal(await page.isVisible('#result'), true);
  await page.click('#result-close');
  await page.click('#moves button.ply[data-ply="2"]');
  assert.equal(await page.isVisible('#result'), false);
});
