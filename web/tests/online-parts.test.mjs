// The pure parts of src/online.js in node (no browser): reading a link's fragment and a relay address,
// which come from untrusted text (a link someone sent, a field the player typed, the browser's storage).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modeOf, parseFragment, relayAddress } from '../src/online.js';

test('a #join= fragment gives its invitation and, if valid, its relay', () => {
  assert.equal(parseFragment(''), null);
  assert.equal(parseFragment('#other=1'), null);
  assert.deepEqual(parseFragment('#join=tw1.w.classic.ab.cd'), { invitation: 'tw1.w.classic.ab.cd', relay: null });
  // As URLSearchParams writes it: ':' and '/' percent-encoded.
  const params = new URLSearchParams({ join: 'tw1.b.chess960:12.x.y', relay: 'ws://127.0.0.1:8090' });
  assert.deepEqual(parseFragment(`#${params}`), { invitation: 'tw1.b.chess960:12.x.y', relay: 'ws://127.0.0.1:8090' });
  // A relay that is not ws(s)://HOST is dropped (the page's default is used), whatever it holds.
  for (const bad of ['javascript:alert(1)', 'http://x', 'ws://', 'ws://a/b', 'ws://a b', '']) {
    assert.equal(parseFragment(`#join=x&relay=${encodeURIComponent(bad)}`).relay, null, bad);
  }
  // Broken percent-encoding does not throw: it is read leniently (U+FFFD), and the crate refuses the text.
  assert.deepEqual(parseFragment('#join=%E0%A4%A'), { invitation: '\uFFFD%A', relay: null });
});

test('relay addresses are ws:// or wss:// and a host, without a path', () => {
  assert.equal(relayAddress('ws://127.0.0.1:8090'), 'ws://127.0.0.1:8090');
  assert.equal(relayAddress(' wss://relay.example/ '), 'wss://relay.example');
  assert.equal(relayAddress('ws://[::1]:8090'), 'ws://[::1]:8090');
  for (const bad of ['127.0.0.1:8090', 'http://h', 'ws://h/match/x', 'ws://h?x', 'ws://h#x', 'ws:// h']) {
    assert.equal(relayAddress(bad), null, bad);
  }
});

test('the view mode of each start', () => {
  assert.equal(modeOf('classic'), 'classic');
  assert.equal(modeOf('chess960:518'), 'chess960');
  for (const army of ['light', 'standard', 'dense']) assert.equal(modeOf(army), 'tesseract');
});
