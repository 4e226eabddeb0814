// Large documents as bytes without one string of the whole: the site's biggest files (the browser's copy
// of the atlas, a collection of every artifact, the graph, the bulk downloads) run to hundreds of
// megabytes at 100,000 entities. As one JavaScript string each would sit in the heap beside the registry
// (the build ran out of a 1,400 MB heap on /api/v1/graph), and V8 cannot make a string of more than
// 2^29 - 24 characters at all. Here a document is serialised a part at a time and the parts are encoded
// a megabyte at a time; only the bytes are held, outside the JavaScript heap.

/**
 * The UTF-8 bytes of `parts` written one after another, never joined into one string. Parts are encoded a
 * megabyte of text at a time.
 */
export function utf8Of(parts: Iterable<string>): Buffer {
  const chunks: Buffer[] = [];
  let batch: string[] = [];
  let length = 0;
  const flush = () => {
    chunks.push(Buffer.from(batch.join(''), 'utf8'));
    batch = [];
    length = 0;
  };
  for (const part of parts) {
    batch.push(part);
    length += part.length;
    if (length >= 1 << 20) flush();
  }
  flush();
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The bytes of every JSON document the site serves: `JSON.stringify(value, null, 2)` and a newline, byte
 * for byte, made a part at a time (jsonParts).
 */
export const jsonBytes = (value: unknown): Buffer => utf8Of(jsonParts(value, 2, '\n'));

/**
 * `JSON.stringify(value, null, indent)` followed by `end`, as parts whose concatenation is exactly that
 * text. The root object and the objects in it are written key by key, the arrays they hold element by
 * element, and each element by JSON.stringify: no part is larger than one element, however large the
 * document.
 */
export function* jsonParts(value: unknown, indent: 0 | 2, end = ''): Generator<string> {
  yield* partsOf(value, indent, 0);
  yield end;
}

/** Objects this deep or deeper are one part (as is every array element). */
const OPEN_DEPTH = 2;

function* partsOf(value: unknown, indent: number, depth: number): Generator<string> {
  if (!isContainer(value)) {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  const isArray = Array.isArray(value);
  // Each member under its key. Like JSON.stringify, an object leaves out members that are undefined,
  // functions or symbols (in an array, JSON.stringify below writes them as null).
  const members: Array<[string | undefined, unknown]> = isArray
    ? Array.from(value as unknown[], (v): [undefined, unknown] => [undefined, v])
    : Object.keys(value).flatMap((k) =>
        isOmitted((value as Record<string, unknown>)[k]) ? [] : [[k, (value as Record<string, unknown>)[k]]],
      );
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (members.length === 0) {
    yield open + close;
    return;
  }
  const inner = indent ? '\n' + ' '.repeat(indent * (depth + 1)) : '';
  const outer = indent ? '\n' + ' '.repeat(indent * depth) : '';
  const colon = indent ? ': ' : ':';
  yield open;
  let first = true;
  for (const [key, member] of members) {
    yield (first ? '' : ',') + inner + (key === undefined ? '' : JSON.stringify(key) + colon);
    first = false;
    if (!isArray && isContainer(member) && (Array.isArray(member) || depth + 1 < OPEN_DEPTH)) yield* partsOf(member, indent, depth + 1);
    else yield indented(JSON.stringify(member, null, indent) ?? 'null', inner);
  }
  yield outer + close;
}

/** A plain array or object that JSON.stringify would write member by member (not one with its own toJSON). */
function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** A member's own JSON text placed at its depth: each of its line breaks gains the indentation of the depth. */
function indented(text: string, inner: string): string {
  return inner && text.includes('\n') ? text.replaceAll('\n', inner) : text;
}
