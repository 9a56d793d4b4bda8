// The page in a real browser: Debian's chromium, headless, driven by playwright-core. The expected moves
// come from the library itself (the same tesseract-wasm build, loaded here in node), never from the page:
// the page must light exactly the cells the rules give, draw 4D lines straight, and play whole games.
//
// Run: bash scripts/web.sh --build && (cd web && node --test tests/)
// Env: CHROMIUM (default /usr/bin/chromium), SCREENSHOTS (a folder to write the views' pictures into).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cellPoint, launchChromium, serveWeb, settled as settledIn } from './browser.mjs';
import { initSync, Chess } from '../pkg/tesseract_wasm.js';

const WEB = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(WEB, 'pkg', 'tesseract_wasm_bg.wasm')) });

let server;
let address;
let browser;
const pageErrors = [];
let page;


before(async () => {
  ({ address, server } = await serveWeb());
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1180, height: 860 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err));
  await open();
});

after(async () => {
  // An uncaught error on the page fails the run, even when every check above passed.
  assert.deepEqual(pageErrors.map(String), []);
  await browser?.close();
  server?.kill();
});

async function open() {
  await page.goto(address);
  await page.waitForFunction(() => window.__tesseract?.ready, null, { timeout: 30_000 });
}

const state = () => page.evaluate(() => window.__tesseract.state());

/** Clicks the centre of a cell where the page says it drew it. */
async function clickCell(cell) {
  const p = await cellPoint(page, cell);
  await page.mouse.click(p.x, p.y);
}

/** Waits until the page has drawn a frame after the last change (rendering is at the next animation frame). */
const settled = () => settledIn(page);

/** Waits until no engine is thinking and it is `turn`'s move (or the game is over). */
async function humanToMove(turn = 'w') {
  await page.waitForFunction(
    (t) => {
      const s = window.__tesseract.state();
      return !s.thinking && (s.turn === t || s.over);
    },
    turn,
    { timeout: 60_000 },
  );
}

async function newGame({ mode, army, number, white = 'human', black = 'beginner', level }) {
  await page.selectOption('#mode', mode);
  if (army) await page.selectOption('#army', army);
  if (number !== undefined) await page.fill('#number', String(number));
  if (mode !== 'tactoe') {
    await page.selectOption('#white', white);
    await page.selectOption('#black', black);
  }
  if (level) await page.selectOption('#level', level);
  await page.click('#new');
  await settled();
}

/** The library's targets of the piece on `cell` (castling: both the rook's and the king's cell). */
function libraryTargets(game, cell) {
  const moves = JSON.parse(game.movesFrom(cell));
  return new Set(moves.flatMap((m) => (m.kingTo === null ? [m.to] : [m.to, m.kingTo])));
}

/** The game the page shows, rebuilt in node from its start and its moves. */
function replay(startName, history, seed = 1) {
  const game = Chess.start(startName, seed);
  for (const text of history) game.play(text); // throws if the page played an illegal move
  return game;
}

test('the page loads the standard Tesseract start', async () => {
  const s = await state();
  const lib = Chess.start('standard', 1);
  assert.equal(s.mode, 'tesseract');
  assert.equal(s.cells, lib.board());
  assert.equal(s.turn, 'w');
  const metrics = await page.evaluate(() => window.__tesseract.metrics);
  assert.ok(metrics.wasmReadyMs > 0);
  console.log(`# page load to WebAssembly ready: ${metrics.wasmReadyMs} ms`);
});

test('clicking a piece lights exactly its legal moves (every white piece of the start)', async () => {
  const lib = Chess.start('standard', 1);
  const board = lib.board();
  let withMoves = 0;
  for (let cell = 0; cell < board.length; cell++) {
    const ch = board[cell];
    if (ch === '.' || ch !== ch.toUpperCase()) continue;
    await clickCell(cell);
    await settled();
    const s = await state();
    const want = libraryTargets(lib, cell);
    assert.deepEqual(new Set(s.lit.map((l) => l.cell)), want, `${ch} on ${lib.cellName(cell)}`);
    assert.equal(s.selected, want.size ? cell : -1);
    if (want.size) withMoves++;
    // Click the same piece again to deselect it.
    if (want.size) {
      await clickCell(cell);
      await settled();
      assert.equal((await state()).lit.length, 0);
    }
  }
  assert.ok(withMoves >= 10, `${withMoves} white pieces have moves at the start`);
});

test('a queen alone lights straight lines on screen along all 80 directions', async () => {
  // White queen on (3,3,3,3), white king (1,1,1,2), black king (5,4,1,2): the queen's rays are open but for
  // the board's edge.
  const pieces = { '3333': 'Q', '1112': 'K', '5412': 'k' };
  const tfen = tfenOf(pieces, 'w');
  await page.fill('#position-text', tfen);
  await page.click('#position button');
  await settled();
  const queen = cellIndex([3, 3, 3, 3]);
  await clickCell(queen);
  await settled();
  const s = await state();
  const lib = Chess.fromText(tfen, 1);
  assert.deepEqual(new Set(s.lit.map((l) => l.cell)), libraryTargets(lib, queen));
  const centre = await page.evaluate((c) => window.__tesseract.canvasPoint(c), queen);
  // Group the lit cells by their 4D direction from the queen; each group must be collinear on screen with
  // the queen, at distances proportional to the steps, on one side of it.
  const groups = new Map();
  for (const l of s.lit) {
    const d = coordsOf(l.cell).map((v, k) => v - 3);
    const steps = Math.max(...d.map(Math.abs));
    const dir = d.map((v) => v / steps).join(',');
    if (!groups.has(dir)) groups.set(dir, []);
    groups.get(dir).push({ ...l, steps });
  }
  assert.equal(groups.size, 80, 'the queen reaches along all 80 directions from the centre');
  for (const [dir, cells] of groups) {
    const unit = cells.find((c) => c.steps === 1);
    assert.ok(unit, `${dir}: the first step is lit`);
    const ux = unit.x - centre.x;
    const uy = unit.y - centre.y;
    for (const c of cells) {
      assert.ok(Math.abs(c.x - centre.x - c.steps * ux) < 0.5, `${dir} x of step ${c.steps}`);
      assert.ok(Math.abs(c.y - centre.y - c.steps * uy) < 0.5, `${dir} y of step ${c.steps}`);
    }
  }
  await clickCell(queen);
});

test('a game of several moves against the beginner tier', async () => {
  await newGame({ mode: 'tesseract', army: 'standard', white: 'human', black: 'beginner' });
  const started = Date.now();
  for (let ply = 0; ply < 6; ply++) {
    const s = await state();
    assert.equal(s.turn, 'w');
    const lib = replay('standard', s.history);
    // The first legal move of a piece that can move, chosen by the library.
    const moves = JSON.parse(lib.legalMoves());
    const m = moves[(ply * 7) % moves.length];
    await clickCell(m.from);
    await settled();
    await clickCell(m.to);
    await settled();
    await humanToMove('w');
    const after = await state();
    assert.equal(after.history.length, 2 * ply + 2, after.error);
    assert.equal(after.history[2 * ply], m.text);
    // The engine's reply is legal: replaying the page's history in the library accepts every move.
    assert.equal(replay('standard', after.history).board(), after.cells);
  }
  const metrics = await page.evaluate(() => window.__tesseract.metrics);
  console.log(`# first engine reply (beginner, including the worker's start): ${metrics.firstReplyMs} ms; replies ${metrics.replies.join(', ')} ms; 6 moves in ${Date.now() - started} ms`);
});

test('the page answers while the master thinks (the engine runs in a Web Worker)', async () => {
  await newGame({ mode: 'tesseract', army: 'standard', white: 'master', black: 'human' });
  const t0 = Date.now();
  // If the search ran on the page's thread, these clicks and reads would wait for it to end.
  await page.click('#view-tesseract');
  let s = await state();
  assert.equal(s.view, 'tesseract');
  assert.ok(s.thinking, 'the master is still thinking while the page switches views');
  await page.click('#view-grid');
  await humanToMove('b');
  s = await state();
  assert.equal(s.history.length, 1);
  replay('standard', s.history);
  const info = await page.textContent('#engine');
  console.log(`# the master's first move from the standard start in the browser: ${Date.now() - t0} ms (${info})`);
});

test('nothing is drawn while nobody moves', async () => {
  const before = await page.evaluate(() => window.__tesseract.frames);
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(await page.evaluate(() => window.__tesseract.frames), before);
});

test('the tesseract view, and screenshots of both views', async () => {
  const dir = process.env.SCREENSHOTS || mkdtempSync(join(tmpdir(), 'tesseract-web-'));
  mkdirSync(dir, { recursive: true });
  // Select the piece of the side to move with the most moves, so the pictures show lit lines.
  const shown = await state();
  const lib = replay('standard', shown.history);
  const moves = JSON.parse(lib.legalMoves());
  const count = new Map();
  for (const m of moves) count.set(m.from, (count.get(m.from) ?? 0) + 1);
  const busiest = [...count].sort((a, b) => b[1] - a[1])[0][0];
  await clickCell(busiest);
  await settled();
  assert.equal((await state()).lit.length, count.get(busiest));
  await page.screenshot({ path: join(dir, 'grid.png') });
  await page.click('#view-tesseract');
  await settled();
  let s = await state();
  assert.equal(s.view, 'tesseract');
  // Every piece is drawn on the tesseract: its point is found, and a click on a white piece selects it.
  const pieces = [...s.cells].flatMap((ch, i) => (ch === '.' ? [] : [i]));
  for (const cell of pieces) {
    assert.ok(await page.evaluate((c) => window.__tesseract.clientPoint(c), cell), `cell ${cell} drawn`);
  }
  await page.fill('#angle', '60');
  await page.dispatchEvent('#angle', 'input');
  await settled();
  await page.screenshot({ path: join(dir, 'tesseract.png') });
  // Turning draws frames; stopping it stops them.
  const f0 = await page.evaluate(() => window.__tesseract.frames);
  await page.click('#turn');
  await new Promise((r) => setTimeout(r, 300));
  await page.click('#turn');
  await settled();
  const f1 = await page.evaluate(() => window.__tesseract.frames);
  assert.ok(f1 > f0 + 3, `turning drew ${f1 - f0} frames`);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await page.evaluate(() => window.__tesseract.frames), f1);
  await page.click('#view-grid');
  await settled();
  s = await state();
  assert.equal(s.view, 'grid');
  await clickCell(busiest);
  await settled();
  assert.equal((await state()).selected, -1);
  console.log(`# screenshots in ${dir}`);
});

test('save, reload the page, load: the same game', async () => {
  const before = await state();
  assert.ok(before.history.length > 0);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  const file = await download.path();
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(saved.moves, before.history);
  await open();
  assert.equal((await state()).history.length, 0);
  await page.setInputFiles('#load', file);
  await settled();
  await humanToMove(before.turn);
  const after = await state();
  assert.deepEqual(after.history, before.history);
  assert.equal(after.cells, before.cells);
  // A broken file is refused with a message, and the game stays.
  const broken = join(mkdtempSync(join(tmpdir(), 'tesseract-web-')), 'broken.json');
  writeFileSync(broken, '{"start": "nonsense", "seed": 1, "white": "human", "black": "club", "moves": []}');
  await page.setInputFiles('#load', broken);
  await settled();
  const kept = await state();
  assert.match(kept.error, /cannot load/);
  assert.deepEqual(kept.history, before.history);
});

test('2D chess: castling by a click on the king\'s destination, promotion by a choice', async () => {
  await newGame({ mode: 'classic', white: 'human', black: 'human' });
  const sq = (name) => name.charCodeAt(0) - 97 + 8 * (Number(name[1]) - 1);
  for (const [from, to] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6'], ['f1', 'c4'], ['g8', 'f6'], ['e1', 'g1']]) {
    await clickCell(sq(from));
    await settled();
    await clickCell(sq(to));
    await settled();
  }
  assert.deepEqual((await state()).history, ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'e1g1']);
  // Promotion: a white pawn on e7.
  await page.fill('#position-text', '8/4P3/8/8/8/8/8/k6K w - - 0 1');
  await page.click('#position button');
  await settled();
  await clickCell(sq('e7'));
  await settled();
  await clickCell(sq('e8'));
  await settled();
  const choices = await page.$$eval('#promotion button', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(choices.sort(), ['B', 'N', 'Q', 'R']);
  await page.click('#promotion button[data-move="e7e8n"]');
  await settled();
  const s = await state();
  assert.deepEqual(s.history, ['e7e8n']);
  assert.equal(s.cells[sq('e8')], 'N');
});

test('undo when the engine plays White: it moves again, and choosing a game in the form changes nothing yet', async () => {
  await newGame({ mode: 'classic', white: 'beginner', black: 'human' });
  await humanToMove('b');
  assert.equal((await state()).history.length, 1);
  // Nothing of the person's to take back: the engine's move goes, and the engine moves again.
  await page.click('#undo');
  await humanToMove('b');
  const s = await state();
  assert.equal(s.history.length, 1, 'the engine moved again after the undo');
  assert.ok(!s.thinking);
  // Choosing another game in the form shows its fields but leaves the game on the board as it is.
  await page.selectOption('#mode', 'tactoe');
  await settled();
  const same = await state();
  assert.equal(same.mode, 'classic');
  assert.deepEqual(same.history, s.history);
  const lib = replay('classic', same.history);
  const m = JSON.parse(lib.legalMoves())[0];
  await clickCell(m.from);
  await settled();
  await clickCell(m.to);
  await humanToMove('b');
  assert.equal((await state()).history[1], m.text, 'the chess game goes on');
  assert.equal((await state()).error, '');
});

test('Chess960 and Four Tac Toe on the same page', async () => {
  await newGame({ mode: 'chess960', number: 0, white: 'human', black: 'beginner' });
  let s = await state();
  const lib = Chess.start('chess960:0', 1);
  assert.equal(s.cells, lib.board());
  await newGame({ mode: 'tactoe', level: '1' });
  s = await state();
  assert.equal(s.mode, 'tactoe');
  assert.equal(s.cells.length, 81);
  assert.equal(s.cells[40], '#', 'the centre is forbidden');
  await clickCell(0);
  await page.waitForFunction(() => window.__tesseract.state().history.length === 2, null, { timeout: 30_000 });
  s = await state();
  assert.equal(s.cells[0], 'X');
  assert.equal([...s.cells].filter((c) => c === 'O').length, 1);
  await clickCell(40); // the forbidden centre: nothing happens
  await settled();
  assert.equal((await state()).history.length, 2);
});

// ------------------------------------------------------------------------------------ 4D helpers

function coordsOf(idx) {
  const c = [];
  for (let k = 0; k < 4; k++) {
    c.push((idx % 5) + 1);
    idx = Math.floor(idx / 5);
  }
  return c;
}

function cellIndex(c) {
  return c[0] - 1 + 5 * (c[1] - 1) + 25 * (c[2] - 1) + 125 * (c[3] - 1);
}

/** TFEN (RULES.md §4) of a few pieces given as {"xyzw": letter}. */
function tfenOf(pieces, side) {
  const at = (x, y, z, w) => pieces[`${x}${y}${z}${w}`];
  const ws = [];
  for (let w = 5; w >= 1; w--) {
    const zs = [];
    for (let z = 5; z >= 1; z--) {
      const ys = [];
      for (let y = 5; y >= 1; y--) {
        let row = '';
        let run = 0;
        for (let x = 1; x <= 5; x++) {
          const p = at(x, y, z, w);
          if (p) {
            if (run) row += run;
            run = 0;
            row += p;
          } else run++;
        }
        if (run) row += run;
        ys.push(row);
      }
      zs.push(ys.join('/'));
    }
    ws.push(zs.join('//'));
  }
  return `${ws.join('///')} ${side} - - 0 1`;
}
