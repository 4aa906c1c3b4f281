import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, it, expect, beforeAll } from 'vitest';
import type { DomainFunction } from '../../lib/constructs/domain-function.js';
import { DEFAULT_TUTOR_MODEL_ID } from '../../lib/constructs/session-function.js';
import { TutorNexusStack, type TutorNexusStackProps } from '../../lib/tutor-nexus-stack.js';
import { actionsOf, templateHelpers } from './template-helpers.js';

/**
 * The session function's settings and grants under each operator-model configuration. Bundling is
 * skipped (`aws:cdk:bundling-stacks`): these assertions are about the template, and stack.test.ts
 * bundles every function once already.
 */
function synth(context: Record<string, unknown> = {}, props: TutorNexusStackProps = {}): { stack: TutorNexusStack; template: Template } {
  const app = new App({ context: { cognitoDomainPrefix: 'tutor-nexus-test', 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new TutorNexusStack(app, 'TutorNexus', props);
  // As in bin/app.ts: synth throws on any unacknowledged cdk-nag finding.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { stack, template: Template.fromStack(stack) };
}

const modelArn = (id: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':bedrock:', { Ref: 'AWS::Region' }, `::foundation-model/${id}`]],
});

describe('session function and the BYOK key', () => {
  let current: ReturnType<typeof synth>;
  const { logicalId, resources, roleActions, statementsFor, environmentOf } = templateHelpers(() => current);
  const sessionRole = () => logicalId(current.stack.functions.session.role);
  const functionProps = (f: DomainFunction) => resources('AWS::Lambda::Function').find(([id]) => id === logicalId(f.fn))![1].Properties;

  describe('with the default operator model', () => {
    beforeAll(() => {
      current = synth();
    });

    it('may call Bedrock on that one model only, and no other role may call Bedrock at all', () => {
      expect(DEFAULT_TUTOR_MODEL_ID).toBe('anthropic.claude-3-5-haiku-20241022-v1:0');
      expect(statementsFor(sessionRole(), 'bedrock:')).toEqual([
        { Action: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'], Effect: 'Allow', Resource: modelArn(DEFAULT_TUTOR_MODEL_ID) },
      ]);
      for (const [id] of resources('AWS::IAM::Role').filter(([id]) => id !== sessionRole())) {
        expect(roleActions(id).actions.filter((a) => a.startsWith('bedrock:')), id).toEqual([]);
      }
    });

    it('runs long enough to stream a tutor answer, on the same runtime as every other function', () => {
      const { functions } = current.stack;
      const session = functionProps(functions.session);
      expect(session.Timeout).toBeGreaterThanOrEqual(120);
      expect(session.Timeout).toBe(300);
      expect(session.MemorySize).toBe(1024);
      for (const other of [functions.router, functions.user, functions.course, functions.transfer]) {
        for (const key of ['Runtime', 'Architectures', 'TracingConfig', 'Handler']) expect(session[key], key).toEqual(functionProps(other)[key]);
      }
      // The router waits for each call it forwards to the session function.
      expect(functionProps(functions.router).Timeout).toBeGreaterThanOrEqual(session.Timeout);
    });

    it('has the tutor settings in its environment, and no provider key', () => {
      const env = environmentOf(current.stack.functions.session.fn);
      expect(env).toMatchObject({
        TN_KMS_KEY_ID: { 'Fn::GetAtt': [logicalId(current.stack.byokKey), 'Arn'] },
        TN_DEFAULT_LLM_PROVIDER: 'bedrock',
        TN_DEFAULT_LLM_MODEL: DEFAULT_TUTOR_MODEL_ID,
        TN_SESSION_RETENTION_DAYS: '30',
        TN_LLM_TIMEOUT_MS: '60000',
      });
      expect(Number(env.TN_LLM_TIMEOUT_MS)).toBeLessThan(functionProps(current.stack.functions.session).Timeout * 1000);
      expect(env.TN_DEFAULT_LLM_API_KEY).toBeUndefined();
    });

    it('lets the user function only seal and the session function only open BYOK credentials', () => {
      const keyArn = { 'Fn::GetAtt': [logicalId(current.stack.byokKey), 'Arn'] };
      current.template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
      current.template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain' });
      current.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/tutor-nexus-byok' });

      const userRole = logicalId(current.stack.functions.user.role);
      const sessionRoleId = sessionRole();
      expect(statementsFor(userRole, 'kms:')).toEqual([{ Action: 'kms:GenerateDataKey', Effect: 'Allow', Resource: keyArn }]);
      // Only envelopes sealed with exactly { userId, credentialId } (see functions/user/byok-credentials.ts).
      expect(statementsFor(sessionRoleId, 'kms:')).toEqual([
        {
          Action: 'kms:Decrypt',
          Effect: 'Allow',
          Resource: keyArn,
          Condition: {
            'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['userId', 'credentialId'] },
            Null: { 'kms:EncryptionContext:userId': 'false', 'kms:EncryptionContext:credentialId': 'false' },
          },
        },
      ]);

      const roles = resources('AWS::IAM::Role').map(([id]) => id);
      expect(roles).toEqual(expect.arrayContaining([userRole, sessionRoleId]));
      for (const id of roles) {
        const kms = roleActions(id).actions.filter((a) => a.startsWith('kms:'));
        // Sealing and opening stay in separate roles: neither function alone can both write and read keys.
        expect(kms.includes('kms:GenerateDataKey') && kms.includes('kms:Decrypt'), id).toBe(false);
        if (id !== userRole && id !== sessionRoleId) expect(kms, id).toEqual([]);
      }
    });

    it('reads and writes the table and may only invoke functions (for the tutor\'s lookups)', () => {
      const { actions } = roleActions(sessionRole());
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
      expect([...new Set(actions.filter((a) => a.startsWith('lambda:')))]).toEqual(['lambda:InvokeFunction']);
    });
  });

  it.each([
    ['context tutorModelId=none', { tutorModelId: 'none' }, {}],
    ['prop tutorModelId: null', {}, { tutorModelId: null }],
  ] as const)('offers no operator model with %s: no Bedrock permission, no TN_DEFAULT_LLM_*', (_, context, props) => {
    current = synth(context, props);
    const env = environmentOf(current.stack.functions.session.fn);
    expect(Object.keys(env).filter((k) => k.startsWith('TN_DEFAULT_LLM_'))).toEqual([]);
    expect(env.TN_KMS_KEY_ID).toBeDefined();
    for (const [id] of resources('AWS::IAM::Role')) expect(roleActions(id).actions.filter((a) => a.startsWith('bedrock:')), id).toEqual([]);
    // Opening BYOK credentials does not depend on the operator model.
    expect(actionsOf(statementsFor(sessionRole(), 'kms:'))).toEqual(['kms:Decrypt']);
  });

  it('grants exactly the model chosen by context, and takes the retention from props', () => {
    current = synth({ tutorModelId: 'anthropic.claude-3-haiku-20240307-v1:0' }, { sessionRetentionDays: 7 });
    expect(statementsFor(sessionRole(), 'bedrock:').map((s) => s.Resource)).toEqual([modelArn('anthropic.claude-3-haiku-20240307-v1:0')]);
    expect(environmentOf(current.stack.functions.session.fn)).toMatchObject({
      TN_DEFAULT_LLM_MODEL: 'anthropic.claude-3-haiku-20240307-v1:0',
      TN_SESSION_RETENTION_DAYS: '7',
    });
  });

  it.each([
    [{ tutorModelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' }, /foundation model id/],
    [{ tutorModelId: 'anthropic.*' }, /foundation model id/],
    [{ sessionRetentionDays: 0 }, /retention/],
  ] as const)('rejects %j at synth', (props, message) => {
    expect(() => synth({}, props)).toThrow(message);
  });
});
