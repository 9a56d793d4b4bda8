#!/usr/bin/env bash
# Tesseract in the browser: builds the page and serves it on 127.0.0.1.
#
# Usage: scripts/web.sh [--port N]   build, then serve on http://127.0.0.1:N/ (default 8080) until Ctrl-C
#        scripts/web.sh --online [--port N]
#                                    build the page and the relay (tesseract-relay, release), then run the
#                                    relay serving the page on http://127.0.0.1:N/ (default 8090): open it,
#                                    "Create match", and send the invitation link to the other player
#        scripts/web.sh --build      build only: web/pkg (the crates in WebAssembly) and web/node_modules
#        scripts/web.sh --test       build, then run the page's tests in headless chromium (web/tests/; the
#                                    online tests build the relay themselves unless TESSERACT_RELAY names a
#                                    binary, as scripts/test.sh does, and need Redis on :6379)
#
# Installs what it needs: the wasm32 target and wasm-bindgen-cli (scripts/wasm.sh), the npm packages of
# web/package-lock.json (npm ci), and for --test Debian's chromium (apt-get) when /usr/bin/chromium is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

port=
mode=serve
while [[ $# -gt 0 ]]; do
    case "$1" in
        --build) mode=build ;;
        --online) mode=online ;;
        --test) mode=test ;;
        --port)
            [[ "${2:-}" =~ ^[0-9]{1,5}$ ]] || { echo "web.sh: --port takes a number 0..65535" >&2; exit 2; }
            port="$2"
            shift
            ;;
        *) echo "web.sh: unknown argument $1 (expected --port N, --online, --build or --test)" >&2; exit 2 ;;
    esac
    shift
done

bash scripts/wasm.sh
step "installing the page's npm packages (npm ci in web/; first time: the download)..."
(cd web && npm ci --no-audit --no-fund --loglevel=error)

case "$mode" in
    build) ;;
    test)
        if [[ -z "${CHROMIUM:-}" && ! -x /usr/bin/chromium ]]; then
            step "installing Debian's chromium for the headless tests (apt-get; first time only)..."
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
        fi
        (cd web && node --test tests/)
        ;;
    serve) exec node web/serve.mjs --port "${port:-8080}" ;;
    online)
        step "building tesseract-relay in release (first time: 2 to 6 minutes)..."
        cargo build --release -p tesseract-relay
        exec "${CARGO_TARGET_DIR:-target}/release/tesseract-relay" --static web --listen "127.0.0.1:${port:-8090}"
        ;;
esac
