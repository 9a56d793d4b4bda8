// Debian's chromium, headless, as the browser tests start it.

import { chromium } from 'playwright-core';

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
