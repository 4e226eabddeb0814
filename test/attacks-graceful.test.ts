// The long run of the graceful-stop suite (test/graceful-stop.test.ts) for `npm run test:attacks`: ten
// rounds of SIGTERM under load on 32 keep-alive connections, for `hoba serve` and `hoba-mcp --http` each.
process.env['HOBA_STOP_ROUNDS'] ??= '10';
await import('./graceful-stop.test.ts');
