// Online play between two browsers through the real relay (tesseract-relay, built here in the `ci` profile
// unless TESSERACT_RELAY names a binary, as scripts/test.sh does, and started with --static web): page A creates a match, page B opens the invitation link, in two browser
// contexts (each its own localStorage). Every move is made by clicks and checked on both pages against the
// line played and the library's own board (the same tesseract-wasm build, loaded here in node); the safety
// numbers are compared between the two pages. Also: two relay processes sharing Redis, a relay killed and
// started again mid-game, a page reloaded mid-game, a relay that flips a byte of a move frame, a stranger
// who floods the match with junk and replays, and one game per automatic end (tests/data/automatic-ends.txt:
// checkmate, stalemate, a dead position, fivefold repetition, the 75-move rule on 8×8 and on 5⁴).
//
// Run: bash scripts/web.sh --build && (cd web && node --test tests/online.test.mjs)
// Needs: cargo (the relay is built by the test unless TESSERACT_RELAY is set), Redis on 127.0.0.1:6379 (scripts/test.sh starts it),
// /usr/bin/chromium. Env: CHROMIUM, REDIS_URL (default redis://127.0.0.1:6379/), SCREENSHOTS (a folder for
// the online panel's picture), CARGO_TARGET_DIR, TESSERACT_RELAY (a relay binary to use instead of building).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './browser.mjs';
import { initSync, Chess, Online } from '../pkg/tesseract_wasm.js';
import { WebSocket } from 'ws';
import { startTamperRelay } from './tamper-relay.mjs';

const WEB = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(WEB, '..');
const TARGET = process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target');
// TESSERACT_RELAY: a relay binary to use instead of building one (said so in the output).
const RELAY_BIN = process.env.TESSERACT_RELAY || join(TARGET, 'ci', 'tesseract-relay');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/';
initSync({ module: readFileSync(join(WEB, 'pkg', 'tesseract_wasm_bg.wasm')) });


let browser;
const relays = new Set();
const started = Date.now();

before(async () => {
  // The relay binary, built here so that the test never runs an old one (cargo is quick when it is fresh).
  if (process.env.TESSERACT_RELAY) {
    console.log(`online tests: the relay is ${RELAY_BIN} (TESSERACT_RELAY), not built here`);
  } else {
    const build = spawnSync('cargo', ['build', '--profile', 'ci', '-p', 'tesseract-relay'], {
      cwd: ROOT,
      stdio: 'inherit',
      timeout: 20 * 60_000,
    });
    assert.equal(build.status, 0, 'cargo build --profile ci -p tesseract-relay');
  }
  await redisReachable();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  for (const r of relays) r.kill();
  console.log(`online tests: ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
});

/** Fails unless Redis answers PING (the Redis tests must not be skipped silently). */
async function redisReachable() {
  const { hostname, port } = new URL(REDIS_URL);
  const reply = await new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) }, () => socket.write('PING\r\n'));
    socket.setTimeout(3000, () => reject(new Error('no answer')));
    socket.on('data', (d) => {
      resolve(String(d));
      socket.end();
    });
    socket.on('error', reject);
  }).catch((err) => `error: ${err.message}`);
  assert.match(reply, /^\+PONG/, `Redis at ${REDIS_URL} (scripts/test.sh starts it): ${reply}`);
}

/** Starts the relay binary; resolves when it prints its address. `port` 0 picks a free one. */
async function startRelay({ port = 0, redis = false } = {}) {
  const args = ['--static', 'web', '--listen', `127.0.0.1:${port}`];
  if (redis) args.push('--redis', REDIS_URL);
  for (let tries = 0; ; tries++) {
    const proc = spawn(RELAY_BIN, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (c) => {
      err += c;
    });
    const origin = await new Promise((resolve) => {
      let out = '';
      proc.stdout.on('data', (chunk) => {
        out += chunk;
        const m = out.match(/relay listening on (http:\/\/[^/\s]+)\//);
        if (m) resolve(m[1]);
      });
      proc.on('exit', () => resolve(null));
    });
    if (origin) {
      relays.add(proc);
      proc.on('exit', () => relays.delete(proc));
      return {
        origin,
        port: Number(new URL(origin).port),
        /** Kills the process (no goodbye to the clients: the sockets just drop). */
        async kill() {
          const gone = new Promise((r) => proc.once('exit', r));
          proc.kill('SIGKILL');
          await gone;
        },
      };
    }
    // The port of a killed relay may take a moment to be free again.
    if (port === 0 || tries >= 20) throw new Error(`tesseract-relay ${args.join(' ')} did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Two pages, each in its own browser context (own storage), with their errors collected. */
async function twoPages() {
  const pages = [];
  for (const name of ['A', 'B']) {
    const context = await browser.newContext({ viewport: { width: 1180, height: 980 } });
    const page = await context.newPage();
    page.errors = [];
    page.on('pageerror', (err) => page.errors.push(`${name}: ${err.message}`));
    page.name = name;
    pages.push(page);
  }
  return pages;
}

async function closePages(...pages) {
  for (const p of pages) {
    assert.deepEqual(p.errors, [], `no uncaught error on page ${p.name}`);
    await p.context().close();
  }
}

const online = (page) => page.evaluate(() => window.__tesseract.online());

async function waitOnline(page, predicate, arg, timeout = 20_000) {
  try {
    await page.waitForFunction(
      ([source, a]) => {
        const s = window.__tesseract?.online?.();
        return s ? new Function('s', 'a', `return (${source})(s, a)`)(s, a) : false;
      },
      [predicate.toString(), arg],
      { timeout },
    );
  } catch (err) {
    throw new Error(`page ${page.name}: ${predicate} not reached: ${JSON.stringify(await online(page))}`, { cause: err });
  }
}

async function openPage(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.__tesseract?.ready && window.__tesseract.online()?.ready, null, {
    timeout: 30_000,
  });
}

/** Page A creates a match at `origin` (optionally through another relay); returns the invitation link. */
async function create(page, origin, { start = 'classic', color = 'w', number, relay } = {}) {
  await openPage(page, origin);
  if (relay) await page.fill('#relay-url', relay);
  await page.selectOption('#online-color', color);
  await page.selectOption('#online-start', start);
  if (number !== undefined) await page.fill('#online-number', String(number));
  await page.click('#online-create');
  await waitOnline(page, (s) => s.phase === 'handshake' && s.link);
  const { link } = await online(page);
  const fragment = new URL(link).hash;
  assert.match(fragment, /^#join=tw1\.[wb]\./, 'the invitation travels in the fragment');
  assert.equal(new URL(link).search, '', 'nothing of it in the query, which a server would see');
  assert.equal(await page.inputValue('#online-link'), link, 'the link is shown');
  return link;
}

/** Both pages past the handshake, with the same safety number shown on each. */
async function established(a, b) {
  await waitOnline(a, (s) => s.phase === 'playing');
  await waitOnline(b, (s) => s.phase === 'playing');
  const [sa, sb] = [await online(a), await online(b)];
  assert.match(sa.safety, /^[0-9a-f]{16}$/);
  assert.equal(sa.safety, sb.safety, 'both pages show the same safety number');
  assert.equal(sa.shownSafety.replaceAll(' ', ''), sa.safety);
  assert.equal(sb.shownSafety.replaceAll(' ', ''), sb.safety);
  assert.notEqual(sa.color, sb.color);
  return sa.safety;
}

/** Clicks the centre of a cell where the page drew it. */
async function clickCell(page, cell) {
  const p = await page.evaluate((c) => window.__tesseract.clientPoint(c), cell);
  assert.ok(p, `cell ${cell} is drawn on page ${page.name}`);
  await page.mouse.click(p.x, p.y);
}

/**
 * Plays `text` by two clicks on `mover` and checks it arrived on `other`: both pages then hold `line` (the
 * moves so far, this one included) in the session and on the board, and show the library's board after it.
 */
async function play(mover, other, line, start) {
  const text = line.at(-1);
  const before = Chess.start(start, 1);
  for (const m of line.slice(0, -1)) before.play(m);
  const entry = JSON.parse(before.legalMoves()).find((m) => m.text === text);
  assert.ok(entry, `${text} is legal after ${line.slice(0, -1).join(' ')}`);
  await waitOnline(mover, (s) => s.action === 'move');
  await clickCell(mover, entry.from);
  await clickCell(mover, entry.to);
  before.play(text);
  for (const page of [mover, other]) {
    await waitOnline(page, (s, n) => s.moves.length === n, line.length);
    const s = await online(page);
    assert.deepEqual(s.moves, line, `page ${page.name}: the session's moves`);
    assert.deepEqual(s.mirror, line, `page ${page.name}: the board's moves`);
    const shown = await page.evaluate(() => window.__tesseract.state());
    assert.equal(shown.cells, before.board(), `page ${page.name}: the board after ${text}`);
  }
  before.free();
}

/** Plays a line from the start, White's moves on `white`, Black's on `black` (`line` may start later). */
async function playLine(white, black, start, moves, from = []) {
  const line = [...from];
  for (const text of moves) {
    line.push(text);
    const whiteMoves = line.length % 2 === 1;
    await play(whiteMoves ? white : black, whiteMoves ? black : white, line, start);
  }
  return line;
}

/**
 * `n` plies from `start` after `line`, each the first legal move of the library's generator, a pawn's if
 * there is one (pawns are Y, W in 4D and P in 2D): a line that changes the picture.
 */
function firstMoves(start, n, line = []) {
  const game = Chess.start(start, 1);
  for (const m of line) game.play(m);
  const out = [];
  for (let i = 0; i < n; i++) {
    const board = game.board();
    const legal = JSON.parse(game.legalMoves());
    const pawn = legal.find((m) => 'YWP'.includes(board[m.from].toUpperCase()) && m.promotion === null);
    const text = (pawn ?? legal[0]).text;
    game.play(text);
    out.push(text);
  }
  game.free();
  return out;
}

function pagesByColor(a, b, sa) {
  return sa.color === 'w' ? [a, b] : [b, a];
}

const FOOLS_MATE = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];

test("two pages play fool's mate through the relay, to the end on both", async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  const link = await create(a, relay.origin, { start: 'classic', color: 'w' });
  assert.ok(link.startsWith(`${relay.origin}/#join=`), link);
  assert.match((await online(a)).status, /Waiting for your opponent to open the link/);
  await screenshot(a, 'online-invite.png');
  await openPage(b, link);
  await established(a, b);
  assert.equal((await online(b)).color, 'b');
  assert.equal((await online(a)).relay, `ws://${new URL(relay.origin).host}`, 'the page’s own origin by default');
  // Each page shows its own side at the bottom, and the offline buttons are off during the match.
  const shown = (page) => page.evaluate(() => window.__tesseract.state());
  assert.equal((await shown(a)).flipped, false);
  assert.equal((await shown(b)).flipped, true);
  for (const page of [a, b]) {
    for (const id of ['#undo', '#new', '#position-set', '#load', '#study-list button >> nth=0', '#daily', '#judge-run']) {
      assert.ok(await page.isDisabled(id), `${page.name}: ${id} is off`);
    }
  }
  await playLine(a, b, 'classic', FOOLS_MATE);
  // Black mates: 0-1 by checkmate on both pages, each told whether it won.
  for (const page of [a, b]) await waitOnline(page, (s) => s.result !== null);
  for (const page of [a, b]) {
    const s = await online(page);
    assert.deepEqual(s.result, { score: '0-1', winner: 'b', reason: 'checkmate' });
    assert.equal(s.alert, '');
  }
  assert.match((await online(a)).status, /0-1, Black wins by checkmate — you lose/);
  assert.match((await online(b)).status, /0-1, Black wins by checkmate — you win/);
  assert.equal(await a.textContent('#status'), (await online(a)).status);
  await closePages(a, b);
  await relay.kill();
});

test('a 4D game: several moves, a draw offered and declined, then a resignation', async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  // The creator takes Black, so the joiner (White) moves first and Black's page opens the handshake.
  const link = await create(a, relay.origin, { start: 'standard', color: 'b' });
  await openPage(b, link);
  await established(a, b);
  const [white, black] = pagesByColor(a, b, await online(a));
  assert.equal(white, b);
  const moves = firstMoves('standard', 6);
  const line = await playLine(white, black, 'standard', moves);
  assert.equal((await white.evaluate(() => window.__tesseract.state())).mode, 'tesseract');
  await screenshot(white, 'online.png');
  // White offers a draw; Black sees it, declines; White sees the decline and may not offer again now.
  await waitOnline(white, (s) => s.action === 'move');
  await white.click('#online-draw');
  await waitOnline(black, (s) => s.action === 'answerDraw');
  assert.match((await online(black)).status, /offers a draw/);
  await black.click('#online-decline');
  await waitOnline(white, (s) => s.log.some((e) => e.type === 'drawDeclined'));
  // Black resigns on its turn's wait: White wins on both pages.
  await black.click('#online-resign');
  for (const page of [a, b]) await waitOnline(page, (s) => s.result !== null);
  for (const page of [a, b]) {
    const s = await online(page);
    assert.deepEqual(s.result, { score: '1-0', winner: 'w', reason: 'resignation' });
    assert.deepEqual(s.moves, line);
  }
  assert.match((await online(white)).status, /White wins by resignation — you win/);
  await closePages(a, b);
  await relay.kill();
});

test('two relay processes sharing Redis: A on one, B on the other, a draw agreed', async () => {
  const [r1, r2] = [await startRelay({ redis: true }), await startRelay({ redis: true })];
  const [a, b] = await twoPages();
  const link = await create(a, r1.origin, { start: 'chess960', number: 0, color: 'w' });
  // B opens the same invitation on the other relay's origin (as behind a load balancer).
  const there = `${r2.origin}/${new URL(link).hash}`;
  await openPage(b, there);
  assert.equal((await online(b)).relay, `ws://${new URL(r2.origin).host}`);
  await established(a, b);
  const line = await playLine(a, b, 'chess960:0', firstMoves('chess960:0', 4));
  await a.click('#online-draw');
  await waitOnline(b, (s) => s.action === 'answerDraw');
  await b.click('#online-accept');
  for (const page of [a, b]) await waitOnline(page, (s) => s.result !== null);
  for (const page of [a, b]) {
    const s = await online(page);
    assert.deepEqual(s.result, { score: '1/2-1/2', winner: null, reason: 'draw-agreed' });
    assert.deepEqual(s.moves, line);
  }
  await closePages(a, b);
  await r1.kill();
  await r2.kill();
});

test('a threefold repetition claimed with the button', async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  await openPage(b, await create(a, relay.origin, { start: 'classic', color: 'w' }));
  await established(a, b);
  // The start position again after plies 4 and 8: its third time, White to move (FIDE 9.2).
  const dance = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
  await playLine(a, b, 'classic', dance);
  assert.equal(await a.isDisabled('#online-claim'), true, 'twice is not yet a claim');
  await playLine(a, b, 'classic', dance, dance);
  assert.equal(await b.isDisabled('#online-claim'), true, 'not Black’s move');
  assert.equal(await a.isDisabled('#online-claim'), false);
  await a.click('#online-claim');
  for (const page of [a, b]) await waitOnline(page, (s) => s.result !== null);
  for (const page of [a, b]) {
    assert.deepEqual((await online(page)).result, { score: '1/2-1/2', winner: null, reason: 'threefold' });
  }
  assert.match((await online(b)).status, /a draw by threefold repetition, claimed/);
  await closePages(a, b);
  await relay.kill();
});

test('the relay killed and started again on its port mid-game: both pages reconnect and play on', async () => {
  let relay = await startRelay();
  const [a, b] = await twoPages();
  await openPage(b, await create(a, relay.origin, { start: 'classic' }));
  await established(a, b);
  let line = await playLine(a, b, 'classic', ['e2e4', 'e7e5']);
  const { port } = relay;
  await relay.kill();
  for (const page of [a, b]) await waitOnline(page, (s) => !s.connected && /reconnecting in/.test(s.connection));
  // White moves while the relay is down: the frame is lost, and sent again once the pages reconnect.
  await clickCell(a, 6); // g1
  await clickCell(a, 21); // f3
  await waitOnline(a, (s) => s.moves.length === 3);
  relay = await startRelay({ port });
  for (const page of [a, b]) await waitOnline(page, (s) => s.connected, undefined, 30_000);
  line = [...line, 'g1f3'];
  await waitOnline(b, (s, n) => s.moves.length === n, line.length, 30_000);
  assert.deepEqual((await online(b)).moves, line);
  line = await playLine(a, b, 'classic', ['b8c6', 'f1b5'], line);
  for (const page of [a, b]) assert.deepEqual((await online(page)).moves, line);
  await closePages(a, b);
  await relay.kill();
});

test('a page reloaded mid-game resumes the match from its saved state', async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  await openPage(b, await create(a, relay.origin, { start: 'light', color: 'w' }));
  const safety = await established(a, b);
  let line = await playLine(a, b, 'light', firstMoves('light', 3));
  // Black's page reloads (its move to make): the same link, its stored state.
  await b.reload();
  await b.waitForFunction(() => window.__tesseract?.online()?.active, null, { timeout: 30_000 });
  let s = await online(b);
  assert.equal(s.log[0].how, 'resumed from this browser’s saved state');
  assert.deepEqual(s.moves, line);
  assert.equal(s.safety, safety, 'the same keys');
  line = await playLine(a, b, 'light', firstMoves('light', 2, line), line);
  // White's page (the creator's) reloads too: its address is the link.
  await a.reload();
  await a.waitForFunction(() => window.__tesseract?.online()?.active, null, { timeout: 30_000 });
  s = await online(a);
  assert.equal(s.color, 'w');
  assert.deepEqual(s.moves, line);
  line = await playLine(a, b, 'light', firstMoves('light', 2, line), line);
  await a.click('#online-resign');
  for (const page of [a, b]) await waitOnline(page, (x) => x.result?.reason === 'resignation');
  assert.deepEqual((await online(b)).result, { score: '0-1', winner: 'b', reason: 'resignation' });
  await closePages(a, b);
  await relay.kill();
});

test('the link opened in a second tab of the same browser: that tab stays out, and the match goes on', async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  const link = await create(a, relay.origin, { start: 'light', color: 'w' });
  await openPage(b, link);
  await established(a, b);
  let line = await playLine(a, b, 'light', firstMoves('light', 2));
  // A second tab of B's browser (same context: same storage, same locks) opens the same link.
  const second = await b.context().newPage();
  second.errors = [];
  second.on('pageerror', (err) => second.errors.push(`B2: ${err.message}`));
  second.name = 'B2';
  await openPage(second, link);
  const s = await online(second);
  assert.match(s.alert, /open in another tab/);
  assert.equal(s.active, false, 'the second tab does not play');
  // Its frames never reached the relay: the match goes on between the first two tabs.
  line = await playLine(a, b, 'light', firstMoves('light', 2, line), line);
  assert.equal((await online(a)).phase, 'playing');
  assert.equal((await online(b)).phase, 'playing');
  await closePages(a, b, second);
  await relay.kill();
});

test('a relay that flips a byte of a move frame: the page drops it, and the genuine move arrives after the silence', async () => {
  const relay = await startRelay(); // serves the page
  const tamper = await startTamperRelay();
  const [a, b] = await twoPages();
  const link = await create(a, relay.origin, { start: 'classic', color: 'w', relay: tamper.url });
  assert.equal(new URL(link).hash.includes('relay='), true, 'a relay other than the default travels in the link');
  await openPage(b, link);
  assert.equal((await online(b)).relay, tamper.url);
  await established(a, b);
  await clickCell(a, 12); // e2
  await clickCell(a, 28); // e4
  await waitOnline(b, (s) => s.log.some((e) => e.type === 'dropped'));
  assert.equal(tamper.tampered.length, 1, 'one frame was changed');
  let s = await online(b);
  const dropped = s.log.find((e) => e.type === 'dropped');
  assert.equal(dropped.kind, 'Authentication');
  assert.equal(dropped.message, 'authentication failed for a move frame');
  assert.equal(s.phase, 'playing', 'a frame that does not authenticate never stops the match');
  assert.equal(s.alert, '');
  assert.equal(s.warning, '', 'one dropped frame is no reason to worry the player');
  // The genuine move, sent again by White after 2 s of silence, is played on both pages.
  await waitOnline(b, (x) => x.moves.length === 1, undefined, 10_000);
  s = await online(b);
  assert.deepEqual(s.moves, ['e2e4']);
  assert.deepEqual(s.mirror, ['e2e4']);
  assert.equal(s.dropped, 1);
  await playLine(a, b, 'classic', ['e7e5', 'g1f3'], ['e2e4']);
  await closePages(a, b);
  await tamper.close();
  await relay.kill();
});

/**
 * A stranger on the relay: a WebSocket client of its own on the match's id that records every frame the
 * relay forwards to it and, every `everyMs`, sends random bytes, a replay of a recorded frame and a copy
 * with one bit flipped. Resolves to { sent, close() }.
 */
async function startStranger(origin, matchId, everyMs = 250) {
  const url = `${origin.replace('http', 'ws')}/match/${matchId}`;
  const seen = [];
  const stats = { sent: 0, closes: 0 };
  let ws;
  let stopped = false;
  const open = () =>
    new Promise((resolve) => {
      ws = new WebSocket(url);
      ws.binaryType = 'nodebuffer';
      ws.on('message', (data, isBinary) => {
        if (isBinary) seen.push(Buffer.from(data));
      });
      ws.on('open', resolve);
      ws.on('error', () => {});
      ws.on('close', () => {
        stats.closes += 1;
        if (!stopped) setTimeout(open, 200); // thrown out by a limit: come back
        resolve();
      });
    });
  await open();
  const pick = () => seen[Math.floor(Math.random() * seen.length)];
  const timer = setInterval(() => {
    if (ws.readyState !== WebSocket.OPEN) return;
    const junk = [Buffer.from(Array.from({ length: 1 + Math.floor(Math.random() * 200) }, () => Math.random() * 256))];
    if (seen.length > 0) {
      junk.push(pick());
      const flipped = Buffer.from(pick());
      flipped[Math.floor(Math.random() * flipped.length)] ^= 1 << Math.floor(Math.random() * 8);
      junk.push(flipped);
    }
    for (const j of junk) ws.send(j, { binary: true });
    stats.sent += junk.length;
  }, everyMs);
  return {
    stats,
    seen,
    close() {
      stopped = true;
      clearInterval(timer);
      ws.close();
    },
  };
}

test('a stranger floods the match with junk and replays: both pages warn, and the game is played to its end', async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  const link = await create(a, relay.origin, { start: 'classic', color: 'w' });
  const matchId = decodeURIComponent(new URL(link).hash).split('.')[3];
  assert.match(matchId, /^[0-9a-f]{32}$/);
  const stranger = await startStranger(relay.origin, matchId);
  await openPage(b, link);
  await established(a, b);
  // The stranger has seen (and replays) the handshake: a few more moves give it more to replay.
  await playLine(a, b, 'classic', FOOLS_MATE);
  for (const page of [a, b]) await waitOnline(page, (s) => s.result !== null);
  await new Promise((r) => setTimeout(r, 1000)); // the stranger goes on after the end, too
  stranger.close();
  for (const page of [a, b]) {
    const s = await online(page);
    assert.deepEqual(s.result, { score: '0-1', winner: 'b', reason: 'checkmate' }, `page ${page.name}`);
    assert.equal(s.alert, '', `page ${page.name}: nothing fatal`);
    assert.ok(s.dropped >= 3, `page ${page.name} dropped ${s.dropped}`);
    assert.match(s.warning, /frames from the relay did not authenticate and were ignored/, `page ${page.name}`);
    assert.equal(await page.textContent('#online-warning'), s.warning, 'shown on the page');
  }
  assert.ok(stranger.stats.sent >= 10, `the stranger sent ${stranger.stats.sent} frames`);
  assert.ok(stranger.seen.length >= 4, 'the stranger saw the genuine frames it replayed');
  await screenshot(b, 'online-stranger.png');
  await closePages(a, b);
  await relay.kill();
});

test('a lost move while a stranger floods its sender: the junk is silence, and the move is sent again', async () => {
  const relay = await startRelay(); // serves the page
  const tamper = await startTamperRelay({ lose: true });
  const [a, b] = await twoPages();
  const link = await create(a, relay.origin, { start: 'classic', color: 'w', relay: tamper.url });
  const matchId = decodeURIComponent(new URL(link).hash).split('.')[3];
  await openPage(b, link);
  await established(a, b);
  // The stranger sends junk every 100 ms, to White too: if White took it for traffic, it would never find
  // the 2 s of silence after which it sends its lost move again.
  const stranger = await startStranger(tamper.url, matchId, 100);
  await clickCell(a, 12); // e2
  await clickCell(a, 28); // e4
  await waitOnline(b, (s) => s.moves.length === 1, undefined, 15_000);
  stranger.close();
  assert.equal(tamper.tampered.length, 1, 'the first move frame was lost');
  assert.deepEqual((await online(b)).moves, ['e2e4']);
  const s = await online(a);
  assert.ok(s.dropped > 0, 'White was sent junk meanwhile');
  assert.ok(s.log.some((e) => e.type === 'retransmit'), 'White sent its move again after a silence');
  await closePages(a, b);
  await tamper.close();
  await relay.kill();
});

/** Plays `moves` through the page's test hook (the handler a click reaches, with the cells instead of the
 *  pointer's position), each arriving on the other page before the next; White moves first. */
async function playByHook(white, black, moves) {
  const line = [];
  for (const text of moves) {
    line.push(text);
    const [mover, other] = line.length % 2 === 1 ? [white, black] : [black, white];
    await waitOnline(mover, (s) => s.action === 'move');
    assert.equal(await mover.evaluate((t) => window.__tesseract.playByCells(t), text), true, `${text} is played`);
    await waitOnline(other, (s, n) => s.moves.length === n, line.length);
  }
  return line;
}

const AUTOMATIC_ENDS = readFileSync(join(ROOT, 'tests', 'data', 'automatic-ends.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [end, start, ...moves] = l.trim().split(/\s+/);
    return { end, start, moves };
  });

const WORDS = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  'dead-draw': 'insufficient material',
  fivefold: 'fivefold repetition',
  'seventy-five-moves': 'the 75-move rule',
};

// Checkmate is the first test of this file (fool's mate by clicks); the others here.
for (const { end, start, moves } of AUTOMATIC_ENDS.filter((g) => g.end !== 'checkmate')) {
  const byClicks = moves.length <= 20;
  test(`an automatic end through the relay: ${end} (${start}, ${moves.length} plies${byClicks ? ', by clicks' : ''})`, async () => {
    const relay = await startRelay();
    const [a, b] = await twoPages();
    await openPage(b, await create(a, relay.origin, { start, color: 'w' }));
    await established(a, b);
    const line = byClicks ? await playLine(a, b, start, moves) : await playByHook(a, b, moves);
    for (const page of [a, b]) await waitOnline(page, (s) => s.result !== null);
    const winner = end === 'checkmate' ? (moves.length % 2 === 1 ? 'w' : 'b') : null;
    const score = winner === null ? '1/2-1/2' : winner === 'w' ? '1-0' : '0-1';
    for (const page of [a, b]) {
      const s = await online(page);
      assert.deepEqual(s.result, { score, winner, reason: end }, `page ${page.name}`);
      assert.deepEqual(s.moves, line);
      assert.equal(s.alert, '', `page ${page.name}: ${s.alert}`);
      assert.equal(s.dropped, 0);
      assert.ok(s.status.includes(`by ${WORDS[end]}`), `page ${page.name}: ${s.status}`);
    }
    await closePages(a, b);
    await relay.kill();
  });
}

test('a damaged saved state is refused on reload, and the opponent’s match goes on', async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  await openPage(b, await create(a, relay.origin, { start: 'classic', color: 'w' }));
  await established(a, b);
  const { matchId } = await online(b);
  // One hex digit of the stored state changed (as a disk error or another script might).
  const changed = await b.evaluate((id) => {
    const key = `tesseract.match.${id}`;
    const record = JSON.parse(localStorage.getItem(key));
    const at = 200;
    const digit = record.state[at] === '0' ? '1' : '0';
    record.state = record.state.slice(0, at) + digit + record.state.slice(at + 1);
    localStorage.setItem(key, JSON.stringify(record));
    return record.state.length > at;
  }, matchId);
  assert.ok(changed);
  await b.reload();
  await b.waitForFunction(() => window.__tesseract?.online()?.alert, null, { timeout: 30_000 });
  let s = await online(b);
  assert.equal(s.active, false, 'not resumed, and not joined anew (a second handshake would abort the match)');
  assert.match(s.alert, /The saved state of this match cannot be resumed: .*checksum does not match/);
  // Not JSON at all.
  await b.evaluate((id) => localStorage.setItem(`tesseract.match.${id}`, '{not json'), matchId);
  await b.reload();
  await b.waitForFunction(() => window.__tesseract?.online()?.alert, null, { timeout: 30_000 });
  s = await online(b);
  assert.equal(s.active, false);
  assert.match(s.alert, /damaged/);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal((await online(a)).phase, 'playing', 'A saw nothing it had to refuse');
  await closePages(a, b);
  await relay.kill();
});

test('the identity key: kept across reloads, exported, imported, and the one the opponent sees', async () => {
  const relay = await startRelay();
  const [a, b] = await twoPages();
  await openPage(a, relay.origin);
  const shown = await a.textContent('#identity');
  assert.match(shown, /^[0-9a-f]{32}$/);
  await a.reload();
  await openPage(a, relay.origin);
  assert.equal(await a.textContent('#identity'), shown, 'the same identity after a reload');
  await a.click('#online details > summary'); // "Your identity: …" opens the key's form
  await a.click('#identity-export');
  const exported = await a.inputValue('#identity-key');
  assert.equal(Online.identityOf(exported), shown, 'the exported key is the shown identity’s');
  // Refused: not a key.
  await a.fill('#identity-key', 'f'.repeat(64));
  await a.click('#identity-import button[type=submit]');
  assert.match((await online(a)).note, /Not imported: the identity key/);
  assert.equal(await a.textContent('#identity'), shown);
  // A key made elsewhere (here, in node): the page takes it, and the opponent sees its identity.
  const key = Online.generateIdentity();
  await a.fill('#identity-key', key);
  await a.click('#identity-import button[type=submit]');
  assert.equal(await a.textContent('#identity'), Online.identityOf(key));
  await openPage(b, await create(a, relay.origin, { start: 'classic' }));
  await established(a, b);
  const peer = (await online(b)).log.find((e) => e.type === 'established').peer;
  assert.equal(peer, Online.identityOf(key));
  await closePages(a, b);
  await relay.kill();
});

test('a broken invitation link is refused with the reason, and nothing is played', async () => {
  const relay = await startRelay();
  const [a] = await twoPages();
  await openPage(a, `${relay.origin}/#join=tw1.w.classic.0123.beef`);
  await a.waitForFunction(() => window.__tesseract.online().alert !== '', null, { timeout: 10_000 });
  const s = await online(a);
  assert.equal(s.active, false);
  assert.match(s.alert, /The invitation link cannot be used: the invitation's match id: expected 32 hex digits/);
  await closePages(a);
  await relay.kill();
});

/** Writes a picture of the page into $SCREENSHOTS, when set. */
async function screenshot(page, name) {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, name) });
}
