import { bindTool } from '../../mcp/tools/define-tool.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { checkBaseUrl } from '../../platform/net/outbound-url.js';
import { addCredential, checkKeyFormat } from '../byok-credentials.js';
import { getSubscription, planLimits } from '../plans.js';
import { byokAddContract } from '../contracts/byok-add.js';

export const byokAddTool = bindTool(byokAddContract, async (args, ctx) => {
  const userId = requireUserId(ctx);
  checkKeyFormat(args.provider, args.apiKey);
  const baseUrl = args.baseUrl ? await checkBaseUrl(args.baseUrl, ctx.services.config.outboundPolicy) : undefined;
  const subscription = await getSubscription(ctx.services.store, userId);
  const credential = await addCredential(ctx.services, {
    userId,
    provider: args.provider,
    apiKey: args.apiKey,
    label: args.label ?? args.provider,
    baseUrl,
    model: args.model,
    maxCredentials: planLimits(subscription.plan, ctx.services.config).maxByokCredentials,
    now: ctx.now(),
  });
  return {
    data: credential,
    hints: {
      confidence: [{ name: 'stored-and-encrypted', value: 1 }, { name: 'key-format-checked', value: 1 }, { name: 'key-verified-with-provider', value: 0, weight: 0.25 }],
      nextActions: [
        {
          action: 'set-default-credential',
          priority: 'medium',
          tool: 'tn_user_preferences_set',
          description: 'make this the default key for tutoring',
          data: { defaultCredentialId: credential.credentialId },
        },
      ],
      assumptions: ['The key is valid at the provider; it is format-checked here and first used on the next tutoring turn'],
      validityPeriod: 'indefinite',
    },
  };
});
