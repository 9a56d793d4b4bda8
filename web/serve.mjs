// A static file server for the page, on loopback only: `node serve.mjs [--port N]` (default 8080; 0 picks
// a free port). Prints `serving http://127.0.0.1:PORT/` once it listens. Serves the files under this
// directory (index.html, style.css, favicon.svg, src/, pkg/) with their content types, and /health (`static`:
// no relay here); nothing else (no directory
// listings, no paths outside it, no node_modules, GET and HEAD only).

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const SERVED = ['index.html', 'style.css', 'favicon.svg', 'src', 'pkg'];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
};

function parsePort(args) {
  const at = args.indexOf('--port');
  if (at < 0) return 8080;
  const text = args[at + 1] ?? '';
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    console.error(`serve.mjs: --port takes a number 0..65535, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return port;
}

/** The file a request path names, or null if it is not one of the served files. */
function resolve(urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  if (path === '/' || path === '') path = '/index.html';
  const relative = normalize(path).replace(/^[/\\]+/, '');
  if (relative.split(sep).includes('..')) return null;
  if (!SERVED.some((top) => relative === top || relative.startsWith(top + sep))) return null;
  return join(ROOT, relative);
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  // The page asks /health whether a relay serves it (a relay answers "ok"); this server is none, and says so
  // rather than leaving a 404 in the console.
  if ((req.url ?? '').split('?')[0] === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : 'static\n');
    return;
  }
  const file = resolve(req.url ?? '/');
  try {
    if (!file || !(await stat(file)).isFile()) throw new Error('not a file');
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  }
});

server.listen(parsePort(process.argv.slice(2)), '127.0.0.1', () => {
  console.log(`serving http://127.0.0.1:${server.address().port}/`);
});
