/**
 * The little of `oidc-provider` (8, a test-only dependency without type declarations) that
 * support/oidc-idp.ts uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    path: string;
    body: unknown;
    type: string;
  }
  interface Account {
    accountId: string;
    claims: () => Record<string, unknown>;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Record<string, unknown>[];
        jwks: { keys: Record<string, unknown>[] };
        cookies: { keys: string[]; long?: Record<string, unknown>; short?: Record<string, unknown> };
        pkce: { required: () => boolean };
        claims: Record<string, string[]>;
        conformIdTokenClaims: boolean;
        features: Record<string, { enabled: boolean }>;
        interactions: { url: (ctx: KoaContext, interaction: { uid: string }) => string };
        ttl: Record<string, number | (() => number)>;
        findAccount: (ctx: KoaContext, sub: string) => Account | undefined;
        renderError: (ctx: KoaContext, out: { error: string; error_description?: string }) => void;
      },
    );
    Grant: new (fields: { accountId: string; clientId: string }) => Grant;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
