// The grid view: the board drawn with the write-up's affine map (layout.js), on a 2D canvas, on demand.

import { Layout, coords, fitCanvas } from './layout.js';

const COLOURS = {
  light: '#eeeed2',
  dark: '#b9c98f',
  lightTac: '#f4f1e8',
  darkTac: '#e2ddd0',
  forbidden: '#8a8a8a',
  selected: 'rgba(255, 215, 0, 0.75)',
  last: 'rgba(255, 235, 120, 0.45)',
  check: 'rgba(220, 40, 40, 0.75)',
  target: 'rgba(30, 110, 200, 0.55)',
  capture: 'rgba(200, 50, 30, 0.7)',
  label: '#555',
  line: 'rgba(200, 40, 40, 0.8)',
  lineO: 'rgba(30, 90, 200, 0.8)',
};

/** Draws a board state into a canvas; remembers where it drew each lit cell (for tests and tools). */
export class GridView {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.layout = null;
    this.lit = []; // [{cell, x, y, capture}] of the last frame, in drawing order
  }

  /** Sizes the canvas backing store to its CSS box and the device pixel ratio; returns the layout. */
  fit(dims, n) {
    const { width, height } = fitCanvas(this.canvas, this.ctx);
    this.layout = new Layout(dims, n, width, height);
    return this.layout;
  }

  /**
   * Draws `state`: {dims, n, cells: string (a char a cell: piece letter, '.', 'X'/'O'/'#' for Four Tac
   * Toe), tactoe, selected, targets: [{cell, capture}], last: {from, to} | null, check: cell | -1,
   * lines: [{cells, player}]}.
   */
  draw(state) {
    const { dims, n } = state;
    const L = this.fit(dims, n);
    const ctx = this.ctx;
    ctx.clearRect(0, 0, this.canvas.clientWidth, this.canvas.clientHeight);
    const total = n ** dims;
    const cellCoords = (i) => coords(i, dims, n);

    // Squares.
    for (let i = 0; i < total; i++) {
      const c = cellCoords(i);
      const [x, y, s] = L.rect(c);
      const dark = (c[0] + c[1] + c[2] + c[3]) % 2 === 0;
      ctx.fillStyle = state.tactoe ? (dark ? COLOURS.darkTac : COLOURS.lightTac) : dark ? COLOURS.dark : COLOURS.light;
      if (state.cells[i] === '#') ctx.fillStyle = COLOURS.forbidden;
      ctx.fillRect(x, y, s, s);
    }
    this.#labels(state);

    // Highlights under the pieces.
    const fillCell = (cell, color) => {
      const [x, y, s] = L.rect(cellCoords(cell));
      ctx.fillStyle = color;
      ctx.fillRect(x, y, s, s);
    };
    if (state.last) {
      fillCell(state.last.from, COLOURS.last);
      fillCell(state.last.to, COLOURS.last);
    }
    if (state.check >= 0) fillCell(state.check, COLOURS.check);
    if (state.selected >= 0) fillCell(state.selected, COLOURS.selected);

    // Pieces and marks.
    for (let i = 0; i < total; i++) {
      const ch = state.cells[i];
      if (ch === '.' || ch === '#') continue;
      const [x, y] = L.centre(cellCoords(i));
      if (state.tactoe) this.#mark(x, y, ch, L.cell);
      else this.#piece(x, y, ch, L.cell);
    }

    // Completed Four Tac Toe lines: straight on screen, like every 4D line.
    for (const line of state.lines || []) {
      const ends = [line.cells[0], line.cells[line.cells.length - 1]].map((i) => L.centre(cellCoords(i)));
      ctx.strokeStyle = line.player === 'X' ? COLOURS.line : COLOURS.lineO;
      ctx.lineWidth = Math.max(1.5, L.cell / 10);
      ctx.beginPath();
      ctx.moveTo(...ends[0]);
      ctx.lineTo(...ends[1]);
      ctx.stroke();
    }

    // Legal targets on top: a dot on an empty cell, a ring around a capture.
    this.lit = [];
    for (const t of state.targets) {
      const [x, y] = L.centre(cellCoords(t.cell));
      ctx.beginPath();
      if (t.capture) {
        ctx.strokeStyle = COLOURS.capture;
        ctx.lineWidth = Math.max(2, L.cell / 8);
        ctx.arc(x, y, L.cell * 0.44, 0, 2 * Math.PI);
        ctx.stroke();
      } else {
        ctx.fillStyle = COLOURS.target;
        ctx.arc(x, y, Math.max(2, L.cell * 0.17), 0, 2 * Math.PI);
        ctx.fill();
      }
      this.lit.push({ cell: t.cell, x, y, capture: !!t.capture });
    }
  }

  #labels(state) {
    const { dims, n } = state;
    const L = this.layout;
    const ctx = this.ctx;
    ctx.fillStyle = COLOURS.label;
    ctx.font = `${Math.max(9, Math.round(L.cell * 0.4))}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const bottom = L.originY + L.size / 2 + 12;
    const left = L.originX - L.size / 2 - 14;
    if (dims === 2) {
      for (let k = 1; k <= n; k++) {
        ctx.fillText('abcdefghijklmnop'[k - 1], L.centre([k, 1, 1, 1])[0], bottom);
        ctx.fillText(String(k), left, L.centre([1, k, 1, 1])[1]);
      }
      return;
    }
    // 4D: which board is which (w along the bottom, z up the left side).
    const mid = (n + 1) / 2;
    for (let k = 1; k <= n; k++) {
      ctx.fillText(`w${k}`, L.centre([mid, 1, 1, k])[0], bottom);
      ctx.fillText(`z${k}`, left, L.centre([1, mid, k, 1])[1]);
    }
  }

  #piece(x, y, letter, cell) {
    const ctx = this.ctx;
    const white = letter === letter.toUpperCase();
    const r = cell * 0.4;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = white ? '#fdfdfd' : '#2b2b2b';
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = white ? '#333' : '#000';
    ctx.stroke();
    ctx.fillStyle = white ? '#111' : '#f4f4f4';
    ctx.font = `bold ${Math.round(cell * 0.5)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(letter.toUpperCase(), x, y + cell * 0.03);
  }

  #mark(x, y, ch, cell) {
    const ctx = this.ctx;
    const r = cell * 0.3;
    ctx.lineWidth = Math.max(2, cell / 9);
    ctx.beginPath();
    if (ch === 'X') {
      ctx.strokeStyle = COLOURS.line;
      ctx.moveTo(x - r, y - r);
      ctx.lineTo(x + r, y + r);
      ctx.moveTo(x + r, y - r);
      ctx.lineTo(x - r, y + r);
    } else {
      ctx.strokeStyle = COLOURS.lineO;
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.stroke();
  }
}
