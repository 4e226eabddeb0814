// Whole numbers written as text that JSON carries as it is (no quote or backslash to escape), for the
// search index's postings (search/codec.ts) and the situation reader's model (reader-model.ts): the
// snapshot, the site and the Worker ship both. Property tests: test/unit/search-index.test.ts.

// Numbers are written as base-64url digits of 5 bits, most significant first, all but the last digit
// marked by adding 32: small numbers (most gaps and counts) take one character, and the text is JSON-safe
// ASCII (no quote or backslash to escape in the snapshot).
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) DIGIT_VALUE[DIGITS.charCodeAt(i)] = i;

// Joined, not appended to one string: a string grown by += is a chain of one small piece per append
// (a "rope" in V8) until something flattens it, and the index keeps its postings for good. Appended, the
// index of a 10,000-entity atlas took 77 MB of heap for 3.1 MB of text; joined, 4 MB (BENCHMARKS.md).
export function encode(numbers: readonly number[]): string {
  const out: string[] = [];
  for (let n of numbers) {
    let digits = DIGITS[n & 31]!;
    for (n >>>= 5; n > 0; n >>>= 5) digits = DIGITS[32 + (n & 31)]! + digits;
    out.push(digits);
  }
  return out.join('');
}

/** The numbers encoded in text[start, end) (all of it by default). */
export function decode(text: string, start = 0, end = text.length): Int32Array {
  const out = new Int32Array(end - start);
  let count = 0;
  let n = 0;
  for (let i = start; i < end; i++) {
    const v = DIGIT_VALUE[text.charCodeAt(i)]!;
    if (!(v >= 0)) throw new RangeError(`"${text[i]}" at ${i} is not a digit of a number text: the text is damaged`);
    if (v < 32) {
      out[count++] = n * 32 + v;
      n = 0;
    } else n = n * 32 + (v - 32);
  }
  return out.subarray(0, count);
}

/** Digits of a fixed-width number (encodeFixed): six bits each, so up to 2^30 − 1. */
const FIXED_WIDTH = 5;

/** Numbers from 0 to 2^30 − 1 as five digits each, most significant first: the i-th is read alone (decodeFixedAt). */
export function encodeFixed(numbers: readonly number[]): string {
  const out: string[] = [];
  for (const n of numbers) {
    if (!Number.isInteger(n) || n < 0 || n >= 2 ** (6 * FIXED_WIDTH)) throw new RangeError(`${n} does not fit in ${FIXED_WIDTH} digits`);
    for (let d = FIXED_WIDTH - 1; d >= 0; d--) out.push(DIGITS[(n >>> (6 * d)) & 63]!);
  }
  return out.join('');
}

/** The i-th number of an encodeFixed text. */
export function decodeFixedAt(text: string, i: number): number {
  let n = 0;
  for (let at = i * FIXED_WIDTH, end = at + FIXED_WIDTH; at < end; at++) n = n * 64 + DIGIT_VALUE[text.charCodeAt(at)]!;
  return n;
}
