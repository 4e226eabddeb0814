// Standard output for the commands that print once and exit. Node's process.stdout is a stream, and
// creating it loads the stream and socket machinery: about a twentieth of a short command's start-up
// here (bench/cli-start.mjs). When standard output is a pipe, a file, a socket or /dev/null, these
// commands write to file descriptor 1 directly; they touch process.stdout only when it may be a
// terminal, where it is needed anyway (the width, colours).
import { fstatSync, statSync, writeSync } from 'node:fs';

let direct: boolean | undefined;

/** Whether stdout is certainly not a terminal (a pipe, a file, a socket, /dev/null): then it is written directly. */
function isDirect(): boolean {
  if (direct === undefined) {
    try {
      const st = fstatSync(1);
      direct = st.isFIFO() || st.isFile() || st.isSocket() || (st.isCharacterDevice() && st.rdev === statSync('/dev/null').rdev);
    } catch {
      direct = false; // no descriptor 1: let the stream report it
    }
  }
  return direct;
}

/** Whether stdout is a terminal (colours and the terminal's width apply). */
export function stdoutIsTerminal(): boolean {
  return !isDirect() && process.stdout.isTTY === true;
}

/** The terminal's width in columns, or undefined when stdout is not a terminal. */
export function stdoutColumns(): number | undefined {
  return stdoutIsTerminal() ? process.stdout.columns : undefined;
}

/** A reader that has gone (hoba … | head) is not an error: the command ends quietly with its status so far. */
const readerGone = () => process.exit(process.exitCode ?? 0);

let guarded = false;

/** process.stdout, which ends the command quietly when its reader has gone instead of throwing. */
export function stdoutStream(): NodeJS.WriteStream {
  if (!guarded) {
    guarded = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') readerGone();
      throw err;
    });
  }
  return process.stdout;
}

/**
 * Writes `text` to stdout, directly when it is not a terminal. A non-blocking descriptor that is full
 * hands the rest, and every later write, to the stream, which waits for room and keeps the order.
 */
export function writeOut(text: string | Uint8Array): void {
  if (!isDirect()) {
    stdoutStream().write(text);
    return;
  }
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') readerGone();
    if (code !== 'EAGAIN') throw err;
    direct = false;
    stdoutStream().write(bytes.subarray(done));
  }
}
