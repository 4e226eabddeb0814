// Load on many keep-alive connections while a server is sent SIGTERM (`hoba serve`, `hoba-mcp --http`):
// every request sent on an open connection must be answered in full; once the server has stopped
// accepting, new connections are refused, which is not a lost request. graceful-stop.test.ts runs a round;
// attacks-graceful.test.ts runs more. Not a test file.
import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';

export interface LoadResult {
  answered: number;
  /** Requests sent on an open connection that got no complete answer. */
  lost: string[];
  /** Connections refused once the server stopped listening. */
  refused: number;
  /** Requests answered after the signal was sent. */
  answeredAfterSignal: number;
  exit: { code: number | null; signal: NodeJS.Signals | null };
}

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request on the agent: resolves when the whole answer has arrived, rejects with the reason otherwise. */
function once_(origin: URL, agent: Agent, r: LoadRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: origin.hostname,
        port: origin.port,
        path: r.path,
        method: r.method,
        agent,
        headers: { ...r.headers, ...(r.body ? { 'content-length': String(Buffer.byteLength(r.body)) } : {}) },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('aborted', () => reject(Object.assign(new Error('answer cut short'), { code: 'ABORTED' })));
        res.on('error', reject);
        res.on('end', () => {
          const declared = res.headers['content-length'];
          if (res.statusCode !== 200) reject(Object.assign(new Error(`status ${res.statusCode}`), { code: 'STATUS' }));
          else if (declared !== undefined && Number(declared) !== bytes)
            reject(Object.assign(new Error(`${bytes} of ${declared} bytes`), { code: 'SHORT' }));
          else resolve();
        });
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

/**
 * Keeps `connections` keep-alive connections busy with requests; once each has answered `warm` of them,
 * sends `signal` to the server and goes on until the server refuses new connections and has exited.
 */
export async function loadThenSignal(
  child: ChildProcess,
  origin: string,
  make: (i: number) => LoadRequest,
  options: { connections?: number; warm?: number; signal?: NodeJS.Signals } = {},
): Promise<LoadResult> {
  const { connections = 32, warm = 3, signal = 'SIGTERM' } = options;
  const url = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const result: LoadResult = { answered: 0, lost: [], refused: 0, answeredAfterSignal: 0, exit: { code: null, signal: null } };
  let signalled = false;
  let warmed = 0;
  let n = 0;
  let signalSent!: () => void;
  const sent = new Promise<void>((done) => (signalSent = done));
  const loop = async (c: number) => {
    for (let k = 0; ; k++) {
      try {
        await once_(url, agent, make(n++));
        result.answered++;
        if (signalled) result.answeredAfterSignal++;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ECONNREFUSED' && signalled) {
          result.refused++;
          return;
        }
        result.lost.push(`connection ${c}, request ${k}: ${code ?? ''} ${(err as Error).message}`);
        return;
      }
      if (k + 1 === warm && ++warmed === connections) {
        signalled = true;
        child.kill(signal);
        signalSent();
      }
    }
  };
  const loops = Array.from({ length: connections }, (_, c) => loop(c));
  // A loop that failed before the signal would leave the others waiting: they end anyway when the server does.
  await Promise.race([sent, Promise.all(loops)]);
  if (!signalled) {
    signalled = true;
    child.kill(signal);
  }
  await Promise.all(loops);
  const [code, sig] = await exited;
  result.exit = { code, signal: sig };
  agent.destroy();
  return result;
}
