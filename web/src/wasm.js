// Loads the WebAssembly build of the crates (tesseract-wasm, built into ../pkg by scripts/wasm.sh) once per
// thread: the page and the engine's Web Worker each call loadWasm().

import init, * as api from '../pkg/tesseract_wasm.js';

let loading = null;

/** The tesseract-wasm module's exports, once the .wasm is fetched and instantiated. */
export function loadWasm() {
  loading ??= init({ module_or_path: new URL('../pkg/tesseract_wasm_bg.wasm', import.meta.url) }).then(() => api);
  return loading;
}
