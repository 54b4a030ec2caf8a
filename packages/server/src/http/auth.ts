/**
 * Reads the Authorization header (`Bearer <admin session token>` or `ApiKey <key>`) into the request's
 * principal, and the guards routes put in front of themselves. A missing, revoked or expired
 * credential on a protected route is 401 (the client logs out); a valid one without the right is 403.
 */
import type { Permissions, Principal } from '@cubby/shared';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { forbidden, unauthenticated } from './errors.ts';

export interface CredentialResolvers {
  resolveSession(token: string): Promise<Principal | null>;
  resolveKey(key: string): Promise<Principal | null>;
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
            ? await resolvers.resolveSession(credential)
            : await resolvers.resolveKey(credential);
      }
    }
    c.set('principal', principal);
    c.set('credentialsRejected', header !== undefined && principal === null);
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

/** Admin session only. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (principalOrThrow(c).type !== 'admin') throw forbidden('auth.admin_required');
  await next();
};

/** Any valid credential. */
export const requirePrincipal: MiddlewareHandler<AppEnv> = async (c, next) => {
  principalOrThrow(c);
  await next();
};

/** An admin, or an API key holding `permission`. */
export function requirePermission(permission: keyof Permissions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = principalOrThrow(c);
    if (principal.type === 'apikey' && !principal.permissions[permission]) {
      throw forbidden('auth.permission_required', { permission });
    }
    await next();
  };
}
