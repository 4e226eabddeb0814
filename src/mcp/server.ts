// The MCP server over an opened atlas: the tools of tools.ts, every entity and the methodology as
// resources, and a prompt that walks a person through a HOBA analysis. Transports live elsewhere
// (stdio.ts, http.ts); this module only decides what the server offers.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { AnalysisError, getNode, methodology, methodologyMarkdown } from '../analysis/index.ts';
import { KINDS, STAGES, type Kind } from '../model/index.ts';
import { toolsFor, type ToolAtlas, type ToolDefinition, type Variant } from './tools.ts';

const INSTRUCTIONS = `The Hiring Obstacles & Barriers Atlas links what a job candidate observes (artifacts, e.g. silence after a final interview) to the funnel barriers and the mechanisms that can produce it, with evidence levels, diagnostic probes and explicit non-inferences.
Typical use: search_registry to find the artifact IDs for what the person describes, then explain_observation (the HOBA protocol), then get_diagnostic_probes or get_node for detail. Rules: an observation is not a cause; a compatible mechanism is not a proven one; keep the honest baselines (a genuine skill gap, a stronger candidate) on the table; results are uncalibrated, so never turn them into probabilities; always pass on what the observation does NOT establish. The atlas names no employer or person.`;

/** The result of a tool call: structured content plus the same JSON as text, or a tool error. */
function callTool(definition: ToolDefinition, atlas: ToolAtlas, args: unknown) {
  try {
    const output = definition.run(atlas, args as never);
    return { content: [{ type: 'text' as const, text: JSON.stringify(output) }], structuredContent: output as Record<string, unknown> };
  } catch (err) {
    if (err instanceof AnalysisError) return { isError: true, content: [{ type: 'text' as const, text: errorText(err) }] };
    throw err;
  }
}

/** An analysis error as a model can act on it: the message, close matches, allowed values. */
export function errorText(err: AnalysisError): string {
  const lines = [err.message];
  if (err.suggestions.length > 0 && !err.message.includes('Did you mean')) lines.push(`Close matches: ${err.suggestions.map((s) => `${s.id} (${s.kind}: ${s.title})`).join('; ')}.`);
  if (err.allowed.length > 0 && !err.message.includes(err.allowed[0]!)) lines.push(`Allowed values: ${err.allowed.join(', ')}.`);
  return lines.join('\n');
}

export function createMcpServer(atlas: ToolAtlas, variant: Variant): McpServer {
  const server = new McpServer(
    { name: 'hoba', title: 'Hiring Obstacles & Barriers Atlas', version: pkg.version },
    { instructions: INSTRUCTIONS },
  );
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
      list: () => ({
        resources: registry.entities.map((e) => ({
          uri: `hoba://${e.kind}/${e.id}`,
          name: e.id,
          title: `${e.id} ${e.kind === 'source' ? e.cite : e.title}`,
          mimeType: 'application/json',
        })),
      }),
      complete: {
        kind: (value) => KINDS.filter((k) => k.startsWith(value)),
        id: (value) => registry.entities.map((e) => e.id).filter((id) => id.startsWith(value.toUpperCase())).slice(0, 100),
      },
    }),
    { title: 'Atlas entity', description: 'One entity of the atlas with its relations in both directions and its citations (JSON).', mimeType: 'application/json' },
    (uri, variables) => {
      const kind = String(variables['kind']);
      const id = String(variables['id']);
      const entity = registry.get(id);
      if (!entity || entity.kind !== (kind as Kind)) {
        throw new Error(`No ${kind} ${id} in the atlas. Resource URIs look like hoba://mechanism/M-001; list them with resources/list.`);
      }
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(getNode(registry, id)) }] };
    },
  );

  server.registerResource(
    'methodology',
    'hoba://methodology',
    { title: 'How to read the atlas', description: 'The HOBA protocol, the rules of inference, evidence levels, fidelities and facets (Markdown).', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: methodologyMarkdown(methodology(registry)) }] }),
  );
  server.registerResource(
    'methodology-json',
    'hoba://methodology.json',
    { title: 'How to read the atlas (structured)', description: 'The methodology with every vocabulary and its meaning (JSON, as get_methodology returns it).', mimeType: 'application/json' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(methodology(registry)) }] }),
  );

  server.registerPrompt(
    'analyse-observation',
    {
      title: 'Analyse a hiring observation (HOBA)',
      description: 'Walks through a HOBA analysis of something a candidate observed, using the atlas tools, and reports it honestly.',
      argsSchema: z.object({
        observation: z.string().min(1).max(2000).describe('What happened, in the person’s words (e.g. "no reply for three weeks after the final interview")'),
        stage: z.enum(STAGES).optional().describe('Funnel stage, if known'),
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
              '1. H (hard facts): use search_registry to find the artifact IDs that match what I observed. Show me which ones you chose and check with me if unsure; do not add facts I did not state.',
              '2. O (obstacle) and B (behind): call explain_observation with those artifacts' + (stage ? ` and stage "${stage}"` : '') + '. List the compatible mechanisms as possibilities, never as the cause, keeping the honest baselines (a genuine skill gap, a stronger candidate) in the list. Mention triggered patterns.',
              '3. Tell me plainly what these observations do NOT establish (the non-inferences).',
              '4. A (agency): say which mechanisms I could act on, which only an intermediary could, and which nobody in the process can; suggest the cheapest distinguishing probe, if any, and ask me for its outcome so you can call explain_observation again with it.',
              '5. Give the verdict in the atlas’s words. If it is low signal, say that no further action on my side is justified; do not invent reasons or probabilities.',
              'Cite IDs (A-…, M-…, P-…) and the registry_version, and mark hypothesis-level mechanisms as such.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  return server;
}
