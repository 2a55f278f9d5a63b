// The Chromium that the browser tests and the benches drive (playwright-core, no browser download), and
// its flags. Debian's headless shell first (package chromium-headless-shell): the same Chromium build and
// Blink as package chromium without the desktop browser around it, which is what Playwright itself runs
// headless. The desktop browser's headless windows also load its address bar's popup (a chrome:// page,
// about 1.4 s of CPU in a renderer of its own) with each new context, beside the page measured; a person
// opening a link has that browser running already. On 2 loaded cores the whole browser suite took 385 s
// with the shell against 484 s with the desktop browser. CHROMIUM_PATH chooses another.
const { existsSync } = require('node:fs');

const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The first Chromium found (CHROMIUM_PATH, then the Debian packages), or undefined. */
function chromiumPath() {
  return [process.env.CHROMIUM_PATH, ...CANDIDATES].find((p) => Boolean(p && existsSync(p)));
}

/** What to say when none is found. */
const CHROMIUM_MISSING = 'Chromium not found: install Debian package chromium-headless-shell (or chromium), or set CHROMIUM_PATH';

/** The flags this network and a fresh profile need. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

module.exports = { chromiumPath, CHROMIUM_MISSING, CHROMIUM_ARGS };
