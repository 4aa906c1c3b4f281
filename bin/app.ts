import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { TutorNexusStack } from '../lib/tutor-nexus-stack.js';

const app = new App();
new TutorNexusStack(app, 'TutorNexus', {
  description: 'Tutor Nexus: remote MCP server for tutoring, course catalog, transfer credit and user settings',
  // Environment-agnostic unless the CLI supplies an account and region: synth needs neither.
  env:
    process.env.CDK_DEFAULT_ACCOUNT || process.env.CDK_DEFAULT_REGION
      ? { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION }
      : undefined,
});
// cdk-nag 3 is a policy-validation plugin (not an Aspect): findings fail synth unless acknowledged.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
