// Debian's chromium, headless, as the browser tests start it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const WEB = fileURLToPath(new URL('..', import.meta.url));

/** The flags Debian's chromium needs in a sandboxed, offline container. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts the system chromium (or $CHROMIUM) headless. */
export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: FLAGS });
}

/** Starts serve.mjs on a free loopback port: resolves with {address, server} once it listens. */
export function serveWeb() {
  const server = spawn(process.execPath, [join(WEB, 'serve.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/serving (http:\S+)/);
      if (m) resolve({ address: m[1], server });
    });
    server.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
}

/** Waits until `page` has drawn a frame after the last change (rendering is at the next animation frame). */
export function settled(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The page (client) point where the page says it drew `cell`; fails the test if it is not drawn. */
export async function cellPoint(page, cell) {
  const p = await page.evaluate((c) => window.__tesseract.clientPoint(c), cell);
  assert.ok(p, `cell ${cell} is drawn`);
  return p;
}
