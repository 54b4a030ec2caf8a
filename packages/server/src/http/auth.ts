/**
 * Reads the Authorization header (`Bearer <session token>` or `ApiKey <key>`) into the request's
 * principal, and the guards routes put in front of themselves. A missing, revoked or expired
 * credential on a protected route is 401 (the client logs out); a valid one without the right is 403.
 */
import type { Permissions, Principal } from '@cubby/shared';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { forbidden, unauthenticated } from '../errors/app-error.ts';

export interface CredentialResolvers {
  resolveSession(token: string, client: { ip: string; userAgent: string | null }): Promise<Principal | null>;
  resolveKey(key: string): Promise<Principal | null>;
  /** The guest principal while the admin lets guests browse, else null (docs/accounts.md, "Guests"). */
  resolveGuest?(): Promise<Principal | null>;
}

export function authenticate(resolvers: CredentialResolvers): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    let principal: Principal | null = null;
    if (header) {
      const match = /^(Bearer|ApiKey)\s+(\S+)\s*$/i.exec(header);
      if (match) {
        const [, scheme, credential] = match as unknown as [string, string, string];
        principal =
          scheme.toLowerCase() === 'bearer'
            ? await resolvers.resolveSession(credential, {
                ip: c.get('clientIp'),
                userAgent: c.req.header('user-agent') ?? null,
              })
            : await resolvers.resolveKey(credential);
      }
    }
    c.set('principal', principal);
    c.set('credentialsRejected', header !== undefined && principal === null);
    if (header === undefined && resolvers.resolveGuest) c.set('guest', () => resolvers.resolveGuest!());
    await next();
  };
}

function principalOrThrow(c: {
  get(key: 'principal'): Principal | null;
  get(key: 'credentialsRejected'): boolean;
}) {
  const principal = c.get('principal');
  if (!principal) {
    throw unauthenticated(c.get('credentialsRejected') ? 'auth.invalid_credentials_header' : 'auth.required');
  }
  return principal;
}

/**
 * Who may call: nobody in particular (`none`), an admin session (`admin`), a person's session of
 * any role (`user`), a person or a key holding a permission (a permission name), or any credential
 * (`principal`).
 */
export type RouteAuth = 'none' | 'admin' | 'user' | keyof Permissions | 'principal';

/**
 * A request without credentials to a route open to guests acts as the guest while guests may browse
 * (its reach the settings' folders; the vfs's rights rule decides the rest). Anything else stays
 * nobody: a rejected credential is never taken for a guest.
 */
export async function admitGuest(c: Context<AppEnv>): Promise<void> {
  if (c.get('principal') || c.get('credentialsRejected')) return;
  const guest = await c.get('guest')?.();
  if (guest) c.set('principal', guest);
}

/** Throws unless the request may call a route guarded by `auth`: 401 without valid credentials, 403 with the wrong ones. */
export function authorize(
  c: Context<AppEnv>,
  auth: RouteAuth,
  options: { duringEnrolment?: boolean } = {},
): void {
  if (auth === 'none') return;
  const principal = principalOrThrow(c);
  // The guest reaches only the fs routes (`mount`) that admit it; elsewhere it is nobody.
  if (principal.type === 'guest' && auth !== 'mount') throw unauthenticated('auth.required');
  // Someone who must set up two-factor sign-in first reaches only the routes that do that.
  if (
    (principal.type === 'admin' || principal.type === 'member') &&
    principal.mustEnrol &&
    !options.duringEnrolment
  ) {
    throw forbidden('auth.two_factor_setup_required');
  }
  if (auth === 'principal') return;
  if (auth === 'admin') {
    if (principal.type !== 'admin') throw forbidden('auth.admin_required');
    return;
  }
  if (auth === 'user') {
    // CloudPaste's answer to a key on what were admin-only routes.
    if (principal.type === 'apikey') throw forbidden('auth.admin_required');
    return;
  }
  if (principal.type === 'apikey' && !principal.permissions[auth]) {
    throw forbidden('auth.permission_required', { permission: auth });
  }
}

/** Admin session only. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  authorize(c, 'admin');
  await next();
};

/** Any valid credential. */
export const requirePrincipal: MiddlewareHandler<AppEnv> = async (c, next) => {
  authorize(c, 'principal');
  await next();
};

/** An admin, or an API key holding `permission`. */
export function requirePermission(permission: keyof Permissions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    authorize(c, permission);
    await next();
  };
}
