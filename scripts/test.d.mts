// Types of test.mjs, for test/unit/lanes.test.ts (the scripts are plain JavaScript, run without tsx).
export declare function testFiles(root?: string): string[];
export declare function laneOf(file: string): 'unit' | 'e2e' | 'attacks' | undefined;
export declare const LANE_RULE: string;
/** Whether a test file is marked to run once in CI (`// ci: once (<why>)` among its first 20 lines). */
export declare function runsOnce(file: string, root?: string): boolean;
/** A folder in memory for the tests' temporary files (under `base`, default /dev/shm), or undefined when none can be made or run from. */
export declare function memoryTmp(base?: string): string | undefined;
