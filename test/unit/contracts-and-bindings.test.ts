import { describe, expect, it } from 'vitest';
import { ALL_CONTRACTS } from '../../functions/all-contracts.js';
import { ALL_DOMAIN_TOOLS } from '../../functions/all-tools.js';

/**
 * The AWS router serves ALL_CONTRACTS while the domain functions, the local server and the contract
 * file use the bindings: the two lists are kept by hand (the router must not import bindings), so
 * they must name the same tools, in the same order, each bound to its own contract.
 */
describe('contracts and bindings', () => {
  it('keeps contracts free of behaviour: no contract carries a function', () => {
    for (const contract of ALL_CONTRACTS) {
      expect(Object.entries(contract).filter(([, value]) => typeof value === 'function').map(([key]) => `${contract.name}.${key}`)).toEqual([]);
    }
  });

  it('keys cached catalog and transfer results by the catalog version', () => {
    const versioned = ALL_DOMAIN_TOOLS.filter((tool) => tool.cacheVersion).map((tool) => tool.name);
    expect(versioned).toEqual(ALL_DOMAIN_TOOLS.filter((tool) => (tool.domain === 'course' || tool.domain === 'transfer') && tool.cacheable).map((tool) => tool.name));
    expect(versioned.length).toBeGreaterThan(10);
  });

  it('list the same tools in the same order, each binding carrying its contract unchanged', () => {
    expect(ALL_CONTRACTS.map((contract) => contract.name)).toEqual(ALL_DOMAIN_TOOLS.map((tool) => tool.name));
    ALL_DOMAIN_TOOLS.forEach((tool, index) => {
      // A binding adds behaviour only: its handler and, for catalog-versioned caching, the version source.
      const { handler, cacheVersion, ...contract } = tool;
      expect(typeof handler).toBe('function');
      if (cacheVersion) expect(tool.cacheable).toBe(true);
      expect(contract).toEqual(ALL_CONTRACTS[index]);
      expect(contract.input).toBe(ALL_CONTRACTS[index]!.input);
    });
  });
});
