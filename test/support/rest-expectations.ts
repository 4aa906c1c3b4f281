import { expect } from 'vitest';
import { TEST_TOKEN, type TestServer } from './test-server.js';

/** Calls a REST twin and expects success; returns the tool output. */
export async function expectOk(server: TestServer, tool: string, input: unknown, token: string | null = TEST_TOKEN): Promise<any> {
  const response = await server.rest(tool, input, token);
  expect(response.status, `${tool}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.body;
}

/** Calls a REST twin and expects an ErrorResponse with this code and HTTP status; returns it. */
export async function expectFailure(server: TestServer, tool: string, input: unknown, code: string, status: number, token: string | null = TEST_TOKEN): Promise<any> {
  const response = await server.rest(tool, input, token);
  expect(response.body?.code, `${tool}: ${JSON.stringify(response.body)}`).toBe(code);
  expect(response.status).toBe(status);
  expect(response.body.requestId).toEqual(expect.any(String));
  return response.body;
}
