// The failures a workflow (build, release) expects and reports to people: a message saying what went
// wrong and what to do, an exit status and a stable code. The CLI prints them as its own errors
// (src/cli/io.ts reportFailure); anything else thrown from a workflow is a bug.

/** The stable codes a workflow fails with (a subset of the CLI's ErrorCode, src/cli/io.ts). */
export type WorkflowErrorCode =
  | 'invalid-argument'
  | 'usage'
  | 'invalid-content'
  | 'out-dir-refused'
  | 'build-locked'
  | 'write-failed'
  | 'failed';

export class WorkflowError extends Error {
  constructor(
    message: string,
    readonly exit: 1 | 2 = 1,
    readonly code: WorkflowErrorCode = exit === 2 ? 'invalid-argument' : 'failed',
  ) {
    super(message);
  }
}
