import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { STORE_MODULES } from '../functions/all-access-patterns.js';
import { ALL_DOMAIN_TOOLS, ALL_SURFACE, ENDPOINT_TOOLS } from '../functions/all-tools.js';
import { renderAccessPatterns, renderToolsReference } from '../functions/mcp/contract/render-docs.js';
import { breakingChanges, buildContract, CONTRACT_PATH, type ToolContract } from '../functions/mcp/contract/tool-contract.js';
import { registryServerJson } from '../functions/mcp/discovery/server-card.js';
import { ToolRegistry } from '../functions/mcp/tools/registry.js';

// Usage: tsx bin/generate-contract.ts [--check] [--allow-breaking]
const check = process.argv.includes('--check');
const allowBreaking = process.argv.includes('--allow-breaking');

// The contract documents the default prefix, whatever TN_TOOL_PREFIX this shell has.
const contract = buildContract(new ToolRegistry('tn_', [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS]), ALL_SURFACE);
const outputs: Record<string, string> = {
  [CONTRACT_PATH]: `${JSON.stringify(contract, null, 2)}\n`,
  'docs/tools.md': renderToolsReference(contract),
  'docs/access-patterns.md': renderAccessPatterns(STORE_MODULES),
  // The MCP Registry entry (publish with `mcp-publisher publish`).
  'server.json': `${JSON.stringify(registryServerJson(), null, 2)}\n`,
};

const committed = existsSync(CONTRACT_PATH) ? (JSON.parse(readFileSync(CONTRACT_PATH, 'utf8')) as ToolContract) : undefined;
const breaking = committed ? breakingChanges(committed, contract) : [];
if (breaking.length && !allowBreaking) {
  console.error(`Breaking changes against the committed ${CONTRACT_PATH}:\n  ${breaking.join('\n  ')}`);
  console.error('Make the change additive, or publish a new contract version (tools.v2) with --allow-breaking.');
  process.exit(1);
}

const drifted = Object.entries(outputs).filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
if (check) {
  if (drifted.length) {
    console.error(`Generated files are out of date: ${drifted.map(([f]) => f).join(', ')}. Run \`npm run generate\` and commit.`);
    process.exit(1);
  }
  console.log(`contract and docs up to date (${contract.tools.length} tools, ${contract.resources?.length ?? 0} resources, ${contract.prompts?.length ?? 0} prompts)`);
} else {
  for (const [file, text] of drifted) writeFileSync(file, text);
  console.log(drifted.length ? `wrote ${drifted.map(([f]) => f).join(', ')}` : 'nothing to regenerate');
}
