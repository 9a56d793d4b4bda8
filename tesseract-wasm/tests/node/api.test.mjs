// The JavaScript API of tesseract-wasm, running in WebAssembly under node: build web/pkg first with
// scripts/wasm.sh, then `node --test tesseract-wasm/tests/node/`. The expected figures come from RULES.md
// and the rules of chess, never from running this code.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const pkg = new URL("../../../web/pkg/", import.meta.url);
if (!existsSync(fileURLToPath(new URL("tesseract_wasm.js", pkg)))) {
  throw new Error(`${fileURLToPath(pkg)} has no tesseract_wasm.js: build it with scripts/wasm.sh`);
}
const { initSync, Chess, Engine, TacToe } = await import(new URL("tesseract_wasm.js", pkg).href);
initSync({ module: readFileSync(fileURLToPath(new URL("tesseract_wasm_bg.wasm", pkg))) });

const moves = (game) => JSON.parse(game.legalMoves());
const texts = (game) => moves(game).map((m) => m.text);
const snapshot = (game) => [game.text(), game.history(), game.turn(), game.board(), game.legalMoves(), game.lastMove()];

// perft through the API: legalMoves, play and undo only.
function perft(game, depth) {
  const list = texts(game);
  if (depth === 1) return list.length;
  let nodes = 0;
  for (const text of list) {
    game.play(text);
    nodes += perft(game, depth - 1);
    assert.equal(game.undo(), text);
  }
  return nodes;
}

test("legal moves from the starts (RULES.md §3, §5)", () => {
  assert.equal(moves(Chess.start("standard", 1)).length, 226);
  assert.equal(moves(Chess.start("classic", 1)).length, 20);
  const g = Chess.start("standard", 1);
  assert.equal(g.dims(), 4);
  assert.equal(g.side(), 5);
  assert.equal(g.board().length, 625);
  assert.equal(g.turn(), "w");
  assert.equal(g.status(), undefined);
  assert.equal(g.winner(), undefined);
  assert.equal(g.seed(), 1);
});

test("perft(2) of the standard start through the API is 50,420 (RULES.md §3)", () => {
  const game = Chess.start("standard", 1);
  const before = snapshot(game);
  assert.equal(perft(game, 2), 50420);
  assert.deepEqual(snapshot(game), before);
});

test("perft(2) of chess through the API is 400", () => {
  assert.equal(perft(Chess.start("classic", 1), 2), 400);
});

for (const tier of ["beginner", "club"]) {
  test(`the engine at ${tier} plays a legal move, the same one for the same seed`, () => {
    for (const [name, first] of [["classic", "e2e4"], ["standard", "22132313"]]) {
      const game = Chess.start(name, 9);
      game.play(first);
      const before = snapshot(game);
      const engine = new Engine();
      const a = JSON.parse(engine.think(game, tier));
      assert.deepEqual(snapshot(game), before, "think leaves the game unchanged");
      assert.ok(texts(game).includes(a.move), `${name}: ${a.move} is not a legal move`);
      assert.match(a.score, /^(cp -?\d+|mate -?\d+)$/);
      assert.ok(Number.isInteger(a.depth) && a.depth >= 1);
      assert.ok(Number.isInteger(a.nodes) && a.nodes >= 1);
      assert.ok(Number.isInteger(a.ms) && a.ms >= 0);
      assert.equal(JSON.parse(engine.think(game, tier)).move, a.move, "the same engine again");
      const again = Chess.start(name, 9);
      again.play(first);
      assert.equal(JSON.parse(new Engine().think(again, tier)).move, a.move, "a new engine, a new game");
      game.play(a.move);
      engine.free();
    }
  });
}

test("the engine finds a mate in one at club", () => {
  // Back-rank mate: Ra8# is the only mate.
  const game = Chess.fromText("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 0);
  const answer = JSON.parse(new Engine().think(game, "club"));
  assert.equal(answer.move, "a1a8");
  assert.equal(answer.score, "mate 1");
  game.play(answer.move);
  assert.equal(game.status(), "checkmate, white wins");
  assert.equal(game.winner(), "w");
  assert.equal(game.kingInCheck(), 62, "the black king on g8");
  assert.throws(() => new Engine().think(game, "club"), Error);
});

test("an illegal move throws an Error and changes nothing", () => {
  const game = Chess.start("classic", 1);
  game.play("e2e4");
  const before = snapshot(game);
  assert.throws(() => game.play("e2e5"), (e) => e instanceof Error && /not a legal move/.test(e.message));
  for (const bad of ["d2d4", "zz", "", "22132313", "e7e5q", "x".repeat(1000)]) {
    assert.throws(() => game.play(bad), Error, bad);
    assert.deepEqual(snapshot(game), before, bad);
  }
  assert.throws(() => Chess.start("nope", 1), Error);
  assert.throws(() => Chess.start("classic", -1), Error);
  assert.throws(() => Chess.start("classic", 2 ** 53), Error);
  assert.throws(() => Chess.fromText("not a position", 1), Error);
  assert.throws(() => Chess.fromRecord("{}"), Error);
  assert.throws(() => game.record("robot", "human"), Error);
  assert.throws(() => game.cellName(64), Error);
  assert.throws(() => game.movesFrom(-1), Error);
  assert.throws(() => new Engine().think(game, "grandmaster"), Error);
});

test("castling: kingTo in classic and Chess960 mode", () => {
  const classic = Chess.fromText("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0);
  const kingMoves = JSON.parse(classic.movesFrom(4));
  const short = kingMoves.find((m) => m.text === "e1g1");
  assert.deepEqual([short.to, short.kingTo, short.promotion], [6, 6, null]);
  const c960 = Chess.fromText("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", 0);
  const long = JSON.parse(c960.movesFrom(6)).find((m) => m.text === "g1b1");
  assert.deepEqual([long.from, long.to, long.kingTo], [6, 1, 2]);
});

test("records round-trip, history, undo, cell names", () => {
  const game = Chess.start("classic", 7);
  for (const m of ["f2f3", "e7e5", "g2g4", "d8h4"]) game.play(m);
  assert.equal(game.status(), "checkmate, black wins");
  assert.equal(game.history(), '["f2f3","e7e5","g2g4","d8h4"]');
  assert.deepEqual(JSON.parse(game.lastMove()), { from: 59, to: 31 });
  const record = game.record("human", "club");
  const back = Chess.fromRecord(record);
  assert.deepEqual(snapshot(back), snapshot(game));
  assert.equal(back.seed(), 7);
  assert.equal(back.undo(), "d8h4");
  assert.equal(back.status(), undefined);
  assert.equal(game.cellName(28), "e4");
  assert.equal(Chess.start("standard", 0).cellName(1 + 5 + 250), "2213");
});

test("Four Tac Toe: claims, scores, undo, the engine", () => {
  const cell = (name) => [...name].reduce((sum, d, i) => sum + (Number(d) - 1) * 3 ** i, 0);
  const t = new TacToe();
  for (const name of ["1111", "3333", "3111", "3332", "2211", "3323", "2311", "1333"]) {
    assert.equal(t.claim(cell(name)), 0);
  }
  assert.equal(t.claim(cell("2111")), 2);
  assert.equal(t.scores(), "[2,0]");
  assert.deepEqual(JSON.parse(t.completedLines()), [
    { cells: [0, 1, 2], player: "X" },
    { cells: [1, 4, 7], player: "X" },
  ]);
  assert.equal(t.owners()[40], "#");
  assert.equal(t.toMove(), "O");
  assert.throws(() => t.claim(40), Error);
  assert.equal(t.canClaim(40), false);
  assert.equal(t.undo(), 1);
  assert.equal(t.scores(), "[0,0]");
  assert.equal(TacToe.fromText(t.text()).text(), t.text());
  assert.equal(t.cellName(40), "2222");
  const u = new TacToe();
  for (const name of ["1111", "3333", "2111", "1233"]) u.claim(cell(name));
  assert.equal(u.engineMove(2), cell("3111"), "completes 1111-2111-3111");
  assert.throws(() => u.engineMove(0), Error);
  assert.equal(u.isOver(), false);
  assert.equal(u.outcome(), undefined);
});
