/**
 * Folder rules (CloudPaste's `fs_meta`; docs/architecture.md, "Folder rules"): per virtual folder
 * a README shown above and below its listing, hide patterns, and a password. The one home of how
 * they apply; the Vfs façade asks it on every door (fs routes, zip, WebDAV, folder shares).
 *
 * - Each field of a folder's effective rules is its own rule's, or the nearest ancestor's whose
 *   field inherits (a folder's own rule always applies to itself). Hide patterns add up along the
 *   way (an ancestor's inheriting patterns and the folder's own).
 * - A name is hidden when the effective patterns of its folder match it (picomatch globs on the
 *   name): not listed, and a path through it answers 404 as if absent — for everyone but an admin.
 * - A password protects its folder and what lies directly in it, and with `password_inherit`
 *   everything below. A visitor who is not an admin presents a short-lived signed token for the
 *   folder the password belongs to ({@link FolderRules.issueToken}), bound to that path and to the
 *   password's hash: a new password retires every token.
 *
 * The rules are read whole from the source (a small admin-made table), kept in memory and forgotten
 * on every change, here at once and on the other instances through the cache bus.
 */
import picomatch from 'picomatch';
import type { FsMetaRule, Principal } from '@cubby/shared';
import { z } from 'zod';
import { folderPasswordRequired, notFound } from '../errors/app-error.ts';
import { type CacheBus, DEGRADED_TTL_MS } from '../lib/cache-bus.ts';
import type { Clock } from '../lib/clock.ts';
import { openLink, signLink, stampDigest, stampMatches } from '../lib/signed-link.ts';
import { ancestorsAndSelf, nameOf, parentOf } from '../storage/driver-path.ts';

/** A folder's rule as the vfs applies it (modules/fs-meta/): the password as its hash (lib/crypto.ts). */
export type FolderRuleRecord = Omit<FsMetaRule, 'id' | 'has_password' | 'created_at' | 'updated_at'> & {
  password_hash: string | null;
};

/** Where the rules come from: app.ts hands the vfs the repository. */
export interface FolderRuleSource {
  all(): Promise<FolderRuleRecord[]>;
}

/** What applies at one folder. */
export interface EffectiveRules {
  header_markdown: string | null;
  footer_markdown: string | null;
  /** Matches the names the folder hides. */
  hides: (name: string) => boolean;
  /** The folder whose password protects this one, and its hash. */
  password: { path: string; hash: string } | null;
}

/** How long a folder-password token opens its folder: a visit, not for ever. */
export const PATH_TOKEN_SECONDS = 6 * 3600;
/** Most tokens one request may present (each is checked). */
export const MAX_PATH_TOKENS = 16;
const TOKEN_PURPOSE = 'fs-path';
const tokenPayload = z.object({
  v: z.literal(1),
  p: z.string().max(4096),
  h: z.string().max(64),
  e: z.number().int().positive(),
});

interface LoadedRule extends FolderRuleRecord {
  match: ((name: string) => boolean) | null;
}

/** A matcher for hide patterns, or the error of the first that is no glob. */
export function hideMatcher(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  return picomatch([...patterns], { dot: true });
}

/** The tokens a request presented, per principal object (the fs routes attach them, {@link FolderRules.withTokens}). */
const presented = new WeakMap<Principal, readonly string[]>();

export class FolderRules {
  private loaded: Promise<Map<string, LoadedRule>> | null = null;
  private loadedAt = 0;
  private generation = 0;

  constructor(
    private readonly deps: { source: FolderRuleSource; secretKey: string; clock: Clock; bus?: CacheBus },
  ) {}

  /** Forgets the rules (after a change): here, and on the other instances. */
  changed(): void {
    this.forgetLocal();
    this.deps.bus?.publish({ kind: 'folder-rules' });
  }

  /** Forgets the rules here only (another instance changed them, or notes were missed). */
  forgetLocal(): void {
    this.generation++;
    this.loaded = null;
  }

  private rules(): Promise<Map<string, LoadedRule>> {
    const now = this.deps.clock.now().getTime();
    // While notes from other instances may be missed, rules are kept only briefly (as listings are).
    const stale = this.deps.bus?.state() === 'degraded' && this.loadedAt < now - DEGRADED_TTL_MS;
    if (this.loaded && !stale) return this.loaded;
    const generation = this.generation;
    this.loadedAt = now;
    const loading = this.deps.source.all().then((records) => {
      const map = new Map<string, LoadedRule>();
      for (const r of records) {
        map.set(r.path, { ...r, match: r.hide_patterns.length > 0 ? hideMatcher(r.hide_patterns) : null });
      }
      return map;
    });
    // A load that raced a change is used once, not kept.
    loading.then(
      () => {
        if (generation !== this.generation && this.loaded === loading) this.loaded = null;
      },
      () => {
        if (this.loaded === loading) this.loaded = null;
      },
    );
    this.loaded = loading;
    return loading;
  }

  /** The rules in effect at folder `path` (a canonical virtual path). */
  async effective(path: string): Promise<EffectiveRules> {
    return effectiveOf(await this.rules(), path);
  }

  /** Whether rules bind `principal` at all: an admin sees and opens everything. */
  static binds(principal: Principal): boolean {
    return principal.type !== 'admin';
  }

  /**
   * 404 when `path` lies through a hidden name, 403 FS_PATH_PASSWORD_REQUIRED when a password
   * protects it and `principal` presented no live token for it. Nothing for an admin.
   */
  async guard(principal: Principal, path: string): Promise<void> {
    if (!FolderRules.binds(principal)) return;
    const rules = await this.rules();
    if (rules.size === 0) return;
    const chain = ancestorsAndSelf(path);
    for (let i = 1; i < chain.length; i++) {
      const at = chain[i]!;
      if (effectiveOf(rules, parentOf(at)).hides(nameOf(at))) throw notFound('fs.not_found');
    }
    const owners = new Map<string, string>();
    for (const folder of path === '/' ? [path] : [path, parentOf(path)]) {
      const password = effectiveOf(rules, folder).password;
      if (password) owners.set(password.path, password.hash);
    }
    for (const [owner, hash] of owners) {
      if (!this.unlocked(principal, owner, hash)) throw folderPasswordRequired(owner);
    }
  }

  /** The names of folder `path` that `principal` may see (all, for an admin). */
  async visible<T extends { name: string }>(principal: Principal, path: string, items: T[]): Promise<T[]> {
    if (!FolderRules.binds(principal)) return items;
    const rules = await this.rules();
    if (rules.size === 0) return items;
    const { hides } = effectiveOf(rules, path);
    return items.filter((item) => !hides(item.name));
  }

  // ---- folder-password tokens -----------------------------------------------------------------

  /** A token that opens the folder at `path` (the owner of a password) while its hash is `hash`. */
  issueToken(path: string, hash: string): { token: string; expiresAt: Date } {
    const e = Math.floor(this.deps.clock.now().getTime() / 1000) + PATH_TOKEN_SECONDS;
    const payload = { v: 1, p: path, h: stampDigest(this.deps.secretKey, TOKEN_PURPOSE, hash), e };
    return { token: signLink(this.deps.secretKey, TOKEN_PURPOSE, payload), expiresAt: new Date(e * 1000) };
  }

  /** `principal` as it is, carrying the tokens a request presented (a copy: the original stays bare). */
  withTokens<P extends Principal>(principal: P, tokens: readonly string[]): P {
    if (tokens.length === 0 || !FolderRules.binds(principal)) return principal;
    const copy = { ...principal };
    presented.set(copy, tokens.slice(0, MAX_PATH_TOKENS));
    return copy;
  }

  /** The tokens `principal` carries (to put in a link it makes, such as a zip download's). */
  tokensOf(principal: Principal): readonly string[] {
    return presented.get(principal) ?? [];
  }

  private unlocked(principal: Principal, owner: string, hash: string): boolean {
    const now = this.deps.clock.now().getTime() / 1000;
    return (presented.get(principal) ?? []).some((token) => {
      const payload = openLink(this.deps.secretKey, TOKEN_PURPOSE, token, tokenPayload);
      return (
        payload !== null &&
        payload.p === owner &&
        payload.e > now &&
        stampMatches(this.deps.secretKey, TOKEN_PURPOSE, hash, payload.h)
      );
    });
  }
}

/** The effective rules at `path` from the loaded rules (see the file's comment). */
function effectiveOf(rules: Map<string, LoadedRule>, path: string): EffectiveRules {
  let header: string | null = null;
  let footer: string | null = null;
  let password: EffectiveRules['password'] = null;
  const matchers: ((name: string) => boolean)[] = [];
  if (rules.size > 0) {
    for (const at of ancestorsAndSelf(path)) {
      const rule = rules.get(at);
      if (!rule) continue;
      const self = at === path;
      if (rule.header_markdown !== null && (self || rule.header_inherit)) header = rule.header_markdown;
      if (rule.footer_markdown !== null && (self || rule.footer_inherit)) footer = rule.footer_markdown;
      if (rule.match && (self || rule.hide_inherit)) matchers.push(rule.match);
      if (rule.password_hash !== null && (self || rule.password_inherit)) {
        password = { path: at, hash: rule.password_hash };
      }
    }
  }
  return {
    header_markdown: header,
    footer_markdown: footer,
    hides: (name) => matchers.some((match) => match(name)),
    password,
  };
}
