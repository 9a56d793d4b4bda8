// The engine in a Web Worker, so the page never freezes while it thinks. One message in, one out:
//   {id, kind: 'chess', record, tier}  ->  {id, ok: true, move, score, depth, nodes, ms}
//   {id, kind: 'tactoe', text, level}  ->  {id, ok: true, cell, ms}
//   on any error                       ->  {id, ok: false, error}
// The page stops a search by terminating the worker and starting a new one.

import { loadWasm } from './wasm.js';

let engine = null; // keeps its transposition table between moves

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
    } else {
      throw new Error(`unknown request kind ${JSON.stringify(kind)}`);
    }
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err?.message ?? err) });
  }
};
