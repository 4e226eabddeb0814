// Seeded randomness for the synthetic atlas: one small PRNG (sfc32, seeded through splitmix32) and the
// few draws the generator needs. No Math.random anywhere: the same seed gives the same atlas.

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // splitmix32 spreads a small integer seed over the four words of state.
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** One of the keys, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let r = this.next() * entries.reduce((n, [, w]) => n + w, 0);
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries.at(-1)![0];
  }

  /** A copy in random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/**
 * A Zipf law over ranks 0..n-1: rank r is drawn with weight (r + 1)^-s. The cumulative weights are kept,
 * so a draw is a binary search, and `below` draws from the first ranks only (the truncated law, used
 * where an edge may only point at more popular entities). This is what gives the graph its hubs.
 */
export class Zipf {
  private readonly cumulative: Float64Array;

  constructor(
    readonly n: number,
    readonly s: number,
  ) {
    this.cumulative = new Float64Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) this.cumulative[r] = total += (r + 1) ** -s;
  }

  /** A rank in [0, below). */
  draw(random: Random, below = this.n): number {
    if (below <= 0) throw new Error('Zipf.draw: empty range');
    const x = random.next() * this.cumulative[below - 1]!;
    let lo = 0;
    let hi = below - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Zipf laws by size and exponent: building one is linear in n, so each is built once. */
const laws = new Map<string, Zipf>();

export function zipf(n: number, s: number): Zipf {
  const key = `${n} ${s}`;
  let law = laws.get(key);
  if (!law) {
    law = new Zipf(n, s);
    laws.set(key, law);
  }
  return law;
}

/** A count in [min, max] with weight (k - min + 1)^-s: mostly small, with a heavy tail (out-degrees). */
export function heavyCount(random: Random, min: number, max: number, s: number): number {
  return min + zipf(max - min + 1, s).draw(random);
}
