// One representative, valid call per MCP tool on the real atlas: what bench/mcp.ts times and what the MCP
// test suites (through test/helpers.ts) check against each tool's output schema.
export const TOOL_CALLS: Record<string, Record<string, unknown>> = {
  get_registry_info: {},
  search_registry: { query: 'ghosted after final interview' },
  get_node: { id: 'M-001' },
  explain_observation: { artifacts: ['A-009'], stage: 'team' },
  find_compatible_mechanisms: { artifacts: ['A-004'] },
  get_diagnostic_probes: { artifacts: ['A-001'] },
  find_patterns: { artifacts: ['A-016', 'A-017'] },
  get_interventions: { ids: ['M-013', 'L-003'] },
  traverse_graph: { id: 'P-005', depth: 2 },
  get_methodology: {},
};
