// The piece pictures: the board crate's SVG piece set (tesseract_board::pieces, through the WebAssembly
// module's pieceSvg), the same drawings as `tesseract_board::svg` and the README's pictures. Each is made
// into an image once; until it has loaded, the grid draws the piece's letter instead.

export class PieceSet {
  /** `api`: the WebAssembly module; `loaded()`: called when a picture becomes ready (to draw again). */
  constructor(api, loaded) {
    this.api = api;
    this.loaded = loaded;
    this.images = new Map(); // "letter/dims" -> HTMLImageElement (ready or loading), or null (no picture)
  }

  /** The picture of the piece with FEN/TFEN letter `letter` on a board of `dims` axes, if it is ready. */
  image(letter, dims) {
    const key = `${letter}/${dims}`;
    if (!this.images.has(key)) this.images.set(key, this.#make(letter, dims));
    const img = this.images.get(key);
    return img && img.complete && img.naturalWidth > 0 ? img : null;
  }

  #make(letter, dims) {
    let svg;
    try {
      svg = this.api.pieceSvg(letter, dims);
    } catch {
      return null; // not a piece letter: drawn as a letter
    }
    const img = new Image();
    img.onload = () => this.loaded();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    return img;
  }
}
