// Stopping an HTTP server without dropping what it is answering: `hoba serve` and `hoba-mcp --http` on
// SIGTERM or SIGINT (an orchestrator's stop, Ctrl-C). Node's server.close() closes idle keep-alive
// connections at once, and closeAllConnections() every connection: a request in flight, or one already on
// its way on a keep-alive connection, was lost. Here the server stops accepting connections; every answer
// from then on closes its connection (Connection: close); idle connections get a moment for a request
// already sent, then are closed; whatever is left at the deadline is closed. A second signal stops at once.
import { Server as NetServer } from 'node:net';
import type { Server } from 'node:http';

export interface StopOptions {
  /** How long idle keep-alive connections are left open for a request already on its way (ms). */
  graceMs?: number;
  /** When whatever is still open is closed (ms). */
  deadlineMs?: number;
}

export const STOP_DEADLINE_MS = 10_000;

/** Servers that are stopping: each answer they send closes its connection. */
const stopping = new WeakSet<Server>();

/** Makes every answer of a stopping server close its connection; call once, when the server is made. */
function closeConnectionsWhenStopping(server: Server): void {
  // Before the server's own handler, which may answer synchronously.
  server.prependListener('request', (_req, res) => {
    if (stopping.has(server)) res.setHeader('Connection', 'close');
  });
}

/** Stops the server gracefully; resolves once every connection is closed. */
function stopGracefully(server: Server, options: StopOptions = {}): Promise<void> {
  const { graceMs = 1000, deadlineMs = STOP_DEADLINE_MS } = options;
  stopping.add(server);
  return new Promise((done) => {
    let sweep: NodeJS.Timeout | undefined;
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      clearInterval(sweep);
      timers.forEach(clearTimeout);
      done();
    };
    // The listening socket only: http's close() would also close the idle connections at once.
    if (server.listening) NetServer.prototype.close.call(server, finish);
    else finish();
    timers.push(
      setTimeout(() => {
        server.closeIdleConnections();
        sweep = setInterval(() => server.closeIdleConnections(), 50);
      }, graceMs),
      setTimeout(() => server.closeAllConnections(), deadlineMs),
    );
  });
}

/** Stops the server gracefully on the first SIGTERM or SIGINT, at once on a second; resolves once stopped. */
export function stopOnSignals(server: Server, options: StopOptions = {}): Promise<void> {
  closeConnectionsWhenStopping(server);
  return new Promise((done) => {
    let stopped = false;
    const onSignal = () => {
      if (stopped) {
        server.closeAllConnections();
        return;
      }
      stopped = true;
      void stopGracefully(server, options).then(() => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        done();
      });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
