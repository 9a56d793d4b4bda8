// The engine in a Web Worker, so the page never freezes while it thinks. One message in, one out:
//   {id, kind: 'chess', record, tier}  ->  {id, ok: true, move, score, depth, nodes, ms}
//   {id, kind: 'tactoe', text, level}  ->  {id, ok: true, cell, ms}
//   {id, kind: 'study', number, whites, action: 'play', text}
//                                      ->  {id, ok: true, reply: the JSON of Study.play, fen}
//   {id, kind: 'study', number, whites, action: 'hint'}  ->  {id, ok: true, cell}
//   {id, kind: 'daily', date}          ->  {id, ok: true, puzzle: the JSON of dailyPuzzle (composed: seconds)}
//   {id, kind: 'judge', fen, n}        ->  {id, ok: true, result: the JSON of judge (a composer's check)}
//     (a study's answers need the mate solver, seconds at worst: here, not on the page. `whites` are
//     White's moves so far, `number` 1 to 12 or "daily:YYYYMMDD"; the worker keeps the study between messages and rebuilds it when they differ)
//   on any error                       ->  {id, ok: false, error}
// The page stops a search by terminating the worker and starting a new one.

import { loadWasm } from './wasm.js';

let engine = null; // keeps its transposition table between moves
let study = null; // {key: JSON of [number, whites], game: Study}

/** The study `number` after White's moves `whites` (each answered as when it was first played); a take back
 *  (the same moves but the last) is taken back here rather than played again. */
function studyAt(api, number, whites) {
  const key = JSON.stringify([number, whites]);
  if (study?.key === key) return study.game;
  const [cachedNumber, cachedWhites] = study ? JSON.parse(study.key) : [null, []];
  if (cachedNumber === number && cachedWhites.length === whites.length + 1 && JSON.stringify(cachedWhites.slice(0, -1)) === JSON.stringify(whites)) {
    study.game.takeBack();
    study.key = key;
    return study.game;
  }
  study?.game.free();
  const game = String(number).startsWith('daily:') ? api.Study.daily(Number(String(number).slice(6))) : new api.Study(number);
  for (const w of whites) game.play(w);
  study = { key, game };
  return game;
}

self.onmessage = async (event) => {
  const { id, kind } = event.data;
  try {
    const api = await loadWasm();
    if (kind === 'chess') {
      engine ??= new api.Engine();
      const game = api.Chess.fromRecord(event.data.record);
      try {
        const out = JSON.parse(engine.think(game, event.data.tier));
        self.postMessage({ id, ok: true, ...out });
      } finally {
        game.free();
      }
    } else if (kind === 'tactoe') {
      const started = performance.now();
      const game = api.TacToe.fromText(event.data.text);
      try {
        const cell = game.engineMove(event.data.level);
        self.postMessage({ id, ok: true, cell, ms: Math.round(performance.now() - started) });
      } finally {
        game.free();
      }
    } else if (kind === 'daily') {
      // Composed once: the study is kept for the moves that follow.
      const number = `daily:${event.data.date}`;
      const game = studyAt(api, number, []);
      self.postMessage({ id, ok: true, puzzle: { ...JSON.parse(game.entry()), number } });
    } else if (kind === 'judge') {
      self.postMessage({ id, ok: true, result: JSON.parse(api.judge(event.data.fen, event.data.n)) });
    } else if (kind === 'study') {
      const { number, whites, action, text } = event.data;
      const game = studyAt(api, number, whites);
      if (action === 'hint') self.postMessage({ id, ok: true, cell: game.hint() });
      else {
        const reply = JSON.parse(game.play(text));
        study.key = JSON.stringify([number, [...whites, text]]);
        self.postMessage({ id, ok: true, reply, fen: game.fen() });
      }
    } else {
      throw new Error(`unknown request kind ${JSON.stringify(kind)}`);
    }
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err?.message ?? err) });
  }
};
