/**
 * A real OpenID provider for tests (the certified `oidc-provider` library) on 127.0.0.1: one client
 * for Cubby, an account store the test fills, and a login page of its own (a username, no password)
 * that grants the requested scopes at once. `tamper` lets a test make the provider misbehave the way
 * a hostile or misconfigured one would, with tokens still signed by its own key.
 */
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpAccount {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  /** When set, every ID token the token endpoint answers is signed again with these claims changed. */
  tamper: { idToken?: Record<string, unknown> };
  /** How long the ID tokens it issues last, in seconds (read at each issue). */
  idTokenSeconds: number;
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Starts the provider on `port`, its client allowed back to `redirectUris` (Cubby's callback URLs). */
export async function startTestIdp(port: number, redirectUris: string[]): Promise<TestIdp> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, IdpAccount>();
  const tamper: TestIdp['tamper'] = {};
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = {
    client_id: 'cubby',
    client_secret: 'cubby-test-secret',
    redirect_uris: redirectUris,
    response_types: ['code'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_post',
  };

  const provider = new Provider(issuer, {
    clients: [client],
    jwks: { keys: [jwk] },
    cookies: {
      keys: ['test-cookie-key'],
      // Plain http on 127.0.0.1: a browser keeps no `SameSite=None` cookie that is not Secure.
      long: { sameSite: 'lax' },
    },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'name', 'groups'],
    },
    // Every claim in the ID token itself, as Authentik and Keycloak send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AuthorizationCode: 60,
      IdToken: () => idp.idTokenSeconds,
      AccessToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    renderError: (ctx, out) => {
      ctx.type = 'text/plain';
      ctx.body = `${out.error}: ${out.error_description ?? ''}`;
    },
  });
  // Tokens signed again with changed claims (the provider's own key, so only the claims are wrong).
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && tamper.idToken && body?.id_token) {
      const [header, payload] = body.id_token.split('.');
      const claims = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), ...tamper.idToken };
      const signingInput = `${header}.${b64(claims)}`;
      const signature = sign(
        'sha256',
        Buffer.from(signingInput),
        createPrivateKey({ key: jwk, format: 'jwk' }),
      );
      ctx.body = { ...body, id_token: `${signingInput}.${signature.toString('base64url')}` };
    }
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (!match) return void callback(req, res);
    void interaction(req, res, match[1]!).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse, uid: string) {
    const details = await provider.interactionDetails(req, res);
    if (req.method !== 'POST') {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="en"><title>Test IdP</title><main><h1>Test IdP</h1>
<form method="post" action="/interaction/${uid}"><label>Username <input name="login" autofocus></label>
<button type="submit">Sign in</button></form></main></html>`);
      return;
    }
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const accountId = new URLSearchParams(body).get('login') ?? '';
    const grant = new provider.Grant({ accountId, clientId: String(details.params['client_id']) });
    grant.addOIDCScope(String(details.params['scope']));
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: false },
    );
  }

  const idp: TestIdp = {
    idTokenSeconds: 3600,
    issuer,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    accounts,
    tamper,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return idp;
}
