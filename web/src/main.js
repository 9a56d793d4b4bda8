// The page: a game from the crates (tesseract-wasm), drawn by the grid view or the tesseract view, the
// engine in a Web Worker. Every rule lives in the crates: the page asks for the legal moves of a cell, plays
// the move text the crates gave, and draws the board text they return.

import { loadWasm } from './wasm.js';
import { GridView } from './grid.js';
import { TesseractView } from './tesseract.js';
import { coords } from './layout.js';
import { OnlinePanel } from './online.js';
import { Synth } from './sound.js';
import { PieceSet } from './pieces.js';
import { Learn, moveName as nameOf } from './learn.js';

const PLAYERS = ['human', 'beginner', 'club', 'expert', 'master'];
const $ = (id) => document.getElementById(id);

const app = {
  api: null,
  mode: 'tesseract', // tesseract | classic | chess960 | tactoe
  game: null, // api.Chess or api.TacToe
  players: { w: 'human', b: 'beginner' }, // chess: who plays each side
  level: '2', // Four Tac Toe: who plays O ('human' or the engine's level); X is the person at the page
  claims: [], // Four Tac Toe: the claimed cells in order, for the move list
  selected: -1,
  targets: new Map(), // target cell -> the legal moves of the selected piece that a click there may mean
  view: 'grid',
  turning: false,
  worker: null,
  request: 0, // id of the engine request in flight, 0 when none
  sequence: 0,
  frames: 0,
  scheduled: false,
  metrics: { wasmReadyMs: null, firstReplyMs: null, replies: [] },
  saved: null,
  error: '',
  online: null, // the online panel; its session, when not null, owns the game shown
  viewPly: null, // the ply shown when stepping through the move list (null: the present)
  past: null, // the game at viewPly (a Chess of its own), or null
  flip: false, // the reader turned the board by hand (on top of the side it turns to by itself)
  hover: -1, // the cell under the pointer
  seen: { plies: 0, pieces: 0 }, // what the last sound was about: the game's length and its piece count
  engineLine: null, // the last engine reply {words, raw}, cleared on a new game
  synth: new Synth(),
  pieces: null, // the SVG piece set (PieceSet), once the WebAssembly module is loaded
  learn: null, // the Learn panel (lessons and studies); its `current`, when not null, owns the game shown
  asks: new Map(), // worker requests of the Learn panel in flight: id -> {resolve, reject}
};

/** Whether a lesson or a study is shown. */
const learning = () => app.learn !== null && app.learn.current !== null;

/** Whether an online match is shown (the board is then its mirror, moved by the session). */
const online = () => app.online !== null && app.online.session !== null;

const grid = new GridView($('board'), (letter, dims) => app.pieces?.image(letter, dims) ?? null);
const tesseract = new TesseractView($('board'), (letter, dims) => app.pieces?.image(letter, dims) ?? null);

// ---------------------------------------------------------------------------------------------- drawing

/** What the views draw: the same state for both. */
function drawState() {
  const g = app.game;
  if (app.mode === 'tactoe') {
    const last = app.claims.length ? app.claims[app.claims.length - 1] : -1;
    return {
      dims: 4,
      n: 3,
      tactoe: true,
      cells: g.owners(),
      selected: -1,
      targets: [],
      last: last >= 0 ? { from: last, to: last } : null,
      check: -1,
      lines: JSON.parse(g.completedLines()),
      hover: app.hover,
      hints: app.hover >= 0 ? JSON.parse(g.hints(app.hover, app.level === 'human' ? g.toMove() : 'X')).lines : [],
    };
  }
  const shown = app.past ?? g;
  const cells = shown.board();
  const mover = shown.turn();
  const enemy = (ch) => ch !== '.' && (ch === ch.toUpperCase()) !== (mover === 'w');
  return {
    dims: shown.dims(),
    n: shown.side(),
    tactoe: false,
    cells,
    selected: app.past ? -1 : app.selected,
    targets: app.past ? [] : [...app.targets.keys()].map((cell) => ({ cell, capture: enemy(cells[cell]) })),
    last: JSON.parse(shown.lastMove()),
    check: shown.kingInCheck(),
    lines: [],
    flipped: bottomSide() === 'b',
    hover: app.hover,
    goal: learning() ? app.learn.target() : -1,
  };
}

/** The side whose pieces are drawn at the bottom: the person's (online: this page's colour; offline: Black when
 *  only Black is played by a person), turned over again by the Flip button. */
function bottomSide() {
  let side = 'w';
  if (online()) side = app.online.session.color();
  else if (learning()) side = 'w';
  else if (app.mode !== 'tactoe' && app.players.b === 'human' && app.players.w !== 'human') side = 'b';
  if (app.flip) side = side === 'w' ? 'b' : 'w';
  return side;
}

/** Draws one frame at the next animation frame (several requests before it make one frame). */
function render() {
  if (app.scheduled) return;
  app.scheduled = true;
  requestAnimationFrame(() => {
    app.scheduled = false;
    drawNow();
  });
}

function drawNow() {
  if (!app.game) return;
  app.frames += 1;
  if (app.hover >= 0) $('hover').textContent = cellLabel(app.hover); // the piece on it may have changed
  const state = drawState();
  if (app.view === 'grid') grid.draw(state);
  else tesseract.draw(state);
}

function turnStep() {
  if (!app.turning) return;
  tesseract.angle = (tesseract.angle + 0.012) % (2 * Math.PI);
  $('angle').value = Math.round(tesseract.angle * 100);
  drawNow();
  requestAnimationFrame(turnStep);
}

// ------------------------------------------------------------------------------------------- the panel

function sideName(turn) {
  return turn === 'w' ? 'White' : 'Black';
}

const GAME_NAMES = { tesseract: 'Tesseract', chess: 'Chess', chess960: 'Chess960' };

/** The name of the game on the board, for people: "Tesseract", "Chess", "Chess960", "Four Tac Toe". */
function gameName() {
  return app.mode === 'tactoe' ? 'Four Tac Toe' : GAME_NAMES[app.game.variant()];
}

function updatePanel() {
  const g = app.game;
  let text;
  if (app.mode === 'tactoe') {
    const [x, o] = JSON.parse(g.scores());
    text = g.isOver() ? `${g.outcome()} (X ${x}, O ${o})` : `X ${x}, O ${o}; ${g.toMove()} to claim`;
  } else {
    const end = g.status();
    text = end ? `Game over: ${end}` : `${sideName(g.turn())} to move${g.inCheck() ? ', in check' : ''}`;
  }
  if (app.request) text += ' (the engine is thinking…)';
  // Online, the match panel says which game it is; offline the status line does.
  $('status').textContent = online() ? app.online.status() : learning() ? app.learn.status() : `${gameName()}: ${text}`;
  $('error').textContent = app.error;
  showEngineLine();
  showMoves();
  showResult();
  showControls();
  $('position-text').placeholder = g.text();
}

/** The texts of the moves played: SAN in 2D, the long form in 4D, cell names in Four Tac Toe. */
function moveTexts() {
  const g = app.game;
  if (learning() && app.learn.names()) return app.learn.names();
  return app.mode === 'tactoe' ? app.claims.map((c) => g.cellName(c)) : JSON.parse(g.notation());
}

/** The readable name (SAN, or the long form in 4D) of the legal move `text` in the game as it stands. */
function moveName(text) {
  return nameOf(app.game, text);
}

/** The move list: a button a move, numbered in pairs; a click shows the game after that move. */
function showMoves() {
  const texts = moveTexts();
  const list = $('moves');
  list.replaceChildren();
  if (learning() && app.learn.names()) {
    // A lesson's moves are all the learner's (the other side passes): one a line, no stepping back.
    texts.forEach((t) => {
      const li = document.createElement('li');
      li.textContent = t;
      list.append(li);
    });
    $('step-nav').hidden = true;
    return;
  }
  // A game set from a position with Black to move starts with Black's move: its first pair has a gap.
  let blackFirst = false;
  if (app.mode !== 'tactoe') {
    const start = app.game.at(0);
    blackFirst = start.turn() === 'b';
    start.free();
  }
  const plies = blackFirst ? [null, ...texts] : texts;
  const current = app.viewPly ?? texts.length;
  for (let i = 0; i < plies.length; i += 2) {
    const li = document.createElement('li');
    for (let k = i; k < Math.min(i + 2, plies.length); k++) {
      if (plies[k] === null) {
        li.append('…');
        continue;
      }
      const ply = blackFirst ? k : k + 1; // the number of moves played once this one is
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'ply';
      b.dataset.ply = String(ply);
      b.textContent = plies[k];
      if (ply === current) b.classList.add('current');
      b.addEventListener('click', () => showPly(ply));
      li.append(b);
    }
    list.append(li);
  }
  $('step-nav').hidden = texts.length === 0;
  $('present').hidden = app.viewPly === null;
  $('viewing').textContent = app.viewPly === null ? '' : `Move ${app.viewPly} of ${texts.length}`;
  if (app.viewPly === null) list.scrollTop = list.scrollHeight;
  else list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

/** Shows the game after `ply` moves (the present for the whole game's length); the game itself is unchanged. */
function showPly(ply) {
  if (!app.game || app.mode === 'tactoe') return;
  const length = JSON.parse(app.game.history()).length;
  ply = Math.max(0, Math.min(ply, length));
  app.past?.free();
  app.past = null;
  app.viewPly = ply === length ? null : ply;
  if (app.viewPly !== null) app.past = app.game.at(ply);
  app.selected = -1;
  app.targets = new Map();
  hidePromotion();
  refresh();
}

/** Forgets the past position shown (the game changed under it: an undo, a take back, a new game). */
function forgetPast() {
  app.past?.free();
  app.past = null;
  app.viewPly = null;
}

/** Back to the game as it stands. */
function toPresent() {
  if (app.viewPly !== null) showPly(Infinity);
}

/** The engine's last line in words, and the raw figures under "details". */
function showEngineLine() {
  const line = app.engineLine;
  const who = app.mode === 'tactoe' ? `level ${app.level}` : mover();
  $('engine').textContent = app.request ? `${who} is thinking…` : line?.words ?? '';
  $('engine-raw').textContent = line?.raw ?? '';
  $('engine-details').hidden = !line?.raw;
}

/** The end of a game: who won, why, and the moves in PGN to copy. */
function showResult() {
  const box = $('result');
  if (!over() || learning() || app.resultClosed) {
    box.hidden = true;
    return;
  }
  const g = app.game;
  let title;
  let why;
  if (app.mode === 'tactoe') {
    const [x, o] = JSON.parse(g.scores());
    title = x === o ? 'A draw' : x > o ? 'X wins' : 'O wins';
    why = `${x} lines to ${o}`;
    $('result-pgn').value = '';
  } else {
    if (online()) {
      why = app.online.status();
      title = g.winner() ? `${sideName(g.winner())} wins` : 'Game over';
    } else {
      const result = g.result();
      title = result === '1-0' ? 'White wins' : result === '0-1' ? 'Black wins' : 'A draw';
      why = `by ${g.status().split(',')[0]}`;
    }
    $('result-pgn').value = pgnText();
  }
  $('result-title').textContent = title;
  $('result-why').textContent = why;
  $('result-pgn-box').hidden = app.mode === 'tactoe';
  box.hidden = false;
}

/** Buttons that change the game on the board are off while an online match owns it, or while the past is shown. */
function showControls() {
  const match = online() || learning();
  for (const id of ['undo', 'load-label', 'position-set', 'new']) {
    const el = $(id);
    el.classList.toggle('off', match);
    if ('disabled' in el) el.disabled = match;
  }
  $('load').disabled = match;
  // The Learn panel's buttons would leave the match: off during one too.
  for (const b of document.querySelectorAll('#learn button')) {
    b.disabled = online();
    b.title = online() ? 'Leave the online match first' : b.dataset.title ?? '';
  }
  $('new').title = online() ? 'Leave the online match first' : learning() ? 'Leave the lesson or study first' : '';
  $('save-pgn').hidden = app.mode === 'tactoe';
  $('position-label').firstChild.textContent =
    app.mode === 'tactoe' ? 'Position (Four Tac Toe text) ' : 'Position (FEN or TFEN) ';
}

/** Plays the sound of what just happened on the board, once per change of the game's length. */
function announce() {
  const g = app.game;
  if (!g) return;
  if (learning()) {
    // The Learn panel says what each move was (a study's move and its answer come together).
    app.seen = { plies: -2, pieces: 0 };
    return;
  }
  const plies = app.mode === 'tactoe' ? app.claims.length : JSON.parse(g.history()).length;
  const board = app.mode === 'tactoe' ? g.owners() : g.board();
  const pieces = [...board].filter((ch) => ch !== '.' && ch !== '#').length;
  const before = app.seen;
  app.seen = { plies, pieces, lines: app.mode === 'tactoe' ? JSON.parse(g.completedLines()).length : 0 };
  if (plies !== before.plies + 1) return; // a new game, a load, an undo: no sound
  if (app.mode === 'tactoe') {
    app.synth.play(g.isOver() ? 'end' : app.seen.lines > (before.lines ?? 0) ? 'capture' : 'move');
    return;
  }
  const end = g.status();
  if (end?.startsWith('checkmate')) app.synth.play('mate');
  else if (end) app.synth.play('end');
  else if (g.inCheck()) app.synth.play('check');
  else if (pieces < before.pieces) app.synth.play('capture');
  else app.synth.play('move');
}

function refresh() {
  announce();
  updatePanel();
  render();
}

function fail(message) {
  // An error may quote its input (a PGN token, a position text): a few lines of it are enough.
  if (message.length > 400) message = `${message.slice(0, 400)}…`;
  app.error = message;
  $('error').textContent = message;
}

// ----------------------------------------------------------------------------------------------- games

function freeGame() {
  app.learn?.close();
  dropGame();
}

/** Frees the game shown (the Learn panel keeps its lesson or study). */
function dropGame() {
  stopEngine();
  forgetPast();
  app.hover = -1;
  $('hover').hidden = true;
  app.resultClosed = false;
  app.engineLine = null;
  app.seen = { plies: -2, pieces: 0 };
  if (app.game) app.game.free();
  app.game = null;
  app.selected = -1;
  app.targets = new Map();
  app.claims = [];
  hidePromotion();
}

function readSetup() {
  app.mode = $('mode').value;
  app.players = { w: $('white').value, b: $('black').value };
  app.level = $('level').value;
  showSetupFields();
}

function seedValue() {
  const seed = Number($('seed').value);
  return Number.isSafeInteger(seed) && seed >= 0 ? seed : 1;
}

/** A new game from the form. */
function newGame() {
  readSetup();
  const { api } = app;
  let game;
  try {
    if (app.mode === 'tactoe') game = new api.TacToe();
    else {
      const name =
        app.mode === 'tesseract' ? $('army').value : app.mode === 'classic' ? 'classic' : `chess960:${$('number').value}`;
      game = api.Chess.start(name, seedValue());
    }
  } catch (err) {
    fail(String(err.message ?? err));
    return;
  }
  leaveOnline();
  freeGame();
  app.game = game;
  app.flip = false;
  app.error = '';
  refresh();
  maybeEngine();
}

/** Stops showing an online match (its saved state stays: the link resumes it). */
function leaveOnline() {
  if (online()) app.online.leave(false);
}

/** Shows the form's fields for `mode` (the game chosen in the form), and the views the game on the board has. */
function showSetupFields(mode = app.mode) {
  for (const label of document.querySelectorAll('#setup label[data-for]')) {
    const want = label.dataset.for;
    const show = want === 'chess' ? mode !== 'tactoe' : want === mode;
    label.hidden = !show;
  }
  const fourD = app.mode === 'tesseract' || app.mode === 'tactoe' || (app.game && app.mode !== 'tactoe' && app.game.dims() === 4);
  $('view-tesseract').disabled = !fourD;
  if (!fourD && app.view !== 'grid') setView('grid');
}

/** Who moves now: 'human' or the engine's tier (chess) or level (Four Tac Toe). */
function mover() {
  if (learning()) return 'human';
  if (app.mode === 'tactoe') return app.game.toMove() === 'O' ? app.level : 'human';
  return app.players[app.game.turn()];
}

function over() {
  if (app.mode === 'tactoe') return app.game.isOver();
  // Online, the match's session says when the game is over: a repetition or the 50-move rule ends it only
  // when a player claims it (offline, the page claims for both, as the engine does).
  if (online()) return app.online.over();
  if (learning()) return app.learn.over();
  return app.game.status() !== undefined;
}

/** Plays a move text (chess) or claims a cell (Four Tac Toe) for whoever is to move. */
function playMove(move) {
  if (learning()) {
    app.selected = -1;
    app.targets = new Map();
    hidePromotion();
    app.learn.play(move, app.game).then((sound) => {
      if (sound) app.synth.play(sound);
      refresh();
    });
    refresh();
    return;
  }
  if (online()) {
    // The session checks and sends the move, then plays it on the board shown.
    if (app.online.play(move)) app.error = '';
    else app.synth.play('illegal');
    app.selected = -1;
    app.targets = new Map();
    hidePromotion();
    refresh();
    return;
  }
  try {
    if (app.mode === 'tactoe') {
      app.game.claim(move);
      app.claims.push(move);
    } else app.game.play(move);
    app.error = '';
  } catch (err) {
    fail(String(err.message ?? err));
    app.synth.play('illegal');
  }
  app.selected = -1;
  app.targets = new Map();
  hidePromotion();
  refresh();
  maybeEngine();
}

function undo() {
  if (!app.game) return;
  if (online()) {
    fail('no undo in an online match');
    return;
  }
  stopEngine();
  forgetPast();
  const step = () => {
    if (app.mode === 'tactoe') {
      const cell = app.game.undo();
      if (cell >= 0) app.claims.pop();
      return cell >= 0;
    }
    return app.game.undo() !== undefined;
  };
  // Against the engine, take back its reply too, so that the person is to move again.
  if (step() && mover() !== 'human' && oneHuman()) step();
  app.selected = -1;
  app.targets = new Map();
  hidePromotion();
  app.error = '';
  refresh();
  // The engine moves again if it is to move (nothing was left to take back, or it plays first).
  maybeEngine();
}

function oneHuman() {
  if (app.mode === 'tactoe') return app.level !== 'human';
  return (app.players.w === 'human') !== (app.players.b === 'human');
}

// ---------------------------------------------------------------------------------------------- engine

function worker() {
  if (!app.worker) {
    app.worker = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
    app.worker.onmessage = onEngineReply;
    app.worker.onerror = (e) => {
      fail(`engine worker: ${e.message}`);
      app.request = 0;
      updatePanel();
    };
  }
  return app.worker;
}

function stopEngine() {
  if (app.request && app.worker) {
    // A search cannot be interrupted from outside the worker: end the worker (a new one starts on demand).
    // The Learn panel's requests in the same worker end with it, and say so.
    app.worker.terminate();
    app.worker = null;
    for (const { reject } of app.asks.values()) reject(new Error('the worker was stopped for a new game'));
    app.asks.clear();
  }
  app.request = 0;
}

function maybeEngine() {
  if (!app.game || over() || app.request) return;
  const who = mover();
  if (who === 'human') return;
  const id = ++app.sequence;
  app.request = id;
  const started = performance.now();
  app.requestStarted = started;
  const message =
    app.mode === 'tactoe'
      ? { id, kind: 'tactoe', text: app.game.text(), level: Number(who) }
      : { id, kind: 'chess', record: app.game.record(app.players.w, app.players.b), tier: who };
  worker().postMessage(message);
  updatePanel();
}

/** Sends the worker a request of the Learn panel; resolves with its reply, rejects with its error. */
function ask(message) {
  const id = ++app.sequence;
  return new Promise((resolve, reject) => {
    app.asks.set(id, { resolve, reject });
    worker().postMessage({ id, ...message });
  });
}

function onEngineReply(event) {
  const reply = event.data;
  const asked = app.asks.get(reply.id);
  if (asked) {
    app.asks.delete(reply.id);
    if (reply.ok) asked.resolve(reply);
    else asked.reject(new Error(reply.error));
    return;
  }
  if (reply.id !== app.request) return; // an answer to a game that has since changed
  app.request = 0;
  const elapsed = Math.round(performance.now() - app.requestStarted);
  if (app.metrics.firstReplyMs === null) app.metrics.firstReplyMs = elapsed;
  app.metrics.replies.push(elapsed);
  if (!reply.ok) {
    fail(`engine: ${reply.error}`);
    updatePanel();
    return;
  }
  if (app.mode === 'tactoe') {
    app.engineLine = { words: `Level ${app.level} claimed ${app.game.cellName(reply.cell)}.`, raw: `${reply.ms} ms` };
    playMove(reply.cell);
  } else {
    const who = `${sideName(app.game.turn())} (${app.players[app.game.turn()]})`;
    const san = moveName(reply.move);
    app.engineLine = {
      words: `${who} played ${san}: ${reply.words}.`,
      raw: `${reply.move}  score ${reply.score}  depth ${reply.depth}  ${reply.nodes} nodes  ${reply.ms} ms`,
    };
    playMove(reply.move);
  }
}

// ---------------------------------------------------------------------------------------------- clicks

function cellAt(x, y) {
  if (app.view === 'grid') return grid.layout ? grid.layout.pick(x, y) : null;
  return tesseract.pick(x, y);
}

function onCell(cell) {
  if (app.viewPly !== null) {
    // Stepping through the past: a click on the board comes back to the present.
    toPresent();
    return;
  }
  if (!app.game || over() || mover() !== 'human' || app.request) return;
  if (online() && !app.online.myMove()) return;
  if (learning() && !app.learn.canMove()) return;
  if (app.mode === 'tactoe') {
    if (app.game.canClaim(cell)) playMove(cell);
    return;
  }
  const choices = app.targets.get(cell);
  if (app.selected >= 0 && choices) {
    if (choices.length === 1) playMove(choices[0].text);
    else showPromotion(cell, choices);
    return;
  }
  hidePromotion();
  const moves =
    cell === null || cell === app.selected ? [] : JSON.parse((learning() && app.learn.movesFrom(cell)) || app.game.movesFrom(cell));
  // A piece was chosen and the click is neither one of its moves nor another piece that moves: illegal.
  if (app.selected >= 0 && cell !== null && cell !== app.selected && moves.length === 0) app.synth.play('illegal');
  app.selected = moves.length ? cell : -1;
  app.targets = new Map();
  for (const m of moves) {
    for (const target of m.kingTo === null || m.kingTo === m.to ? [m.to] : [m.to, m.kingTo]) {
      if (!app.targets.has(target)) app.targets.set(target, []);
      app.targets.get(target).push(m);
    }
  }
  render();
}

/** Several moves end on one cell: promotions (one per piece), or a king step and a castling. */
function showPromotion(cell, moves) {
  const box = $('promotion');
  box.replaceChildren();
  for (const m of moves) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = m.promotion ?? (m.kingTo !== null ? 'castle' : m.text);
    button.title = m.text;
    button.dataset.move = m.text;
    button.onclick = () => playMove(m.text);
    box.append(button);
  }
  const [x, y] = grid.layout ? grid.layout.centre(coords(cell, app.game.dims(), app.game.side())) : [0, 0];
  const canvas = $('board');
  box.style.left = `${canvas.offsetLeft + x}px`;
  box.style.top = `${canvas.offsetTop + y}px`;
  box.hidden = false;
}

function hidePromotion() {
  $('promotion').hidden = true;
}

function setView(view) {
  app.view = view;
  $('view-grid').classList.toggle('on', view === 'grid');
  $('view-tesseract').classList.toggle('on', view === 'tesseract');
  $('turn').hidden = view !== 'tesseract';
  $('angle').hidden = view !== 'tesseract';
  if (view !== 'tesseract') app.turning = false;
  $('turn').classList.toggle('on', app.turning);
  hidePromotion();
  render();
}

// -------------------------------------------------------------------------------------- save and load

/** The page's mode for a chess game: tesseract, classic or chess960 (from the game itself, not the form). */
function modeOf(game) {
  return { tesseract: 'tesseract', chess: 'classic', chess960: 'chess960' }[game.variant()];
}

/** The game in PGN, with who plays each side. */
function pgnText() {
  return app.game.pgn(app.players.w, app.players.b);
}

/** Offers `text` as a file download named `name`. */
function download(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Saves the game as JSON: the library's game record (chess), or the Four Tac Toe state. */
function save() {
  if (!app.game) return;
  const text =
    app.mode === 'tactoe'
      ? JSON.stringify({ game: 'four-tac-toe', text: app.game.text(), o: app.level })
      : app.game.record(app.players.w, app.players.b);
  app.saved = text;
  download(text, app.mode === 'tactoe' ? 'four-tac-toe.json' : 'tesseract-game.json', 'application/json');
}

/** Saves the game as PGN (the library's writer: SAN in 2D, move texts of eight digits in 4D). */
function savePgn() {
  if (!app.game || app.mode === 'tactoe') return;
  const text = pgnText();
  app.saved = text;
  download(text, `${app.game.variant()}-game.pgn`, 'application/x-chess-pgn');
}

/**
 * Loads a saved game: the library's JSON record, a Four Tac Toe save, or PGN (its first game). Nothing changes
 * on an error.
 */
function load(text) {
  const { api } = app;
  let parsed;
  const json = /^\uFEFF?\s*\{/.test(text);
  try {
    parsed = json ? JSON.parse(text) : null;
  } catch (err) {
    fail(`not a saved game: ${err.message}`);
    return;
  }
  try {
    if (parsed && parsed.game === 'four-tac-toe') {
      const game = api.TacToe.fromText(String(parsed.text));
      leaveOnline();
      freeGame();
      app.game = game;
      app.mode = 'tactoe';
      app.level = parsed.o === 'human' || /^[1-5]$/.test(String(parsed.o)) ? String(parsed.o) : app.level;
      app.claims = claimedCells(game);
    } else {
      const record = json ? text : api.Chess.recordFromPgn(text);
      const game = api.Chess.fromRecord(record);
      const players = JSON.parse(record);
      leaveOnline();
      freeGame();
      app.game = game;
      app.mode = modeOf(game);
      app.players = { w: players.white, b: players.black };
    }
  } catch (err) {
    fail(`cannot load: ${err.message ?? err}`);
    return;
  }
  syncForm();
  app.error = '';
  refresh();
  maybeEngine();
}

/** The claimed cells of a Four Tac Toe game, in cell order (a loaded game's claims, whose order is not kept). */
function claimedCells(game) {
  return [...game.owners()].flatMap((ch, i) => (ch === 'X' || ch === 'O' ? [i] : []));
}

/** Sets a position from FEN/TFEN (chess) or the Four Tac Toe text. */
function setPosition(text) {
  const { api } = app;
  try {
    const game = app.mode === 'tactoe' ? api.TacToe.fromText(text) : api.Chess.fromText(text, seedValue());
    leaveOnline();
    freeGame();
    app.game = game;
    if (app.mode !== 'tactoe') app.mode = modeOf(game);
    if (app.mode === 'tactoe') app.claims = claimedCells(game);
  } catch (err) {
    fail(String(err.message ?? err));
    return;
  }
  syncForm();
  app.error = '';
  refresh();
  maybeEngine();
}

function syncForm() {
  $('mode').value = app.mode;
  $('white').value = app.players.w;
  $('black').value = app.players.b;
  $('level').value = app.level;
  showSetupFields();
}

// ------------------------------------------------------------------------------------------ start-up

function wire() {
  for (const select of document.querySelectorAll('select.player')) {
    for (const p of PLAYERS) select.append(new Option(p, p));
  }
  $('white').value = app.players.w;
  $('black').value = app.players.b;
  $('setup').addEventListener('submit', (e) => {
    e.preventDefault();
    newGame();
  });
  // Choosing a game only shows its fields: the game on the board (offline or online) changes with New game.
  $('mode').addEventListener('change', () => showSetupFields($('mode').value));
  $('undo').addEventListener('click', undo);
  $('save').addEventListener('click', save);
  $('save-pgn').addEventListener('click', savePgn);
  $('flip').addEventListener('click', () => {
    app.flip = !app.flip;
    hidePromotion();
    app.hover = -1; // the cell under the pointer is another one now
    $('hover').hidden = true;
    render();
  });
  $('sound').addEventListener('click', () => {
    app.synth.setMuted(!app.synth.muted);
    showToggles();
  });
  $('letters').addEventListener('click', () => {
    grid.letters = !grid.letters;
    tesseract.letters = grid.letters;
    localStorage.setItem('tesseract.letters', grid.letters ? 'on' : 'off');
    showToggles();
    render();
  });
  $('fullscreen').addEventListener('click', () => {
    if (document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
    else document.documentElement.requestFullscreen?.().catch((err) => fail(`fullscreen: ${err.message}`));
  });
  document.addEventListener('fullscreenchange', showToggles);
  // Stepping through the moves: the buttons under the list, and the arrow keys.
  const plies = () => (app.game && app.mode !== 'tactoe' ? JSON.parse(app.game.history()).length : 0);
  const at = () => app.viewPly ?? plies();
  $('step-first').addEventListener('click', () => showPly(0));
  $('step-back').addEventListener('click', () => showPly(at() - 1));
  $('step-forward').addEventListener('click', () => showPly(at() + 1));
  $('step-last').addEventListener('click', toPresent);
  $('present').addEventListener('click', toPresent);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea') || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = { ArrowLeft: () => showPly(at() - 1), ArrowRight: () => showPly(at() + 1), Home: () => showPly(0), End: toPresent }[e.key];
    if (step && app.mode !== 'tactoe') {
      e.preventDefault();
      step();
    }
  });
  $('result-copy').addEventListener('click', async () => {
    const text = $('result-pgn').value;
    try {
      await navigator.clipboard.writeText(text);
      $('result-copy').textContent = 'Copied';
    } catch {
      $('result-pgn').select();
      $('result-copy').textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => ($('result-copy').textContent = 'Copy PGN'), 2000);
  });
  $('result-close').addEventListener('click', () => {
    app.resultClosed = true;
    $('result').hidden = true;
  });
  $('load').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > 16 << 20) {
      fail(`cannot load: ${file.name} is larger than 16 MiB`);
      return;
    }
    load(await file.text());
  });
  $('position').addEventListener('submit', (e) => {
    e.preventDefault();
    setPosition($('position-text').value.trim());
  });
  $('view-grid').addEventListener('click', () => setView('grid'));
  $('view-tesseract').addEventListener('click', () => setView('tesseract'));
  $('turn').addEventListener('click', () => {
    app.turning = !app.turning;
    $('turn').classList.toggle('on', app.turning);
    if (app.turning) requestAnimationFrame(turnStep);
  });
  $('angle').addEventListener('input', (e) => {
    tesseract.angle = Number(e.target.value) / 100;
    render();
  });

  // A click picks a cell; a drag in the tesseract view turns the 3D view instead.
  const canvas = $('board');
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.offsetX, y: e.offsetY, yaw: tesseract.yaw, moved: false };
  });
  canvas.addEventListener('pointermove', (e) => {
    hoverAt(e.offsetX, e.offsetY, e.pointerType);
    if (!drag || app.view !== 'tesseract') return;
    const dx = e.offsetX - drag.x;
    if (Math.abs(dx) > 4) drag.moved = true;
    if (drag.moved) {
      tesseract.yaw = drag.yaw + dx / 150;
      render();
    }
  });
  canvas.addEventListener('pointerup', (e) => {
    const moved = drag?.moved;
    drag = null;
    if (!moved) onCell(cellAt(e.offsetX, e.offsetY));
  });
  canvas.addEventListener('pointerleave', () => hoverAt(null, null));
  new ResizeObserver(() => render()).observe(canvas);
}

/** The name of the cell under the pointer (and its piece), beside the pointer; Four Tac Toe lights its lines. */
function hoverAt(x, y, pointerType = 'mouse') {
  const cell = x === null || pointerType === 'touch' || !app.game ? null : cellAt(x, y);
  const tip = $('hover');
  const next = cell ?? -1;
  if (next === app.hover) return;
  app.hover = next;
  if (cell === null) tip.hidden = true;
  else {
    tip.textContent = cellLabel(cell);
    tip.style.left = `${$('board').offsetLeft + x + 14}px`;
    tip.style.top = `${$('board').offsetTop + y + 14}px`;
    tip.hidden = false;
  }
  render();
}

const ROLE_NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', u: 'unicorn', d: 'dragon', p: 'pawn', y: 'Y-pawn', w: 'W-pawn' };

/** "e4", "2213: white Y-pawn", "1111: X". */
function cellLabel(cell) {
  const g = app.game;
  const name = g.cellName(cell);
  if (app.mode === 'tactoe') {
    const owner = g.owners()[cell];
    return owner === '#' ? `${name}: the centre, no one may claim it` : owner === '.' ? name : `${name}: ${owner}`;
  }
  const ch = (app.past ?? g).board()[cell];
  if (ch === '.') return name;
  const white = ch === ch.toUpperCase();
  return `${name}: ${white ? 'white' : 'black'} ${ROLE_NAMES[ch.toLowerCase()]}`;
}

/** The toggles' labels say what they are now. */
function showToggles() {
  $('sound').textContent = app.synth.muted ? 'Sound off' : 'Sound on';
  $('sound').setAttribute('aria-pressed', String(!app.synth.muted));
  $('letters').setAttribute('aria-pressed', String(grid.letters));
  $('fullscreen').textContent = document.fullscreenElement ? 'Exit fullscreen' : 'Fullscreen';
}

/** Hooks for tests and tools: the state the page shows, and where it drew each cell. */
function exposeForTests() {
  window.__tesseract = {
    get ready() {
      return app.game !== null;
    },
    get frames() {
      return app.frames;
    },
    get metrics() {
      return app.metrics;
    },
    get saved() {
      return app.saved;
    },
    /** The Learn panel's state (lessons and studies). */
    learn() {
      return app.learn ? app.learn.snapshot() : null;
    },
    /** Four Tac Toe's hover hint: the live lines lit through the hovered cell. */
    hints() {
      return app.mode === 'tactoe' ? drawState().hints : [];
    },
    /** The sounds played, in order (move, capture, check, mate, illegal, end). */
    get sounds() {
      return [...app.synth.log];
    },
    /** The online panel's state (null before the WebAssembly module is loaded). */
    online() {
      return app.online ? app.online.snapshot() : null;
    },
    /**
     * Plays a move text as two clicks on its cells would, without the pointer (the same handler: the page's
     * checks, then the online session's); for tests that play long lines. Returns whether it was played.
     */
    playByCells(text) {
      const move = app.game ? JSON.parse(app.game.legalMoves()).find((m) => m.text === text) : undefined;
      if (!move) return false;
      const before = JSON.parse(app.game.history()).length;
      onCell(move.from);
      onCell(move.kingTo ?? move.to);
      if ($('promotion').childElementCount > 0) $('promotion').querySelector(`[data-move="${text}"]`)?.click();
      return JSON.parse(app.game.history()).length > before;
    },
    state() {
      const g = app.game;
      const chess = app.mode !== 'tactoe';
      return {
        mode: app.mode,
        view: app.view,
        cells: chess ? g.board() : g.owners(),
        text: chess ? g.text() : g.text(),
        turn: chess ? g.turn() : g.toMove(),
        history: chess ? JSON.parse(g.history()) : app.claims.map((c) => g.cellName(c)),
        over: over(),
        thinking: app.request !== 0,
        selected: app.selected,
        error: app.error,
        notation: chess ? JSON.parse(g.notation()) : null,
        viewPly: app.viewPly,
        shown: chess ? (app.past ?? g).board() : g.owners(),
        flipped: bottomSide() === 'b',
        hover: app.hover,
        lit: app.view === 'grid' ? grid.lit.map(({ cell, x, y }) => ({ cell, x, y })) : [],
      };
    },
    /** The page (client) coordinates of a cell's centre in the view shown, or null if not drawn. */
    clientPoint(cell) {
      const canvas = $('board');
      const box = canvas.getBoundingClientRect();
      const point = this.canvasPoint(cell);
      return point && { x: box.left + canvas.clientLeft + point.x, y: box.top + canvas.clientTop + point.y };
    },
    /** The canvas (CSS pixel) coordinates of a cell's centre in the view shown, or null if not drawn. */
    canvasPoint(cell) {
      let point = null;
      if (app.view === 'grid' && grid.layout) {
        const g = app.game;
        const [dims, n] = app.mode === 'tactoe' ? [4, 3] : [g.dims(), g.side()];
        point = grid.layout.centre(coords(cell, dims, n));
      } else {
        const d = tesseract.drawn.find((it) => it.cell === cell);
        if (d) point = [d.x, d.y];
      }
      return point && { x: point[0], y: point[1] };
    },
  };
}

async function start() {
  wire();
  exposeForTests();
  try {
    app.api = await loadWasm();
  } catch (err) {
    $('status').textContent = `Could not load the WebAssembly module: ${err.message ?? err}`;
    return;
  }
  app.metrics.wasmReadyMs = Math.round(performance.now());
  grid.letters = localStorage.getItem('tesseract.letters') === 'on';
  tesseract.letters = grid.letters;
  showToggles();
  app.pieces = new PieceSet(app.api, render);
  newGame();
  app.learn = new Learn({
    api: app.api,
    /** Shows a lesson's or study's position on a board of its own (4D, both sides played by the page). */
    show(fen) {
      leaveOnline();
      dropGame();
      app.game = app.api.Chess.fromText(fen, 1);
      app.mode = 'tesseract';
      app.players = { w: 'human', b: 'human' };
      app.error = '';
      syncForm();
      refresh();
    },
    undo(plies) {
      forgetPast();
      for (let i = 0; i < plies; i++) app.game.undo();
      app.selected = -1;
      app.targets = new Map();
      refresh();
    },
    select(cell) {
      app.selected = -1;
      onCell(cell);
    },
    position() {
      return app.mode === 'tactoe' ? '' : (app.past ?? app.game).text();
    },
    fail(message) {
      fail(message);
    },
    refresh,
    ask,
    leave() {
      app.learn.close();
      newGame();
    },
  });
  app.online = new OnlinePanel({
    api: app.api,
    /** Shows an online match's board: `chess` (its mirror) becomes the page's game. */
    adopt(chess, mode) {
      freeGame();
      app.game = chess;
      app.mode = mode;
      app.players = { w: 'human', b: 'human' };
      app.error = '';
      syncForm();
      refresh();
    },
    /** Back to offline play after leaving a match. */
    leave() {
      newGame();
    },
    refresh,
    setStatus(text) {
      $('status').textContent = text;
    },
  });
  await app.online.init();
}

start();
