/**
 * Text shares: create, read with password and view counting, manage.
 *
 * Which reads count a view: the public view (GET, or POST with the password) and the raw text.
 * HEAD requests, the metadata answer of a protected paste, and management reads (admin or owner)
 * do not. The view that uses up the last allowed view still gets the content, which is erased right
 * after; the paste then answers 410 ("used up") once and is deleted, like an expired one. The
 * periodic purge deletes whatever nobody asked for again.
 *
 * A paste may hold several named files (docs/api.md, "Multi-file pastes"): they live in paste_files
 * and its `content` is the first file's text, so CloudPaste 0.6 clients still read something
 * sensible. A revoked paste answers 410 on every read and stays listed for its owner.
 */
import { randomUUID } from 'node:crypto';
import {
  PASTE_MAX_BYTES,
  type PasteFile,
  type PasteLanguage,
  type PublicPasteItem,
  creatorId,
  mayManage,
  type PasteDetail,
  type PasteSummary,
  type PasteView,
  type Principal,
  type pasteCreateSchema,
  type pasteUpdateSchema,
  userIdOf,
} from '@cubby/shared';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.ts';
import type { PastesTable } from '../../db/schema.ts';
import { badRequest, conflict, gone, notFound, tooLarge, unauthenticated } from '../../errors/app-error.ts';
import type { AttemptLimiter } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/crypto.ts';
import {
  checkSharePassword,
  futureExpiry,
  managedShares,
  ownShares,
  randomSlug,
  shareState,
  type ShareState,
} from '../shares/share-rules.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { enforceSharePolicy, type ShareRequest } from '../shares/share-policy.ts';
import type { Notify } from '../notifications/notifications.service.ts';
import type { PasteFileInput, PasteListRow, PastesRepository } from './pastes.repository.ts';

type FilesInput = z.output<typeof pasteCreateSchema>['files'];

const PREVIEW_CHARS = 200;

export interface OpenOptions {
  /** The password the reader gave, if any. */
  password?: string;
  clientIp: string;
  /** False for HEAD: answer as a read would, but count nothing. */
  count: boolean;
}

export class PastesService {
  constructor(
    private readonly repo: PastesRepository,
    private readonly clock: Clock,
    private readonly passwordLimiter: AttemptLimiter,
    private readonly settings: Pick<SettingsService, 'publicPastesEnabled' | 'sharePolicy'>,
    /** Told when a paste is created or a view counted (modules/notifications). */
    private readonly notify: Notify = () => {},
  ) {}

  async create(principal: Principal, input: z.output<typeof pasteCreateSchema>) {
    const files = this.namedFiles(input.files);
    const content = files[0]?.content ?? input.content ?? '';
    const texts = files.length > 0 ? files.map((f) => f.content) : [content];
    this.checkSize(texts);
    const createdBy = creatorId(principal);
    const policy = await this.policy({
      createdBy,
      mode: 'create',
      expires_at: input.expiresAt === undefined ? undefined : this.futureExpiry(input.expiresAt),
      max_views: input.maxViews,
      has_password: Boolean(input.password),
      size: textBytes(texts),
    });
    const now = this.clock.now().toISOString();
    const row: PastesTable = {
      id: randomUUID(),
      slug: input.slug || (await this.randomSlug()),
      content,
      format: input.format ?? (files.length > 0 ? formatOf(files[0]!.language) : 'markdown'),
      title: input.title || null,
      is_public: input.is_public ? 1 : 0,
      revoked_at: null,
      file_count: files.length,
      remark: input.remark || null,
      password_hash: input.password ? await hashPassword(input.password) : null,
      expires_at: policy.expires_at ?? null,
      max_views: policy.max_views ?? 0,
      views: 0,
      created_by: createdBy,
      owner_id: userIdOf(principal),
      created_at: now,
      updated_at: now,
    };
    if (input.slug && (await this.repo.slugExists(input.slug))) throw conflict('pastes.slug_taken');
    try {
      await this.repo.insert(row, files);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('pastes.slug_taken');
      throw error;
    }
    this.announce('share.created', row);
    return {
      id: row.id,
      slug: row.slug,
      format: row.format,
      remark: row.remark,
      expiresAt: row.expires_at,
      maxViews: row.max_views,
      hasPassword: row.password_hash !== null,
      createdAt: row.created_at,
      title: row.title,
      is_public: row.is_public === 1,
    };
  }

  /**
   * A reader opens a paste. Without the password a protected paste answers its metadata only
   * (`requiresPassword`), which counts nothing.
   */
  async open(slug: string, options: OpenOptions): Promise<PasteView> {
    if (options.count && options.password === undefined) {
      // The common case in one statement: an unprotected, live paste.
      const counted = await this.repo.countView(
        { slug, unprotectedOnly: true },
        this.clock.now().toISOString(),
      );
      if (counted) return this.delivered(counted);
    }
    const row = await this.repo.findBySlug(slug);
    if (!row) throw notFound('pastes.not_found');
    await this.refuseIfGone(row);

    if (row.password_hash) {
      if (options.password === undefined) return { ...this.view(row), requiresPassword: true };
      await this.checkPassword(row, options.password, options.clientIp);
    }
    if (!options.count) return { ...this.view(row), content: row.content, ...(await this.filesOf(row)) };

    const counted = await this.repo.countView({ id: row.id }, this.clock.now().toISOString());
    if (!counted) {
      // Someone else took the last view, or it expired, between our read and our count.
      await this.refuseIfGone({ ...row, views: Math.max(row.views, row.max_views) });
      throw notFound('pastes.not_found');
    }
    return this.delivered(counted);
  }

  /** The answer to a counted view; the last allowed view erases the text behind it. */
  private async delivered(counted: PastesTable): Promise<PasteView> {
    // Read the files before the last view erases them.
    const files = await this.filesOf(counted);
    if (counted.max_views > 0 && counted.views >= counted.max_views) await this.repo.eraseContent(counted.id);
    this.announce('share.viewed', counted);
    return { ...this.view(counted), content: counted.content, ...files };
  }

  /** `files` of a multi-file paste (one more query only for those), nothing for a plain one. */
  private async filesOf(row: PastesTable): Promise<{ files?: PasteFile[] }> {
    if (row.file_count === 0) return {};
    const files = await this.repo.files(row.id);
    return {
      files: files.map((f) => ({ name: f.name, language: f.language as PasteLanguage, content: f.content })),
    };
  }

  /** Whether the admin turned the public page on (setting public_pastes_enabled). */
  publicPastesEnabled(): Promise<boolean> {
    return this.settings.publicPastesEnabled();
  }

  /**
   * GET /api/public/pastes: the public, unprotected, live pastes, newest first — never their text;
   * 404 while the admin has not turned the public page on.
   */
  async listPublic(options: {
    offset: number;
    limit: number;
  }): Promise<{ items: PublicPasteItem[]; total: number }> {
    if (!(await this.publicPastesEnabled())) throw notFound('pastes.public_disabled');
    const { rows, total } = await this.repo.listPublic({ ...options, now: this.clock.now().toISOString() });
    const items = rows.map((r) => ({
      slug: r.slug,
      title: r.title,
      created_at: r.created_at,
      languages: r.languages as PasteLanguage[],
      size: r.size,
    }));
    return { items, total };
  }

  /** Revokes a paste its principal manages: its link answers 410 from now on (docs/api.md, "Revoking a share"). */
  async revoke(principal: Principal, idOrSlug: string): Promise<PasteDetail> {
    const row = await this.owned(principal, idOrSlug);
    await this.repo.revoke(row.id, this.clock.now().toISOString());
    return this.get(principal, row.id);
  }

  private announce(event: 'share.created' | 'share.viewed', row: PastesTable): void {
    this.notify({
      event,
      share: {
        kind: 'paste',
        id: row.id,
        slug: row.slug,
        name: row.title ?? row.remark,
        owner_id: row.owner_id,
      },
    });
  }

  async list(
    principal: Principal,
    options: { offset: number; limit: number; search?: string; own: boolean },
  ) {
    const { rows, total } = await this.repo.list({
      offset: options.offset,
      limit: options.limit,
      search: options.search?.trim() || undefined,
      whose: options.own ? ownShares(principal) : undefined,
    });
    return { items: rows.map((r) => this.summary(r)), total };
  }

  async get(principal: Principal, idOrSlug: string): Promise<PasteDetail> {
    const row = await this.owned(principal, idOrSlug);
    return {
      ...this.summary({ ...row, key_name: await this.repo.keyName(row.created_by) }),
      content: row.content,
      ...(await this.filesOf(row)),
    };
  }

  async update(principal: Principal, idOrSlug: string, input: z.output<typeof pasteUpdateSchema>) {
    const row = await this.owned(principal, idOrSlug);
    const changes: Partial<PastesTable> = {};
    let files: PasteFileInput[] | undefined;
    if (input.files !== undefined) {
      files = this.namedFiles(input.files);
      this.checkSize(files.map((f) => f.content));
      changes.content = files[0]!.content;
      changes.file_count = files.length;
    } else if (input.content !== undefined && row.file_count > 0) {
      // New text for a multi-file paste, from a client that knows only `content`: its first file.
      const current = await this.repo.files(row.id);
      files = current.map((f, i) => ({
        name: f.name,
        language: f.language,
        content: i === 0 ? input.content! : f.content,
      }));
      this.checkSize(files.map((f) => f.content));
      changes.content = input.content;
    } else if (input.content !== undefined) {
      this.checkSize([input.content]);
      changes.content = input.content;
    }
    if (input.title !== undefined) changes.title = input.title || null;
    if (input.is_public !== undefined) changes.is_public = input.is_public ? 1 : 0;
    if (input.format !== undefined) changes.format = input.format;
    if (input.remark !== undefined) changes.remark = input.remark || null;
    if (input.expiresAt !== undefined) changes.expires_at = this.futureExpiry(input.expiresAt);
    await this.policy({
      createdBy: row.created_by,
      mode: 'update',
      expires_at: changes.expires_at,
      max_views: input.maxViews,
      has_password: input.password ? true : input.clearPassword ? false : undefined,
      size:
        changes.content === undefined
          ? undefined
          : textBytes(files?.map((f) => f.content) ?? [changes.content]),
    });
    if (input.maxViews !== undefined) {
      changes.max_views = input.maxViews;
      // A new limit the paste has already reached would use it up at once: start counting again.
      if (input.maxViews > 0 && row.views >= input.maxViews) changes.views = 0;
    }
    if (input.password) changes.password_hash = await hashPassword(input.password);
    else if (input.clearPassword) changes.password_hash = null;
    if (input.newSlug !== undefined && input.newSlug !== row.slug) {
      if (input.newSlug && (await this.repo.slugExists(input.newSlug))) throw conflict('pastes.slug_taken');
      changes.slug = input.newSlug || (await this.randomSlug());
    }
    changes.updated_at = this.clock.now().toISOString();
    try {
      await this.repo.update(row.id, changes, files);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('pastes.slug_taken');
      throw error;
    }
    return this.get(principal, row.id);
  }

  async delete(principal: Principal, idOrSlug: string): Promise<void> {
    const row = await this.owned(principal, idOrSlug);
    await this.repo.delete(row.id);
  }

  /** Deletes the given pastes; a key only ever touches its own. */
  batchDelete(principal: Principal, ids: string[]): Promise<number> {
    return this.repo.deleteMany(ids, managedShares(principal));
  }

  /** Deletes pastes by id, whoever owns them (a deleted person's, when the admin says so). */
  deleteAll(ids: string[]): Promise<number> {
    return this.repo.deleteMany(ids);
  }

  /** Removes expired and used-up pastes; the periodic job and the admin's "clear expired" call this. */
  purge(): Promise<number> {
    return this.repo.deleteExpiredAndUsedUp(this.clock.now().toISOString());
  }

  private async owned(principal: Principal, idOrSlug: string): Promise<PastesTable> {
    const row = await this.repo.findByIdOrSlug(idOrSlug);
    if (!row || !mayManage(principal, row)) throw notFound('pastes.not_found_or_forbidden');
    return row;
  }

  private state(row: PastesTable): ShareState {
    return shareState(row, this.clock.now());
  }

  private async refuseIfGone(row: PastesTable): Promise<void> {
    const state = this.state(row);
    if (state === 'active') return;
    // A revoked paste stays (its owner still lists it); an expired or used-up one goes.
    if (state === 'revoked') throw gone('pastes.revoked');
    await this.repo.delete(row.id);
    throw gone(state === 'expired' ? 'pastes.expired' : 'pastes.used_up');
  }

  private async checkPassword(row: PastesTable, password: string, clientIp: string): Promise<void> {
    if (password === '') throw badRequest('pastes.password_required');
    await checkSharePassword(
      this.passwordLimiter,
      { share: `paste:${row.id}`, clientIp },
      row.password_hash!,
      password,
      () => unauthenticated('pastes.wrong_password'),
    );
  }

  private view(row: PastesTable): PasteView {
    return {
      slug: row.slug,
      format: row.format,
      remark: row.remark,
      hasPassword: row.password_hash !== null,
      expiresAt: row.expires_at,
      maxViews: row.max_views,
      views: row.views,
      remainingViews: row.max_views > 0 ? Math.max(0, row.max_views - row.views) : null,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      created_by: row.created_by,
      title: row.title,
      is_public: row.is_public === 1,
    };
  }

  private summary(row: PasteListRow): PasteSummary {
    return {
      id: row.id,
      slug: row.slug,
      remark: row.remark,
      format: row.format,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_views: row.max_views,
      views: row.views,
      view_count: row.views,
      status: this.state(row),
      title: row.title,
      is_public: row.is_public === 1,
      revoked_at: row.revoked_at,
      file_count: row.file_count,
      content_preview:
        row.content.length > PREVIEW_CHARS ? row.content.slice(0, PREVIEW_CHARS) + '...' : row.content,
      size: Buffer.byteLength(row.content),
      created_by: row.created_by,
      key_name: row.key_name,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** Named files as stored: each with its language (plain text when none was given). */
  private namedFiles(files: FilesInput): PasteFileInput[] {
    return (files ?? []).map((f) => ({ name: f.name, language: f.language ?? 'text', content: f.content }));
  }

  /** All the text of one paste, every file together, within PASTE_MAX_BYTES. */
  private checkSize(texts: string[]): void {
    if (textBytes(texts) > PASTE_MAX_BYTES) {
      throw tooLarge('pastes.content_too_large', { limit: '5 MiB' });
    }
  }

  /** The share policy on this paste (modules/shares/share-policy.ts): the expiry and view limit to store. */
  private async policy(request: ShareRequest) {
    return enforceSharePolicy(await this.settings.sharePolicy(), request, this.clock.now());
  }

  private futureExpiry(value: string | null | undefined): string | null {
    return futureExpiry(value, this.clock.now(), 'expiresAt');
  }

  private randomSlug(): Promise<string> {
    return randomSlug((slug) => this.repo.slugExists(slug), 'pastes.slug_exhausted');
  }
}

/** The `format` CloudPaste 0.6 clients read for a multi-file paste: Markdown for a Markdown first file. */
function formatOf(language: string): PastesTable['format'] {
  return language === 'markdown' ? 'markdown' : 'text';
}

/** The UTF-8 bytes of a paste's texts. */
function textBytes(texts: readonly string[]): number {
  let bytes = 0;
  for (const text of texts) bytes += Buffer.byteLength(text);
  return bytes;
}
