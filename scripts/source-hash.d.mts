// Types of source-hash.mjs, for the tests (the build scripts are plain JavaScript, run without tsx).
export declare const BUILD_INPUTS: readonly string[];
export declare const STAMP_FILE: string;
export declare function treeHash(root: string, inputs: readonly string[]): string;
export declare function sourceHash(root: string): string;
export declare function stampedSourceHash(root: string): string | undefined;
export declare function distProblem(root: string): string | undefined;
