// The OpenAPI 3.1 description of the static API (/openapi.json), generated from the route table and
// the response schemas: nothing in it is written by hand twice.
import { KIND_INFO } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import { siteOrigin } from './origin.ts';
import { CREATOR } from './downloads.ts';
import { responseJsonSchemas, responseSchemas } from './responses.ts';
import {
  ALLOWED_METHODS,
  API_BASE,
  API_CACHE_CONTROL,
  API_ROUTES,
  ERROR_CACHE_CONTROL,
  TAGS,
  idRegexSource,
  type ApiRoute,
} from './routes.ts';

const SCHEMA_REF = (id: string) => `#/components/schemas/${id}`;

export function openApiDocument(reg: Registry, origin: string | undefined = siteOrigin()): Record<string, unknown> {
  const m = reg.manifest;
  const paths: Record<string, unknown> = {};
  for (const route of API_ROUTES) paths[route.path] = { get: operation(reg, route) };
  return {
    openapi: '3.1.0',
    info: {
      title: m.name,
      version: m.description_version,
      summary: 'Read-only REST interface to a versioned knowledge graph of obstacles and barriers in hiring.',
      description: [
        m.description,
        '',
        `Every document is static JSON, served with HTTP GET (and HEAD); nothing is created, changed or deleted. ` +
          `Every response carries the registry_version of the content it was built from. Unknown IDs answer 404 with an ` +
          `RFC 9457 problem document. IDs are permanent; deprecated entities keep resolving and name their successor.`,
        '',
        `Licences: MIT for software, CC BY-SA 4.0 for content. This description documents content version ${m.registry_version}.`,
      ].join('\n'),
      license: { name: 'MIT for software, CC BY-SA 4.0 for content', identifier: 'MIT AND CC-BY-SA-4.0' },
      // Who answers for the API: the atlas's contributors, reached through the site's developer page when the
      // build knows the site's origin (HOBA_SITE_ORIGIN; an OpenAPI contact URL must be absolute).
      contact: { name: CREATOR, ...(origin ? { url: `${origin}/developers/` } : {}) },
      'x-registry-version': m.registry_version,
    },
    servers: [{ url: API_BASE, description: 'The API of the site that serves this document (relative to it)' }],
    security: [],
    tags: TAGS,
    paths,
    components: {
      schemas: responseJsonSchemas(SCHEMA_REF),
      headers: {
        ETag: {
          description: 'Validator of the document; send it back in If-None-Match to get 304 Not Modified.',
          schema: { type: 'string' },
        },
        'Cache-Control': { description: `Caching policy (${API_CACHE_CONTROL} for documents).`, schema: { type: 'string' } },
        'Access-Control-Allow-Origin': { description: 'Any origin may read the API (CORS).', schema: { type: 'string', const: '*' } },
      },
      responses: {
        NotFound: {
          description: `No document at this path (an unknown or malformed ID). Cached for a short time (${ERROR_CACHE_CONTROL}).`,
          headers: { 'Access-Control-Allow-Origin': { $ref: '#/components/headers/Access-Control-Allow-Origin' } },
          content: { 'application/problem+json': { schema: { $ref: SCHEMA_REF('Problem') } } },
        },
        MethodNotAllowed: {
          description: `The API is read-only: only ${ALLOWED_METHODS.join(' and ')} are answered.`,
          headers: {
            Allow: { description: 'The methods that are answered', schema: { type: 'string', const: ALLOWED_METHODS.join(', ') } },
          },
          content: { 'application/problem+json': { schema: { $ref: SCHEMA_REF('Problem') } } },
        },
      },
    },
  };
}

function operation(reg: Registry, route: ApiRoute): Record<string, unknown> {
  const schemaId = responseSchemas.get(route.response)?.id;
  if (!schemaId) throw new Error(`route ${route.path}: its response schema has no component name`);
  const op: Record<string, unknown> = {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
  };
  if (route.itemKind) {
    const kind = route.itemKind;
    const example = reg.all(kind)[0]?.id ?? `${KIND_INFO[kind].prefix}-001`;
    op['parameters'] = [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: `Permanent ${kind} ID: the letter ${KIND_INFO[kind].prefix}, a hyphen and a zero-padded number of at least three digits.`,
        schema: { type: 'string', pattern: `^${idRegexSource(kind)}$` },
        example,
      },
    ];
  } else if (route.param) {
    const { name, pattern, description, example } = route.param;
    op['parameters'] = [
      { name, in: 'path', required: true, description, schema: { type: 'string', pattern: `^${pattern}$` }, example: example(reg) },
    ];
  }
  op['responses'] = {
    '200': {
      description: route.summary,
      headers: {
        ETag: { $ref: '#/components/headers/ETag' },
        'Cache-Control': { $ref: '#/components/headers/Cache-Control' },
        'Access-Control-Allow-Origin': { $ref: '#/components/headers/Access-Control-Allow-Origin' },
      },
      content: { 'application/json': { schema: { $ref: SCHEMA_REF(schemaId) } } },
    },
    '404': { $ref: '#/components/responses/NotFound' },
    '405': { $ref: '#/components/responses/MethodNotAllowed' },
  };
  return op;
}
