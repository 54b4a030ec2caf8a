/**
 * Invites (docs/accounts.md): an admin makes a one-time link with a role (and optionally an email,
 * a home folder and a quota) that expires; whoever opens it picks a username and a password and has
 * an account. The link's token is shown once and stored only as a hash; it is taken by exactly one
 * acceptance, even when two arrive together.
 */
import { randomUUID } from 'node:crypto';
import type { InviteView, inviteAcceptSchema, inviteCreateSchema } from '@cubby/shared';
import type { z } from 'zod';
import type { InvitesTable, UsersTable } from '../../db/schema.ts';
import { gone, notFound } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { newUserRow, type UsersService } from './users.service.ts';

const DAY_MS = 24 * 3600_000;

export function toInviteView(row: InvitesTable): InviteView {
  return {
    id: row.id,
    role: row.role,
    email: row.email,
    home_path: row.home_path,
    quota_bytes: row.quota_bytes,
    created_at: row.created_at,
    expires_at: row.expires_at,
    used_at: row.used_at,
    used_by: row.used_by,
  };
}

export class InvitesService {
  constructor(
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  async create(
    creatorId: string,
    input: z.output<typeof inviteCreateSchema>,
  ): Promise<InviteView & { token: string }> {
    const now = this.clock.now();
    const token = randomToken();
    const row: InvitesTable = {
      id: randomUUID(),
      token_hash: sha256Hex(token),
      role: input.role,
      email: input.email || null,
      home_path: input.role === 'member' ? input.home_path || null : null,
      quota_bytes: input.quota_bytes ?? null,
      created_by: creatorId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + input.expires_in_days * DAY_MS).toISOString(),
      used_at: null,
      used_by: null,
    };
    await this.users.repo.insertInvite(row);
    return { ...toInviteView(row), token };
  }

  async list(): Promise<InviteView[]> {
    return (await this.users.repo.listInvites()).map(toInviteView);
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.users.repo.deleteInvite(id))) throw notFound('invites.not_found');
  }

  /** What the person opening the link may know: the role and email it was made for, and until when. */
  async describe(token: string): Promise<{ role: string; email: string | null; expires_at: string }> {
    const row = await this.live(token);
    return { role: row.role, email: row.email, expires_at: row.expires_at };
  }

  /** Makes the account the invite promised; 410 once the link is used, revoked or expired. */
  async accept(token: string, input: z.output<typeof inviteAcceptSchema>): Promise<UsersTable> {
    const invite = await this.live(token);
    const now = this.clock.now().toISOString();
    const user = await newUserRow({ ...input, ...invite }, now);
    await this.users.repo.transaction(async (repo) => {
      if (!(await repo.takeInvite(invite.id, user.id, now))) throw gone('invites.used_or_expired');
      await this.users.insert(user, repo);
    });
    return user;
  }

  private async live(token: string): Promise<InvitesTable> {
    const row = token ? await this.users.repo.findInviteByHash(sha256Hex(token)) : undefined;
    if (!row) throw notFound('invites.not_found');
    if (row.used_at !== null || row.expires_at <= this.clock.now().toISOString()) {
      throw gone('invites.used_or_expired');
    }
    return row;
  }
}
