// The long run of the graceful-stop suite (test/e2e/graceful-stop.test.ts) for `npm run test:attacks`: ten
// rounds of SIGTERM under load on 32 keep-alive connections, for `hoba serve` and `hoba-mcp --http` each.
process.env['HOBA_STOP_ROUNDS'] ??= '10';
await import('./e2e/graceful-stop.test.ts');
