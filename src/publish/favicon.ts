// The site's icon: a white H on the link blue, as SVG (linked from every page) and as /favicon.ico (which
// browsers and crawlers request whatever a page links). Both are drawn from the same shapes, in code, so
// the build stays byte-deterministic and needs no binary file in the repository.

const SIZE = 16;
const BLUE = { r: 0x06, g: 0x45, b: 0xad };
const WHITE = { r: 0xff, g: 0xff, b: 0xff };

/** The H: two bars and a crossbar, as [x, y, width, height] on a 16 × 16 grid. */
const H_RECTS: ReadonlyArray<readonly [number, number, number, number]> = [
  [4, 3, 2, 10],
  [10, 3, 2, 10],
  [6, 7, 4, 2],
];

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">\
<rect width="${SIZE}" height="${SIZE}" rx="3" fill="#0645ad"/>\
${H_RECTS.map(([x, y, w, h]) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff"/>`).join('')}</svg>
`;

/** Whether a pixel of the 16 × 16 icon lies outside the rounded square (its corners are transparent). */
function outside(x: number, y: number): boolean {
  const cx = Math.min(x, SIZE - 1 - x);
  const cy = Math.min(y, SIZE - 1 - y);
  return cx + cy < 2;
}

const inH = (x: number, y: number) => H_RECTS.some(([rx, ry, w, h]) => x >= rx && x < rx + w && y >= ry && y < ry + h);

/**
 * A 16 × 16, 32-bit ICO: an ICONDIR, one entry, and a BMP (BITMAPINFOHEADER, BGRA rows bottom-up, then
 * the 1-bit AND mask, which marks the transparent corners for readers that ignore alpha).
 */
export function faviconIco(): Buffer {
  const pixels = SIZE * SIZE * 4;
  const maskRow = 4; // 16 bits, padded to 32
  const image = 40 + pixels + maskRow * SIZE;
  const out = Buffer.alloc(6 + 16 + image);
  out.writeUInt16LE(0, 0); // reserved
  out.writeUInt16LE(1, 2); // type: icon
  out.writeUInt16LE(1, 4); // one image
  out.writeUInt8(SIZE, 6);
  out.writeUInt8(SIZE, 7);
  out.writeUInt16LE(1, 10); // colour planes
  out.writeUInt16LE(32, 12); // bits per pixel
  out.writeUInt32LE(image, 14);
  out.writeUInt32LE(22, 18); // offset of the image
  let at = 22;
  out.writeUInt32LE(40, at); // BITMAPINFOHEADER
  out.writeInt32LE(SIZE, at + 4);
  out.writeInt32LE(SIZE * 2, at + 8); // the XOR image and the AND mask, stacked
  out.writeUInt16LE(1, at + 12);
  out.writeUInt16LE(32, at + 14);
  out.writeUInt32LE(pixels + maskRow * SIZE, at + 20);
  at += 40;
  for (let row = SIZE - 1; row >= 0; row--) {
    for (let x = 0; x < SIZE; x++) {
      const transparent = outside(x, row);
      const c = inH(x, row) ? WHITE : BLUE;
      out.writeUInt8(c.b, at);
      out.writeUInt8(c.g, at + 1);
      out.writeUInt8(c.r, at + 2);
      out.writeUInt8(transparent ? 0 : 0xff, at + 3);
      at += 4;
    }
  }
  for (let row = SIZE - 1; row >= 0; row--) {
    let bits = 0;
    for (let x = 0; x < SIZE; x++) if (outside(x, row)) bits |= 1 << (15 - x);
    out.writeUInt16BE(bits, at);
    at += maskRow;
  }
  return out;
}
