// An MCP server on standard input/output: the SDK's StdioServerTransport, reading stdin through a line
// filter. On its own the transport skips a line that is not JSON without a word, reports a line that is
// not JSON-RPC only to its onerror (where the line and its id are gone), and on a line longer than its
// buffer closes, so the process exits 0 as if the client had hung up. The filter answers each malformed
// line itself (-32700 or -32600 with the line's id, sent through the transport) and passes every other
// line on unchanged; on a line over MAX_MESSAGE_BYTES it says why on stderr and ends with exit status 1.
import { Transform, type TransformCallback } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { MAX_MESSAGE_BYTES, invalidLine, type ErrorResponse } from './jsonrpc.ts';
import { createMcpServer } from './server.ts';
import type { ToolAtlas, Variant } from './tools.ts';

const NEWLINE = 0x0a;

/** Splits a byte stream into lines: JSON-RPC messages pass on, each other non-blank line gets `answer`ed. */
class MessageLines extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private stopped = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly answer: (error: ErrorResponse) => void,
    /** Called once when a line grows past maxLineBytes; the stream then ends. */
    private readonly overflow: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1 && !this.stopped; end = chunk.indexOf(NEWLINE, start)) {
      this.append(chunk.subarray(start, end));
      if (!this.stopped) this.line(Buffer.concat(this.pending, this.pendingBytes));
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
    }
    this.append(chunk.subarray(start));
    done();
  }

  /** Adds part of the current line, stopping everything once the line is too long: it is never buffered whole. */
  private append(part: Buffer): void {
    if (this.stopped || part.length === 0) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxLineBytes) {
      this.stopped = true;
      this.pending = [];
      this.overflow();
      this.push(null);
      return;
    }
    this.pending.push(part);
  }

  private line(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    // A blank line carries no message (some clients send one as a keep-alive): nothing to answer.
    if (text.trim() === '') return;
    const error = invalidLine(text);
    if (error) this.answer(error);
    else this.push(Buffer.concat([bytes, Buffer.of(NEWLINE)]));
  }
}

export async function serveStdio(atlas: ToolAtlas, variant: Variant): Promise<void> {
  const server = createMcpServer(atlas, variant);
  const lines: MessageLines = new MessageLines(
    MAX_MESSAGE_BYTES,
    // JSON-RPC wants "id": null when the id is unknown; the SDK's message type leaves it out instead.
    (error) => void transport.send(error as unknown as JSONRPCMessage).catch(() => {}),
    () => {
      process.stderr.write(
        `hoba-mcp: a line on standard input is longer than ${MAX_MESSAGE_BYTES} bytes, the most one message may take; stopping. Send one JSON-RPC message per line, each under ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB.\n`,
      );
      process.exitCode = 1;
      // Read no more of it: a paused stdin that is a socket (as spawn() makes it) would keep the process alive.
      process.stdin.unpipe(lines);
      process.stdin.destroy();
    },
  );
  const transport = new StdioServerTransport(lines, process.stdout);
  await server.connect(transport);
  process.stdin.pipe(lines);
}
