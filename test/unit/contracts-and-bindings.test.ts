import { describe, expect, it } from 'vitest';
import { ALL_CONTRACTS } from '../../functions/all-contracts.js';
import { ALL_DOMAIN_TOOLS } from '../../functions/all-tools.js';

/**
 * The AWS router serves ALL_CONTRACTS while the domain functions, the local server and the contract
 * file use the bindings: the two lists are kept by hand (the router must not import bindings), so
 * they must name the same tools, in the same order, each bound to its own contract.
 */
describe('contracts and bindings', () => {
  it('list the same tools in the same order, each binding carrying its contract unchanged', () => {
    expect(ALL_CONTRACTS.map((contract) => contract.name)).toEqual(ALL_DOMAIN_TOOLS.map((tool) => tool.name));
    ALL_DOMAIN_TOOLS.forEach((tool, index) => {
      const { handler, ...contract } = tool;
      expect(typeof handler).toBe('function');
      expect(contract).toEqual(ALL_CONTRACTS[index]);
      expect(contract.input).toBe(ALL_CONTRACTS[index]!.input);
    });
  });
});
