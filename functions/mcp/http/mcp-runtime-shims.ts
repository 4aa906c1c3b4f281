// Bundles only (esbuild alias for '@modelcontextprotocol/server/_shims'): the SDK's Node shims validate
// elicitation answers with AJV (150 KB); these use the SDK's own cfworker validator instead.
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
export { default as process } from 'node:process';
