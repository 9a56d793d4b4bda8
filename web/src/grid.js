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
  hover: 'rgba(40, 40, 40, 0.8)',
};

// The hover hint's lines (Four Tac Toe): each line its own colour and mark, as in the write-up.
const HINT_COLOURS = ['#d62728', '#1f77b4', '#e6a800', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#e377c2', '#8c564b', '#7f7f7f', '#bcbd22', '#393b79', '#637939', '#843c39'];
const HINT_MARKS = ['circle', 'square', 'star', 'triangle', 'diamond', 'cross'];

/** Draws a board state into a canvas; remembers where it drew each lit cell (for tests and tools). */
export class GridView {
  /** `pieces(letter, dims)` gives a piece's picture (an image ready to draw) or null: letters are drawn then. */
  constructor(canvas, pieces = () => null) {
    this.canvas = canvas;
    this.pieces = pieces;
    this.letters = false; // the high-contrast option: letters in discs instead of the pictures
    this.ctx = canvas.getContext('2d');
    this.layout = null;
    this.lit = []; // [{cell, x, y, capture}] of the last frame, in drawing order
  }

  /** Sizes the canvas backing store to its CSS box and the device pixel ratio; returns the layout. */
  fit(dims, n, flipped = false) {
    const { width, height } = fitCanvas(this.canvas, this.ctx);
    this.layout = new Layout(dims, n, width, height, flipped);
    return this.layout;
  }

  /**
   * Draws `state`: {dims, n, cells: string (a char a cell: piece letter, '.', 'X'/'O'/'#' for Four Tac
   * Toe), tactoe, selected, targets: [{cell, capture}], last: {from, to} | null, check: cell | -1,
   * lines: [{cells, player}], flipped: turned for Black, hover: the cell under the pointer or -1,
   * hints: [{cells}] (Four Tac Toe's live lines through the hovered cell), goal: a lesson's cell to reach
   * or -1}.
   */
  draw(state) {
    const { dims, n } = state;
    const L = this.fit(dims, n, !!state.flipped);
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
    if (state.goal >= 0) {
      // A lesson's cell to reach: a green frame.
      const [x, y, size] = L.rect(cellCoords(state.goal));
      ctx.strokeStyle = '#1a8f3c';
      ctx.lineWidth = Math.max(2, L.cell / 7);
      ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, size - ctx.lineWidth, size - ctx.lineWidth);
    }
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

    // Four Tac Toe's hint: the live lines through the hovered cell, each a colour and a mark.
    (state.hints || []).forEach((line, k) => {
      const colour = HINT_COLOURS[k % HINT_COLOURS.length];
      const points = line.cells.map((i) => L.centre(cellCoords(i)));
      ctx.strokeStyle = colour;
      ctx.globalAlpha = 0.85;
      ctx.lineWidth = Math.max(1.5, L.cell / 12);
      ctx.beginPath();
      ctx.moveTo(...points[0]);
      ctx.lineTo(...points[points.length - 1]);
      ctx.stroke();
      for (const [x, y] of points) this.#hintMark(x, y, HINT_MARKS[k % HINT_MARKS.length], colour, L.cell * 0.16);
      ctx.globalAlpha = 1;
    });
    if (state.hover >= 0) {
      const [x, y, s] = L.rect(cellCoords(state.hover));
      ctx.strokeStyle = COLOURS.hover;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 1, y + 1, s - 2, s - 2);
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
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const small = Math.max(8, Math.min(13, Math.round(L.cell * 0.36)));
    const bottom = L.originY + L.size / 2;
    const left = L.originX - L.size / 2;
    // Along the bottom and up the left side of the drawing: positions from the map itself, so the labels
    // follow the board when it is turned for Black.
    if (dims === 2) {
      ctx.font = `${small + 1}px sans-serif`;
      for (let k = 1; k <= n; k++) {
        ctx.fillText('abcdefghijklmnop'[k - 1], L.centre([k, 1, 1, 1])[0], bottom + 11);
        ctx.fillText(String(k), left - 11, L.centre([1, k, 1, 1])[1]);
      }
      return;
    }
    // 4D: x and y inside each board (small), then which board: w along the bottom, z up the left side.
    ctx.font = `${small}px sans-serif`;
    for (let b = 1; b <= n; b++) {
      for (let k = 1; k <= n; k++) {
        ctx.fillText(String(k), L.centre([k, 1, 1, b])[0], bottom + 8);
        ctx.fillText(String(k), left - 8, L.centre([1, k, b, 1])[1]);
      }
    }
    ctx.font = `bold ${small + 1}px sans-serif`;
    const mid = (n + 1) / 2;
    for (let k = 1; k <= n; k++) {
      ctx.fillText(`w${k}`, L.centre([mid, 1, 1, k])[0], bottom + 24);
      ctx.save();
      ctx.translate(left - 24, L.centre([1, mid, k, 1])[1]);
      ctx.rotate(-Math.PI / 2);
      ctx.fillText(`z${k}`, 0, 0);
      ctx.restore();
    }
  }

  #piece(x, y, letter, cell) {
    const ctx = this.ctx;
    const picture = this.letters ? null : this.pieces(letter, this.layout.dims);
    if (picture) {
      const s = cell * 0.92;
      ctx.drawImage(picture, x - s / 2, y - s / 2, s, s);
      return;
    }
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

  #hintMark(x, y, mark, colour, r) {
    const ctx = this.ctx;
    ctx.fillStyle = colour;
    ctx.beginPath();
    if (mark === 'circle') ctx.arc(x, y, r, 0, 2 * Math.PI);
    else if (mark === 'square') ctx.rect(x - r, y - r, 2 * r, 2 * r);
    else {
      const corners = { star: 10, triangle: 3, diamond: 4, cross: 8 }[mark];
      for (let k = 0; k < corners; k++) {
        const a = -Math.PI / 2 + (2 * Math.PI * k) / corners;
        const rr = mark === 'star' || mark === 'cross' ? (k % 2 ? r * 0.45 : r * 1.2) : r * 1.15;
        ctx.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
      }
      ctx.closePath();
    }
    ctx.fill();
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
