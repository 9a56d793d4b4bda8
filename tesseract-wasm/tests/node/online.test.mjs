// The class Online in WebAssembly under node (its randomness is crypto.getRandomValues through getrandom's
// wasm_js backend): build web/pkg first with scripts/wasm.sh, then `node --test tesseract-wasm/tests/node/`.
// Expected results come from the rules (fool's mate is Black's) or from the other side of the match.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const pkg = new URL("../../../web/pkg/", import.meta.url);
if (!existsSync(fileURLToPath(new URL("tesseract_wasm.js", pkg)))) {
  throw new Error(`${fileURLToPath(pkg)} has no tesseract_wasm.js: build it with scripts/wasm.sh`);
}
const { initSync, Online } = await import(new URL("tesseract_wasm.js", pkg).href);
initSync({ module: readFileSync(fileURLToPath(new URL("tesseract_wasm_bg.wasm", pkg))) });

/** Hands every queued frame across until both sides are quiet; the events each side saw. */
function pump(a, b) {
  const seen = { a: [], b: [] };
  for (;;) {
    let moved = false;
    for (let f = a.nextFrame(); f !== undefined; f = a.nextFrame()) {
      assert.ok(f instanceof Uint8Array);
      seen.b.push(...JSON.parse(b.receive(f)));
      moved = true;
    }
    for (let f = b.nextFrame(); f !== undefined; f = b.nextFrame()) {
      seen.a.push(...JSON.parse(a.receive(f)));
      moved = true;
    }
    if (!moved) return seen;
  }
}

test("identities are random in WebAssembly and 64 hex digits", () => {
  const [k1, k2] = [Online.generateIdentity(), Online.generateIdentity()];
  assert.match(k1, /^[0-9a-f]{64}$/);
  assert.notEqual(k1, k2);
  assert.match(Online.identityOf(k1), /^[0-9a-f]{32}$/);
  assert.throws(() => Online.identityOf("0".repeat(64)), Error);
  assert.throws(() => Online.identityOf("not hex"), /identity key/);
});

test("fool's mate between two Online sides, with the same safety number", () => {
  const white = Online.create("classic", "w", Online.generateIdentity());
  const black = Online.join(white.invitation(), Online.generateIdentity());
  assert.notEqual(Online.create("classic", "w", Online.generateIdentity()).matchId(), white.matchId());
  const seen = pump(white, black);
  assert.deepEqual(seen.a.map((e) => e.type), ["peerKeys", "established"]);
  assert.match(white.safetyNumber(), /^[0-9a-f]{16}$/);
  assert.equal(white.safetyNumber(), black.safetyNumber());
  for (const [i, text] of ["f2f3", "e7e5", "g2g4", "d8h4"].entries()) {
    const [mover, other] = i % 2 === 0 ? [white, black] : [black, white];
    assert.throws(() => other.play(text), /not now/);
    mover.play(text);
    pump(mover, other);
    assert.deepEqual(JSON.parse(other.moves()).at(-1), text);
  }
  for (const side of [white, black]) {
    assert.deepEqual(JSON.parse(side.result()), { score: "0-1", winner: "b", reason: "checkmate" });
  }
  assert.equal(white.nextFrame(), undefined);
});

test("a flipped byte in a move frame is dropped, and the genuine move is played", () => {
  const white = Online.create("classic", "w", Online.generateIdentity());
  const black = Online.join(white.invitation(), Online.generateIdentity());
  pump(white, black);
  white.play("e2e4");
  const frame = white.nextFrame();
  const forged = frame.slice();
  forged[forged.length - 1] ^= 1; // in the tag
  const events = JSON.parse(black.receive(forged));
  assert.deepEqual(events, [
    { type: "dropped", kind: "Authentication", message: "authentication failed for a move frame", count: 1 },
  ]);
  assert.equal(black.phase(), "playing");
  assert.equal(black.dropped(), 1);
  assert.deepEqual(JSON.parse(black.moves()), []);
  assert.deepEqual(JSON.parse(black.receive(frame)).map((e) => e.type), ["moved"]);
  assert.deepEqual(JSON.parse(black.moves()), ["e2e4"]);
  assert.throws(() => Online.join("tw1.w.classic.00.11", Online.generateIdentity()), /match id/);
});

test("save and resume across a reload", () => {
  const [ka, kb] = [Online.generateIdentity(), Online.generateIdentity()];
  const a = Online.create("standard", "b", ka);
  const b = Online.join(a.invitation(), kb);
  pump(a, b);
  b.play("22132313"); // b is White
  const saved = b.saveState();
  assert.match(saved, /^[0-9a-f]+$/);
  b.free(); // the page is closed before the frame went out
  const again = Online.resume(saved, kb, a.invitation());
  assert.equal(again.color(), "w");
  pump(again, a);
  assert.deepEqual(JSON.parse(a.moves()), ["22132313"]);
  assert.throws(() => Online.resume(saved, ka, a.invitation()), /another player/);
});
