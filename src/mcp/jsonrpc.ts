// What both transports (stdio.ts, http.ts) check before a message reaches the SDK: its size, that it is
// JSON, and that it is a JSON-RPC 2.0 message. The SDK would drop the first two kinds silently on stdio
// and answer -32700 for the third over HTTP; JSON-RPC 2.0 (§5.1) asks for -32700 Parse error for text
// that is not JSON and -32600 Invalid Request for JSON that is not a message, with the message's id when
// it carries a usable one and null otherwise.
import { ProtocolErrorCode, parseJSONRPCMessage } from '@modelcontextprotocol/server';

/** Largest message accepted, in bytes: an HTTP request body, or one line on stdio. Tool arguments are small. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** A JSON-RPC error response. `id` is null when the request's id cannot be known (JSON-RPC 2.0 §5). */
export interface ErrorResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

export function errorResponse(code: number, message: string, id: string | number | null = null): ErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The id of something that looks like a request, when it is a valid JSON-RPC id (a string or an integer). */
function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

const SHAPE =
  'a JSON-RPC 2.0 message is an object with "jsonrpc": "2.0" and either a "method" (with an "id" for a request) or a "result" or "error" with the "id" it answers';

/** The answer to a parsed JSON value that is not one JSON-RPC message, or undefined when it is one. */
function invalidMessage(value: unknown): ErrorResponse | undefined {
  try {
    parseJSONRPCMessage(value);
    return undefined;
  } catch {
    return errorResponse(ProtocolErrorCode.InvalidRequest, `Invalid Request: ${SHAPE}.`, idOf(value));
  }
}

/** The answer to a parsed HTTP body that is neither one message nor a non-empty batch of them, or undefined. */
export function invalidBody(value: unknown): ErrorResponse | undefined {
  if (!Array.isArray(value)) return invalidMessage(value);
  if (value.length === 0)
    return errorResponse(
      ProtocolErrorCode.InvalidRequest,
      'Invalid Request: an empty batch ([]); send one message, or an array of at least one.',
    );
  const bad = value.findIndex((m) => invalidMessage(m) !== undefined);
  return bad === -1
    ? undefined
    : errorResponse(ProtocolErrorCode.InvalidRequest, `Invalid Request: element ${bad} of the batch is not a message; ${SHAPE}.`);
}

/** The answer to one line of text that is not one JSON-RPC message, or undefined when it is one. */
export function invalidLine(text: string): ErrorResponse | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return errorResponse(ProtocolErrorCode.ParseError, 'Parse error: the line is not valid JSON. Send one JSON-RPC message per line.');
  }
  if (Array.isArray(value)) {
    return errorResponse(
      ProtocolErrorCode.InvalidRequest,
      'Invalid Request: batches (JSON arrays) are not accepted on stdio; send one JSON-RPC message per line.',
    );
  }
  return invalidMessage(value);
}
