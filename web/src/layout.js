// The write-up's map of a board onto the screen, and its closed-form inverse (picking).
//
// A cell (x, y, z, w), coordinates 1..n, goes to
//     worldX = (w − c)·PITCH + (x − c)·CELL
//     worldY = (z − c)·PITCH + (y − c)·CELL        c = (n + 1) / 2 = 3 on 5⁴, PITCH = n·CELL + GAP
// so x and y run inside each small board and z and w choose the board. The map is affine in all four
// coordinates: every 4D line (rook ray, bishop diagonal, unicorn triagonal, dragon 4-agonal) lands on a
// straight line of cells on screen. A 2D board is the same map with z = w = 1 and a single board.
// The screen's y grows downwards, so worldY is negated: White (y = 1) sits at the bottom of each board.
// Turned for Black, the map is the point reflection through the centre: (worldX, worldY) → (−worldX, −worldY),
// so Black's side comes to the bottom; the map stays affine, and every line stays straight.

/** Coordinates (1-based) of cell `idx` on a board of `dims` axes of side `n`: idx = Σ (c_k − 1)·n^k. */
export function coords(idx, dims, n) {
  const c = [];
  for (let k = 0; k < dims; k++) {
    c.push((idx % n) + 1);
    idx = Math.floor(idx / n);
  }
  while (c.length < 4) c.push(1);
  return c;
}

/** The index of a cell from its 1-based coordinates (axes past `dims` ignored). */
export function index(c, dims, n) {
  let idx = 0;
  for (let k = dims - 1; k >= 0; k--) idx = idx * n + (c[k] - 1);
  return idx;
}

/** The screen layout of a board of `dims` axes and side `n` in a canvas of `width` × `height` CSS pixels. */
export class Layout {
  constructor(dims, n, width, height, flipped = false) {
    this.dims = dims;
    this.flipped = flipped; // turned for Black: the point reflection through the centre
    this.n = n;
    this.boards = dims === 4 ? n : 1; // boards per row and per column of the grid
    this.cellsAcross = this.boards * n;
    const margin = dims === 4 ? 34 : 24; // room for the axis labels (x, y and under them w, z in 4D)
    const gapCells = dims === 4 ? 0.6 : 0; // the gap between boards, in cells
    const across = this.cellsAcross + (this.boards - 1) * gapCells;
    this.cell = Math.max(4, Math.floor(Math.min((width - 2 * margin) / across, (height - 2 * margin) / across)));
    this.gap = Math.round(gapCells * this.cell);
    this.pitch = n * this.cell + this.gap;
    this.c = (n + 1) / 2; // the centre coordinate along x and y
    this.cb = (this.boards + 1) / 2; // ... and along z and w (1 on a 2D board: a single board)
    this.originX = width / 2;
    this.originY = height / 2;
    this.size = this.boards * n * this.cell + (this.boards - 1) * this.gap;
  }

  /** worldX, worldY of a cell's centre (the write-up's affine map). */
  world(c) {
    const { c: m, cb, pitch, cell } = this;
    return [(c[3] - cb) * pitch + (c[0] - m) * cell, (c[2] - cb) * pitch + (c[1] - m) * cell];
  }

  /** The canvas (CSS pixel) centre of the cell with coordinates `c`. */
  centre(c) {
    const [wx, wy] = this.world(c);
    return this.flipped ? [this.originX - wx, this.originY + wy] : [this.originX + wx, this.originY - wy];
  }

  /** The canvas rectangle [left, top, size] of a cell. */
  rect(c) {
    const [x, y] = this.centre(c);
    return [x - this.cell / 2, y - this.cell / 2, this.cell];
  }

  /** The top-left corner of board (z, w) on the canvas. */
  boardCorner(z, w) {
    const n = this.n;
    const [x, y] = this.centre(this.flipped ? [n, 1, z, w] : [1, n, z, w]);
    return [x - this.cell / 2, y - this.cell / 2];
  }

  /**
   * The cell under canvas point (px, py), or null: the closed-form inverse of the map, no search. Along
   * each screen axis the offset from the first board's edge splits into a board number (by PITCH) and a
   * cell inside the board (by CELL); a point in the gap between boards is no cell.
   */
  pick(px, py) {
    if (this.flipped) [px, py] = [2 * this.originX - px, 2 * this.originY - py];
    const along = (offset) => {
      // offset: distance from the outer edge of board 1 / cell 1 along this screen axis
      if (offset < 0) return null;
      const board = Math.floor(offset / this.pitch);
      const inside = offset - board * this.pitch;
      const cellNo = Math.floor(inside / this.cell);
      if (board >= this.boards || cellNo >= this.n) return null;
      return [cellNo + 1, board + 1];
    };
    const half = this.size / 2;
    const h = along(px - (this.originX - half));
    const v = along(this.originY + half - py);
    if (!h || !v) return null;
    const c = [h[0], v[0], v[1], h[1]];
    return index(c, this.dims, this.n);
  }
}

/**
 * Sizes a canvas's backing store to its CSS box and the device pixel ratio, and scales its context so that
 * drawing is in CSS pixels. Returns the CSS size.
 */
export function fitCanvas(canvas, ctx) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { width, height };
}
