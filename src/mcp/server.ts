// The MCP server over an opened atlas: the tools of tools.ts, every entity and the methodology as
// resources, and a prompt that walks a person through a HOBA analysis. Transports live elsewhere
// (stdio.ts, http.ts); this module only decides what the server offers.
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  completable,
  type CacheHint,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { AnalysisError, getNode, inParentheses, methodology, methodologyMarkdown } from '../analysis/index.ts';
import { KINDS, STAGES, type Kind } from '../model/index.ts';
import { toolsFor, type ToolAtlas, type ToolDefinition, type Variant } from './tools.ts';

const INSTRUCTIONS = `The Hiring Obstacles & Barriers Atlas links what a job candidate observes (artifacts, e.g. silence after a final interview) to the funnel barriers and the mechanisms that can produce it, with evidence levels, diagnostic probes and explicit non-inferences.
Typical use: explain_observation with the person's own words (text) or with artifact IDs found by search_registry (the HOBA protocol), then get_diagnostic_probes or get_node for detail; a worked scenario (S-…) shows the protocol end to end. Rules: an observation is not a cause; a compatible mechanism is not a proven one; lead with the first tier (mechanisms that produce what was seen) and keep the honest baselines listed where they act; results are uncalibrated, so never turn them into probabilities; always pass on what the observation does NOT establish. The atlas names no employer or person.`;

/** The result of a tool call: structured content plus the same JSON as text, or a tool error. */
function callTool(definition: ToolDefinition, atlas: ToolAtlas, args: unknown) {
  try {
    const output = definition.run(atlas, args as never);
    return { content: [{ type: 'text' as const, text: JSON.stringify(output) }], structuredContent: output as Record<string, unknown> };
  } catch (err) {
    if (err instanceof AnalysisError) return { isError: true, content: [{ type: 'text' as const, text: errorText(err) }] };
    // A bug: said as one (as the CLI does), not as a bare runtime message; the stack only with HOBA_DEBUG.
    const message = `unexpected error in ${definition.name}: ${(err as Error).message ?? String(err)}`;
    process.stderr.write(`hoba-mcp: ${message}\n${process.env['HOBA_DEBUG'] ? `${(err as Error).stack}\n` : ''}`);
    return {
      isError: true,
      content: [{ type: 'text' as const, text: `${message}\nThis is a bug in hoba; please report it with the arguments you sent.` }],
    };
  }
}

/** An analysis error as a model can act on it: the message, close matches, allowed values. */
function errorText(err: AnalysisError): string {
  const lines = [err.message];
  if (err.suggestions.length > 0 && !err.message.includes('Did you mean'))
    lines.push(`Close matches: ${err.suggestions.map((s) => `${s.id} ${inParentheses(`${s.kind}: ${s.title}`)}`).join('; ')}.`);
  if (err.allowed.length > 0 && !err.message.includes(err.allowed[0]!)) lines.push(`Allowed values: ${err.allowed.join(', ')}.`);
  return lines.join('\n');
}

type RequestHandler = (request: JSONRPCRequest, ctx: unknown) => Promise<unknown>;

/**
 * The SDK (2.4.0) checks the params of a request against the wire schema, and when they do not fit it
 * puts the raw zod issue list in the message: as -32603 Internal error for prompts/get, resources/read and
 * the like (a plain Error), as -32602 for tools/call. The mistake is the client's: this answers -32602
 * Invalid params, in words. It wraps every request handler through _wrapHandler, the SDK's hook for
 * that, so it must run before the tools, resources and prompts are registered. (initialize is
 * registered by the SDK before this can run and keeps the SDK's answer.)
 *
 * _wrapHandler is private to the SDK: this is a patch for an upstream bug, modelcontextprotocol/
 * typescript-sdk issue #2284 (invalid request params answered as -32603 with the raw validation issues),
 * whose fix is proposed in pull request #2492. Remove it when a release with that fix is pinned
 * (test/e2e/mcp.test.ts "a malformed prompt argument is invalid params, in words" says whether it still helps).
 */
function answerMalformedParamsAsInvalid(server: McpServer): void {
  const protocol = server.server as unknown as { _wrapHandler(method: string, handler: RequestHandler): RequestHandler };
  const sdkWrap = protocol._wrapHandler.bind(protocol);
  protocol._wrapHandler = (method, handler) => {
    const wrapped = sdkWrap(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (err) {
        const fromClient = !(err instanceof ProtocolError) || err.code === ProtocolErrorCode.InvalidParams;
        const issues = fromClient ? paramIssues((err as Error).message) : undefined;
        if (!issues) throw err;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${issues.prefix || `Invalid params for ${method}`}: ${issues.text}`);
      }
    };
  };
}

/** A message ending in a zod issue list about params, read as "arguments.observation: expected string, received number". */
function paramIssues(message: string): { prefix: string; text: string } | undefined {
  const start = message.indexOf('[');
  if (start === -1) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(message.slice(start));
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const lines: string[] = [];
  for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
    if (!Array.isArray(issue.path) || issue.path[0] !== 'params' || typeof issue.message !== 'string') return undefined;
    lines.push(`${issue.path.slice(1).join('.') || 'params'}: ${issue.message.replace(/^Invalid input: /, '')}`);
  }
  return { prefix: message.slice(0, start).replace(/:\s*$/, ''), text: lines.join('; ') };
}

/**
 * How long a client of revision 2026-07-28 may keep a list or a resource it read (`ttlMs`, `cacheScope`):
 * a running server's atlas never changes and no answer depends on who asks, so for an hour, by anyone.
 */
const CACHE_HINT: CacheHint = { ttlMs: 60 * 60 * 1000, cacheScope: 'public' };
const CACHEABLE = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'server/discover',
] as const;

/** The methodology as resources: Markdown and JSON. */
const METHODOLOGY_RESOURCES = [
  {
    name: 'methodology',
    uri: 'hoba://methodology',
    meta: {
      title: 'How to read the atlas',
      description: 'The HOBA protocol, the rules of inference, evidence levels, fidelities and facets (Markdown).',
      mimeType: 'text/markdown',
    },
    text: (registry: ToolAtlas['registry']) => methodologyMarkdown(methodology(registry)),
  },
  {
    name: 'methodology-json',
    uri: 'hoba://methodology.json',
    meta: {
      title: 'How to read the atlas (structured)',
      description: 'The methodology with every vocabulary and its meaning (JSON, as get_methodology returns it with section "all").',
      mimeType: 'application/json',
    },
    text: (registry: ToolAtlas['registry']) => JSON.stringify(methodology(registry)),
  },
] as const;

/** Entries in one page of resources/list (the whole list, every entity, was 107 KB). */
export const RESOURCES_PAGE = 50;

export function createMcpServer(atlas: ToolAtlas, variant: Variant): McpServer {
  const server = new McpServer(
    { name: 'hoba', title: 'Hiring Obstacles & Barriers Atlas', version: pkg.version },
    { instructions: INSTRUCTIONS, cacheHints: Object.fromEntries(CACHEABLE.map((m) => [m, CACHE_HINT])) },
  );
  answerMalformedParamsAsInvalid(server);
  // The lists never change while a server runs, so no list_changed notification is ever sent (and a
  // stateless HTTP exchange could not send one): say so, before registering sets the SDK's default (true).
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } });
  const { registry } = atlas;

  for (const definition of toolsFor(variant)) {
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.input,
        outputSchema: definition.output,
        annotations: { title: definition.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
      },
      (args: unknown) => callTool(definition, atlas, args),
    );
  }

  // Every entity, as the JSON of get_node (record, relations both ways, citations).
  server.registerResource(
    'entity',
    new ResourceTemplate('hoba://{kind}/{id}', {
      // Listed by resources/list, a page at a time (paginateResourceList).
      list: undefined,
      complete: {
        kind: (value) => KINDS.filter((k) => k.startsWith(value)),
        id: (value) =>
          registry.entities
            .map((e) => e.id)
            .filter((id) => id.startsWith(value.toUpperCase()))
            .slice(0, 100),
      },
    }),
    {
      title: 'Atlas entity',
      description: 'One entity of the atlas with its relations in both directions and its citations (JSON).',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const kind = String(variables['kind']);
      const id = String(variables['id']);
      const entity = registry.get(id);
      if (!entity || entity.kind !== (kind as Kind)) {
        const actually = entity ? ` (${entity.id} is hoba://${entity.kind}/${entity.id})` : '';
        // The SDK's not-found error: code -32602 with data {uri}, which is what 2.4.0 sends for -32002 too.
        throw new ResourceNotFoundError(
          uri.href,
          `No ${kind} ${id} in the atlas${actually}. Resource URIs look like hoba://mechanism/M-001; list them with resources/list.`,
        );
      }
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(getNode(registry, id)) }] };
    },
  );

  for (const { name, uri, meta, text } of METHODOLOGY_RESOURCES) {
    server.registerResource(name, uri, meta, (url) => ({ contents: [{ uri: url.href, mimeType: meta.mimeType, text: text(registry) }] }));
  }

  server.registerPrompt(
    'analyse-observation',
    {
      title: 'Analyse a hiring observation (HOBA)',
      description: 'Walks through a HOBA analysis of something a candidate observed, using the atlas tools, and reports it honestly.',
      argsSchema: z.object({
        observation: z
          .string()
          .min(1)
          .max(2000)
          .describe('What happened, in the person’s words (e.g. "no reply for three weeks after the final interview")'),
        // A fixed vocabulary: completion/complete offers the stages that start with what was typed.
        stage: completable(z.enum(STAGES), (value) => STAGES.filter((s) => s.startsWith(value ?? '')))
          .optional()
          .describe('Funnel stage, if known'),
      }),
    },
    ({ observation, stage }) => ({
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text: [
              `Help me understand this hiring situation with the Hiring Obstacles & Barriers Atlas: "${observation}"${stage ? ` (stage: ${stage})` : ''}.`,
              '',
              'Follow the HOBA protocol with the atlas tools:',
              '1. H (hard facts): call explain_observation with my words as text (or use search_registry to find the artifact IDs that match what I observed). Show me which observations were chosen and why, and check with me if unsure; do not add facts I did not state.',
              '2. O (obstacle) and B (behind): use the explanation' +
                (stage ? ` for stage "${stage}"` : '') +
                '. Give the first tier (mechanisms that produce what I saw) as possibilities, never as the cause, most direct first; say that the second tier only acts at the same stage; keep the honest baselines that are listed, and say what was ruled out and why. Mention triggered patterns.',
              '3. Tell me plainly what these observations do NOT establish (the non-inferences).',
              '4. A (agency): say which mechanisms I could act on, which only an intermediary could, and which nobody in the process can; suggest the cheapest distinguishing probe, if any, and ask me for its outcome so you can call explain_observation again with it.',
              '5. Give the verdict in the atlas’s words, then what I can still do whatever the cause (the next steps, with their deadlines). Do not invent reasons or probabilities.',
              'Cite IDs (A-…, M-…, P-…) and the registry_version, and mark hypothesis-level mechanisms as such.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  paginateResourceList(server, registry);
  return server;
}

/**
 * resources/list in pages of RESOURCES_PAGE: the methodology first, then every entity by ID (the SDK's
 * own handler returns everything at once and reads no cursor). The cursor is the position of the next
 * page's first entry; one that this server did not give is invalid params.
 */
function paginateResourceList(server: McpServer, registry: ToolAtlas['registry']): void {
  let everything: Array<{ uri: string; name: string; title: string; description?: string; mimeType: string }> | undefined;
  server.server.setRequestHandler('resources/list', (request) => {
    everything ??= [
      ...METHODOLOGY_RESOURCES.map(({ name, uri, meta }) => ({ uri, name, ...meta })),
      ...registry.entities.map((e) => ({
        uri: `hoba://${e.kind}/${e.id}`,
        name: e.id,
        title: `${e.id} ${e.kind === 'source' ? e.cite : e.title}`,
        mimeType: 'application/json',
      })),
    ];
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : /^[1-9]\d{0,6}$/.test(cursor) ? Number(cursor) : NaN;
    if (!(start < everything.length)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid params: cursor ${JSON.stringify(cursor)} is not one this server gave; start without a cursor and pass on each page's nextCursor.`,
      );
    }
    const end = start + RESOURCES_PAGE;
    return { resources: everything.slice(start, end), ...(end < everything.length ? { nextCursor: String(end) } : {}) };
  });
}
