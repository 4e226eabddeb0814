// The analysis layer: pure functions over a Registry (no I/O, no Node built-ins), shared by the CLI, the
// MCP server and the site, so an answer is the same whichever door it came through. Every result shape
// is a zod schema in schemas.ts (use z.toJSONSchema(schema, { io: 'output' }) for an output schema).
//
//   search_registry            AtlasSearch / search            search.ts
//   get_node                   getNode                         node.ts
//   explain_observation        explain                         explain.ts
//   find_compatible_mechanisms findCompatibleMechanisms        mechanisms.ts
//   get_diagnostic_probes      getDiagnosticProbes             probes.ts
//   find_patterns              findPatterns                    patterns.ts
//   get_interventions          findInterventions               interventions.ts
//   traverse_graph             traverse (+ formatGraph)        traverse.ts, graph-format.ts
//   get_methodology            methodology                     methodology.ts
//   (scenario presets)         scenarioInput / checkScenarios  scenario-input.ts, scenario-checks.ts
//
// Errors are AnalysisError (code unknown-id with suggestions, or invalid-argument with allowed values).
// The CLI imports the modules one by one instead of this file, to keep its start-up path small.
export * from './explain.ts';
export * from './graph-format.ts';
export * from './interventions.ts';
export * from './mechanisms.ts';
export * from './methodology.ts';
export * from './node.ts';
export * from './patterns.ts';
export * from './probes.ts';
export * from './resolve.ts';
export * from './scenario-input.ts';
export * from './scenario-checks.ts';
export * from './schemas.ts';
export * from './search.ts';
export * from './terms.ts';
export * from './traverse.ts';
