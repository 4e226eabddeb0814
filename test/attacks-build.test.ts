// The long run of the fault suite (test/e2e/site-faults.test.ts) for `npm run test:attacks`: twenty builds killed
// with SIGKILL at moments spread over a build, and twenty rounds of three builds at once, into a site served
// without a pause; no request may fail.
process.env['HOBA_FAULT_KILLS'] ??= '20';
process.env['HOBA_FAULT_ROUNDS'] ??= '20';
await import('./e2e/site-faults.test.ts');
