// Types of zod-english-only.mjs, for bench/mcp.ts (the build scripts are plain JavaScript, run without tsx).
import type { Plugin } from 'esbuild';

export declare const zodEnglishOnly: Plugin;
