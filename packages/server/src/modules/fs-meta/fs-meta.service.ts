/**
 * Folder rules as the admin manages them (CloudPaste 1.9's /api/fs-meta routes) and the folder
 * password check that gives a visitor its token (docs/architecture.md, "Folder rules"). How the
 * rules apply lives in the vfs (vfs/folder-rules.ts); every change here tells it to read them again.
 */
import { randomUUID } from 'node:crypto';
import {
  FS_META_PASSWORD_MASK,
  type fsMetaBodySchema,
  type FsMetaRule,
  type FsPathPasswordAnswer,
  normalizeFsPath,
} from '@cubby/shared';
import type { z } from 'zod';
import type { FsMetaTable } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflictingFields, forbidden, invalidFields, notFound } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/crypto.ts';
import type { AttemptLimiter } from '../../http/rate-limiter.ts';
import { hideMatcher, type Vfs } from '../../vfs/vfs.ts';
import { checkSharePassword } from '../shares/share-rules.ts';
import { type FsMetaRepository, recordOf } from './fs-meta.repository.ts';

type Body = z.output<typeof fsMetaBodySchema>;

/** A rule as answered: never its password, only whether it has one. */
export function ruleView(row: FsMetaTable): FsMetaRule {
  const { password_hash, ...fields } = recordOf(row);
  return {
    id: row.id,
    ...fields,
    has_password: password_hash !== null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const bit = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
const blankToNull = (text: string | null | undefined) =>
  text === undefined ? undefined : text === null || text.trim() === '' ? null : text;

export class FsMetaService {
  constructor(
    private readonly deps: { repo: FsMetaRepository; vfs: Vfs; clock: Clock; limiter: AttemptLimiter },
  ) {}

  async list(): Promise<FsMetaRule[]> {
    return (await this.deps.repo.list()).map(ruleView);
  }

  async get(id: string): Promise<FsMetaRule> {
    return ruleView(await this.row(id));
  }

  async create(body: Body): Promise<FsMetaRule> {
    const now = this.deps.clock.now().toISOString();
    const row: FsMetaTable = {
      id: randomUUID(),
      path: pathOf(body.path),
      header_markdown: blankToNull(body.header_markdown) ?? null,
      header_inherit: bit(body.header_inherit) ?? 0,
      footer_markdown: blankToNull(body.footer_markdown) ?? null,
      footer_inherit: bit(body.footer_inherit) ?? 0,
      hide_patterns: JSON.stringify(checkedPatterns(body.hide_patterns ?? [])),
      hide_inherit: bit(body.hide_inherit) ?? 0,
      password_hash: (await passwordChange(body.password)) ?? null,
      // A folder's password protects what lies below it unless the admin says otherwise.
      password_inherit: bit(body.password_inherit) ?? 1,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.deps.repo.insert(row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflictingFields('fs_meta.path_taken', { path: 'fs_meta.path_taken' });
      throw error;
    }
    this.deps.vfs.folderRules.changed();
    return ruleView(row);
  }

  async update(id: string, body: Body): Promise<FsMetaRule> {
    await this.row(id);
    const changes = {
      ...(body.path !== undefined ? { path: pathOf(body.path) } : {}),
      header_markdown: blankToNull(body.header_markdown),
      header_inherit: bit(body.header_inherit),
      footer_markdown: blankToNull(body.footer_markdown),
      footer_inherit: bit(body.footer_inherit),
      hide_patterns:
        body.hide_patterns === undefined ? undefined : JSON.stringify(checkedPatterns(body.hide_patterns)),
      hide_inherit: bit(body.hide_inherit),
      password_hash: await passwordChange(body.password),
      password_inherit: bit(body.password_inherit),
      updated_at: this.deps.clock.now().toISOString(),
    };
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    try {
      await this.deps.repo.update(id, defined);
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflictingFields('fs_meta.path_taken', { path: 'fs_meta.path_taken' });
      throw error;
    }
    this.deps.vfs.folderRules.changed();
    return ruleView(await this.row(id));
  }

  async delete(id: string): Promise<void> {
    if (!(await this.deps.repo.delete(id))) throw notFound('fs_meta.not_found');
    this.deps.vfs.folderRules.changed();
  }

  /**
   * The token that opens the folder protecting `raw` (CloudPaste 1.9's answer), after its password,
   * under the share-password limits (429); 403 for a wrong one. A path no password protects
   * answers `requiresPassword: false` and no token.
   */
  async verifyPassword(raw: unknown, password: string, clientIp: string): Promise<FsPathPasswordAnswer> {
    const path = this.deps.vfs.target(raw).path;
    const rules = this.deps.vfs.folderRules;
    const owner = (await rules.effective(path)).password;
    if (!owner) return { verified: true, requiresPassword: false, token: null, path };
    await checkSharePassword(
      this.deps.limiter,
      { share: `fs-path:${owner.path}`, clientIp },
      owner.hash,
      password,
      () => forbidden('fs_meta.wrong_password'),
    );
    return {
      verified: true,
      requiresPassword: true,
      token: rules.issueToken(owner.path, owner.hash).token,
      path: owner.path,
    };
  }

  private async row(id: string): Promise<FsMetaTable> {
    const row = await this.deps.repo.find(id);
    if (!row) throw notFound('fs_meta.not_found');
    return row;
  }
}

/** A rule's folder in canonical form; 400 naming `path` for anything else. */
function pathOf(raw: string | undefined): string {
  const path = raw === undefined ? null : normalizeFsPath(raw);
  if (path === null) throw invalidFields('common.validation', { path: 'fs.path_invalid' }, { field: 'path' });
  return path;
}

/** Patterns picomatch compiles (400 naming `hide_patterns` otherwise), without repeats. */
function checkedPatterns(patterns: readonly string[]): string[] {
  const unique = [...new Set(patterns)];
  try {
    hideMatcher(unique)('probe');
  } catch {
    throw invalidFields(
      'common.validation',
      { hide_patterns: 'validation.hide_pattern_invalid' },
      { field: 'hide_patterns' },
    );
  }
  return unique;
}

/** The stored hash a password field asks for: undefined keeps the stored one, null removes it. */
async function passwordChange(password: string | null | undefined): Promise<string | null | undefined> {
  if (password === undefined || password === FS_META_PASSWORD_MASK) return undefined;
  if (password === null || password === '') return null;
  return hashPassword(password);
}
