/** The per-request variables every handler can read. */
import type { Principal } from '@cubby/shared';
import type { Logger } from 'pino';
import type { Lang } from '../errors/messages.ts';

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    lang: Lang;
    clientIp: string;
    /** Headers every answer of this request carries, lower-case names (http/answer.ts). */
    headers: Record<string, string>;
    /** Who is calling; null when no valid credentials were sent. */
    principal: Principal | null;
    /** True when an Authorization header was sent but named no valid, unexpired credential. */
    credentialsRejected: boolean;
  };
}
