// The entry of dist/worker.js: the worker on the atlas snapshot that scripts/build-worker.mjs bundles
// in as the module `hoba:snapshot` (the snapshot `npm run build` wrote to dist/atlas.snapshot.json).
import * as snapshot from 'hoba:snapshot';
import { createWorker } from './index.ts';

export default createWorker(snapshot);
