// The tesseract view: the real 4D shape, inner cube at w = 1, outer cube at w = 5, turned by an isoclinic
// rotation (the same angle in the x–w and y–z planes), projected 4D → 3D by perspective along w, then
// 3D → 2D by a fixed oblique view. Drawn on a 2D canvas, on demand: a frame when the state or the angle
// changes, and a frame per animation tick only while the "turn" button is on.

import { coords, fitCanvas } from './layout.js';

const VIEWER_W = 3; // the 4D viewer's distance along w: w = +1 (outer) appears twice the size of w = −1
const YAW = 0.55;
const PITCH = 0.35;

/** The 16 corners of the unit tesseract (±1)^4 and its 32 edges (corner pairs differing on one axis). */
const CORNERS = Array.from({ length: 16 }, (_, i) => [0, 1, 2, 3].map((k) => ((i >> k) & 1 ? 1 : -1)));
const EDGES = [];
for (let i = 0; i < 16; i++) for (let k = 0; k < 4; k++) if (!(i & (1 << k))) EDGES.push([i, i | (1 << k)]);

export class TesseractView {
  /** `pieces(letter, dims)`: a piece's picture ready to draw, or null (its letter is drawn then). */
  constructor(canvas, pieces = () => null) {
    this.canvas = canvas;
    this.pieces = pieces;
    this.letters = false; // the high-contrast option: letters in discs
    this.ctx = canvas.getContext('2d');
    this.angle = 0;
    this.yaw = YAW;
    this.drawn = []; // [{cell, x, y, r}] of the last frame, nearest last
  }

  /** A point of 4D space (each coordinate in −1..1) on the canvas: [x, y, depth, scale]. */
  project(p) {
    const t = this.angle;
    const [ct, st] = [Math.cos(t), Math.sin(t)];
    // Isoclinic rotation: equal angles in two orthogonal planes.
    const x = p[0] * ct - p[3] * st;
    const w = p[0] * st + p[3] * ct;
    const y = p[1] * ct - p[2] * st;
    const z = p[1] * st + p[2] * ct;
    // 4D → 3D: perspective along w.
    const s = VIEWER_W / (VIEWER_W - w) / 1.5;
    let [X, Y, Z] = [x * s, y * s, z * s];
    // 3D → 2D: turn about the vertical (yaw) then tilt (pitch), orthographic.
    const [cy, sy] = [Math.cos(this.yaw), Math.sin(this.yaw)];
    [X, Z] = [X * cy + Z * sy, -X * sy + Z * cy];
    const [cp, sp] = [Math.cos(PITCH), Math.sin(PITCH)];
    [Y, Z] = [Y * cp - Z * sp, Y * sp + Z * cp];
    const W = this.canvas.clientWidth;
    const H = this.canvas.clientHeight;
    const unit = Math.min(W, H) * 0.22;
    return [W / 2 + X * unit, H / 2 - Y * unit, Z, s];
  }

  /** Draws `state` (as for the grid view); only 4D boards have a tesseract. */
  draw(state) {
    const { ctx } = this;
    const { width, height } = fitCanvas(this.canvas, ctx);
    ctx.clearRect(0, 0, width, height);
    this.drawn = [];
    if (state.dims !== 4) {
      ctx.fillStyle = '#555';
      ctx.font = '16px sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText('The tesseract view shows 4D boards; this game is 2D.', width / 2, height / 2);
      return;
    }
    const { n } = state;
    const mid = (n + 1) / 2;
    const unitOf = (c) => c.map((v) => (v - mid) / (mid - 1));

    // Edges: the inner cube (w = −1 before turning), the outer cube, and the 8 edges joining them.
    for (const [a, b] of EDGES) {
      const inner = CORNERS[a][3] < 0 && CORNERS[b][3] < 0;
      const outer = CORNERS[a][3] > 0 && CORNERS[b][3] > 0;
      const [pa, pb] = [this.project(CORNERS[a]), this.project(CORNERS[b])];
      ctx.strokeStyle = inner ? '#2a6bb5' : outer ? '#b5482a' : '#999';
      ctx.lineWidth = inner || outer ? 2 : 1;
      ctx.beginPath();
      ctx.moveTo(pa[0], pa[1]);
      ctx.lineTo(pb[0], pb[1]);
      ctx.stroke();
    }

    // Cells worth showing: pieces, marks, and the highlighted cells; far ones first.
    const targets = new Map(state.targets.map((t) => [t.cell, t]));
    const items = [];
    const total = n ** 4;
    for (let i = 0; i < total; i++) {
      const ch = state.cells[i];
      const shown = (ch !== '.' && ch !== '#') || targets.has(i) || i === state.selected;
      if (!shown) continue;
      const [x, y, depth, s] = this.project(unitOf(coords(i, 4, n)));
      items.push({ i, ch, x, y, depth, s });
    }
    items.sort((a, b) => b.depth - a.depth);
    const base = Math.min(width, height) / 60;
    for (const it of items) {
      const r = base * it.s * 1.4;
      const t = targets.get(it.i);
      if (it.i === state.selected) {
        ctx.beginPath();
        ctx.arc(it.x, it.y, r * 1.6, 0, 2 * Math.PI);
        ctx.fillStyle = 'rgba(255, 215, 0, 0.8)';
        ctx.fill();
      }
      const picture = state.tactoe || this.letters || it.ch === '.' || it.ch === '#' ? null : this.pieces(it.ch, 4);
      if (picture) {
        const size = r * 2.6;
        ctx.drawImage(picture, it.x - size / 2, it.y - size / 2, size, size);
      } else if (it.ch !== '.' && it.ch !== '#') {
        const white = state.tactoe ? it.ch === 'X' : it.ch === it.ch.toUpperCase();
        ctx.beginPath();
        ctx.arc(it.x, it.y, r, 0, 2 * Math.PI);
        ctx.fillStyle = state.tactoe ? (white ? '#d33' : '#26c') : white ? '#fdfdfd' : '#2b2b2b';
        ctx.fill();
        ctx.strokeStyle = '#222';
        ctx.lineWidth = 1;
        ctx.stroke();
        if (!state.tactoe && r > 5) {
          ctx.fillStyle = white ? '#111' : '#f4f4f4';
          ctx.font = `bold ${Math.round(r * 1.2)}px sans-serif`;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(it.ch.toUpperCase(), it.x, it.y + 1);
        }
      }
      if (t) {
        ctx.beginPath();
        ctx.arc(it.x, it.y, t.capture ? r * 1.3 : r * 0.5, 0, 2 * Math.PI);
        ctx.strokeStyle = t.capture ? 'rgba(200, 50, 30, 0.9)' : 'rgba(30, 110, 200, 0.9)';
        ctx.fillStyle = 'rgba(30, 110, 200, 0.7)';
        if (t.capture) {
          ctx.lineWidth = 2;
          ctx.stroke();
        } else ctx.fill();
      }
      this.drawn.push({ cell: it.i, x: it.x, y: it.y, r: Math.max(r, 6) });
    }
  }

  /** The drawn cell nearest to (px, py) within its disc, nearest to the viewer first; or null. */
  pick(px, py) {
    for (let k = this.drawn.length - 1; k >= 0; k--) {
      const d = this.drawn[k];
      if ((d.x - px) ** 2 + (d.y - py) ** 2 <= d.r * d.r) return d.cell;
    }
    return null;
  }
}
