/**
 * Composes the HTTP app from its parts. `createApp(deps)` is what main.ts serves and what the
 * integration tests call through `app.request()`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { PASTE_MAX_BYTES, type Principal } from '@cubby/shared';
import type { Config } from './config/config.ts';
import type { Db } from './db/database.ts';
import { apiHeaders } from './http/api-headers.ts';
import { authenticate } from './http/auth.ts';
import type { AppEnv } from './http/context.ts';
import { handleError, handleNotFound } from './http/error-handler.ts';
import { openApiRoutes } from './http/openapi.ts';
import { badRequest, shuttingDown } from './errors/app-error.ts';
import { createAttemptLimiter } from './http/rate-limiter.ts';
import { requestBodies } from './http/request-body.ts';
import { requestContext } from './http/request-context.ts';
import { publicOrigin } from './http/public-origin.ts';
import { serveSpa } from './http/spa.ts';
import { type CacheNote, type CacheBus, createCacheBus, newInstanceId } from './lib/cache-bus.ts';
import { AdjustableClock, type Clock } from './lib/clock.ts';
import { testHookRoutes } from './http/test-hooks.ts';
import { ApiKeysRepository } from './modules/api-keys/api-keys.repository.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { ApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { AuditRepository } from './modules/audit/audit.repository.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { AuditService } from './modules/audit/audit.service.ts';
import { SessionsRepository } from './modules/auth/sessions.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { AppPasswordsRepository } from './modules/app-passwords/app-passwords.repository.ts';
import { appPasswordsRoutes } from './modules/app-passwords/app-passwords.routes.ts';
import { AppPasswordsService } from './modules/app-passwords/app-passwords.service.ts';
import { TwoFactorRepository } from './modules/two-factor/two-factor.repository.ts';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { TwoFactorService } from './modules/two-factor/two-factor.service.ts';
import { OidcRepository } from './modules/oidc/oidc.repository.ts';
import { PasskeysRepository } from './modules/passkeys/passkeys.repository.ts';
import { passkeysRoutes } from './modules/passkeys/passkeys.routes.ts';
import { PasskeysService } from './modules/passkeys/passkeys.service.ts';
import { oidcRoutes } from './modules/oidc/oidc.routes.ts';
import { OidcService } from './modules/oidc/oidc.service.ts';
import { LdapRepository } from './modules/ldap/ldap.repository.ts';
import { ldapRoutes } from './modules/ldap/ldap.routes.ts';
import { LdapService } from './modules/ldap/ldap.service.ts';
import { InvitesService } from './modules/users/invites.service.ts';
import { UsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { UsersService } from './modules/users/users.service.ts';
import { DashboardRepository } from './modules/dashboard/dashboard.repository.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { DashboardService } from './modules/dashboard/dashboard.service.ts';
import { BundlesRepository } from './modules/bundles/bundles.repository.ts';
import { bundlesRoutes } from './modules/bundles/bundles.routes.ts';
import { BundlesService } from './modules/bundles/bundles.service.ts';
import { Mailer } from './modules/notifications/mail.ts';
import { NotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { CardsRepository } from './modules/cards/cards.repository.ts';
import { cardsRoutes } from './modules/cards/cards.routes.ts';
import {
  bundleCards,
  cardTags,
  fileCards,
  folderCards,
  LinkCards,
  pasteCards,
} from './modules/cards/cards.service.ts';
import { FilesRepository } from './modules/files/files.repository.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { FilesService } from './modules/files/files.service.ts';
import { DriverPool } from './vfs/driver-pool.ts';
import { StoredObjects } from './vfs/objects.ts';
import { StorageQuota } from './vfs/quota.ts';
import { folderQuotas } from './vfs/resolve.ts';
import { shareUpkeep } from './modules/files/share-upkeep.ts';
import { PastesRepository } from './modules/pastes/pastes.repository.ts';
import { pastesRoutes } from './modules/pastes/pastes.routes.ts';
import { PastesService } from './modules/pastes/pastes.service.ts';
import { SettingsRepository } from './modules/settings/settings.repository.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { StorageConfigsRepository } from './modules/storage-configs/storage-configs.repository.ts';
import { storageConfigsRoutes } from './modules/storage-configs/storage-configs.routes.ts';
import { StorageConfigsService } from './modules/storage-configs/storage-configs.service.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { UploadsRepository } from './modules/uploads/uploads.repository.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { TusRepository } from './modules/tus/tus.repository.ts';
import { tusRoutes } from './modules/tus/tus.routes.ts';
import { TusService } from './modules/tus/tus.service.ts';
import {
  BundleTarget,
  MountPathTarget,
  ShareTarget,
  UploadRequestTarget,
} from './modules/tus/tus-targets.ts';
import { settingsUrlProbe, UploadsService } from './modules/uploads/uploads.service.ts';
import { UploadRequestsRepository } from './modules/upload-requests/upload-requests.repository.ts';
import { uploadRequestsRoutes } from './modules/upload-requests/upload-requests.routes.ts';
import { UploadRequestsService } from './modules/upload-requests/upload-requests.service.ts';
import { urlUploadRoutes } from './modules/url-upload/url-upload.routes.ts';
import { localLinkRoutes } from './modules/storage-links/local-links.routes.ts';
import { Vfs } from './vfs/vfs.ts';
import { FsTasksRepository } from './modules/fs-tasks/fs-tasks.repository.ts';
import { fsTasksRoutes } from './modules/fs-tasks/fs-tasks.routes.ts';
import { FsTasksService } from './modules/fs-tasks/fs-tasks.service.ts';
import { ScheduledSyncRepository } from './modules/scheduled-sync/scheduled-sync.repository.ts';
import { scheduledSyncRoutes } from './modules/scheduled-sync/scheduled-sync.routes.ts';
import { ScheduledSyncService } from './modules/scheduled-sync/scheduled-sync.service.ts';
import { fsRoutes } from './modules/fs/fs.routes.ts';
import { FsZipService } from './modules/fs/fs-zip.ts';
import { fsZipRoutes } from './modules/fs/fs-zip.routes.ts';
import { FolderSharesRepository } from './modules/folder-shares/folder-shares.repository.ts';
import { folderSharesRoutes } from './modules/folder-shares/folder-shares.routes.ts';
import { FolderSharesService } from './modules/folder-shares/folder-shares.service.ts';
import { folderShareUpkeep } from './modules/folder-shares/folder-shares.upkeep.ts';
import { FsService } from './modules/fs/fs.service.ts';
import { MountsRepository } from './modules/mounts/mounts.repository.ts';
import { FsMetaRepository } from './modules/fs-meta/fs-meta.repository.ts';
import { fsMetaRoutes } from './modules/fs-meta/fs-meta.routes.ts';
import { FsMetaService } from './modules/fs-meta/fs-meta.service.ts';
import { mountsRoutes } from './modules/mounts/mounts.routes.ts';
import { MountsService } from './modules/mounts/mounts.service.ts';
import type { StorageChange } from './vfs/changes.ts';
import { LOCAL_PRESIGN_MOUNT, SignedLinks } from './vfs/signed-links.ts';
import { APP_VERSION } from './version.ts';
import { DavAuthenticator } from './webdav/auth.ts';
import { DavRepository } from './webdav/dav.repository.ts';
import { webdavRoutes } from './webdav/webdav.routes.ts';

export const DEFAULT_WEB_DIST = path.resolve(fileURLToPath(new URL('../../web/dist', import.meta.url)));
const JSON_BODY_LIMIT = 1024 * 1024;
const NUL_ESCAPE = /%00/i;
// JSON escaping can double a paste's size (\uXXXX), so its routes take twice the content limit.
const PASTE_BODY_LIMIT = 2 * PASTE_MAX_BYTES + 64 * 1024;
const PASTE_BODY_ROUTES =
  /^\/api\/(paste|admin\/pastes\/[^/]+|user\/pastes\/[^/]+|(admin|user)\/fs\/update)$/;
/** Routes that stream a file body and enforce their own size limit (the upload limit, a signed size). */
const STREAMING_BODY_ROUTES =
  /^\/api\/(upload$|upload-direct\/|storage\/local\/|(admin|user)\/fs\/(upload|multipart\/part)$|public\/upload-requests\/[^/]+\/files$|tus(\/|$))/;

const WEBDAV_PATH = /^\/dav(\/|$)/;

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  secretKey: string;
  webDistDir?: string;
  /** Names this instance (notes, job runs); a new id when unset. */
  instanceId?: string;
  /** How caches hear of other instances' changes; built from `db` when unset (tests pass their own). */
  cacheBus?: CacheBus;
  /** True once the process is shutting down: health then answers 503 `draining` (main.ts). */
  draining?: () => boolean;
}

export function createApp(deps: AppDeps) {
  const { config, db, clock, logger } = deps;
  const instanceId = deps.instanceId ?? deps.cacheBus?.instance ?? newInstanceId();
  // On PostgreSQL other instances share the database: what one changes, the others forget.
  const cacheBus = deps.cacheBus ?? createCacheBus(db, instanceId, logger);
  // Guesses at passwords; each service names its own limits (login, change-password, shares).
  // Counted in the database on PostgreSQL, so every instance shares them.
  const limiter = createAttemptLimiter(db, clock, logger);
  // People (docs/accounts.md); `pastes`, `files` and `vfs` are built below, used once a request arrives.
  const users: UsersService = new UsersService({
    repo: new UsersRepository(db.kysely),
    clock,
    endSessions: (userId) => auth.endAllSessions(userId),
    shares: {
      deletePastes: (ids) => pastes.deleteAll(ids),
      deleteFiles: (ids) => files.deleteAll(ids),
    },
    makeFolder: (principal, path) => vfs.mkdir(principal, path),
    quotaChanged: (key) => quota.forget(key),
  });
  const twoFactor: TwoFactorService = new TwoFactorService({
    repo: new TwoFactorRepository(db.kysely),
    clock,
    limiter,
    secretKey: deps.secretKey,
    issuer: 'Cubby',
    policy: () => settings.requireTwoFactor(),
    // Built below: a passkey counts as a second factor (docs/accounts.md "Passkeys").
    passkeys: {
      count: (userId) => passkeys.count(userId),
      verifyFor: (userId, proof) => passkeys.verifyFor(userId, proof),
    },
  });
  const passkeys = new PasskeysService({
    repo: new PasskeysRepository(db.kysely),
    clock,
    limiter,
    twoFactor,
  });
  const ldap = new LdapService({
    repo: new LdapRepository(db.kysely),
    users,
    clock,
    logger,
    secretKey: deps.secretKey,
  });
  const auth: AuthService = new AuthService(
    new SessionsRepository(db.kysely),
    users,
    twoFactor,
    clock,
    limiter,
    config.sessionTtlMs,
    ldap,
  );
  const invites = new InvitesService(users, clock);
  const oidc = new OidcService({
    repo: new OidcRepository(db.kysely),
    users,
    auth,
    clock,
    logger,
    limiter,
    secretKey: deps.secretKey,
  });
  const appPasswords = new AppPasswordsService(
    new AppPasswordsRepository(db.kysely),
    users,
    clock,
    deps.secretKey,
  );
  const apiKeys = new ApiKeysService(new ApiKeysRepository(db.kysely), clock, deps.secretKey, (id) =>
    users.principalById(id),
  );
  const settings = new SettingsService(new SettingsRepository(db.kysely), clock);
  // Security-relevant requests leave one entry each (http/route-docs.ts, webdav/auth.ts).
  const audit = new AuditService({
    repo: new AuditRepository(db.kysely),
    clock,
    logger,
    retentionDays: () => settings.auditRetentionDays(),
    secretKey: deps.secretKey,
    // Export links die with the admin's password change (or when they are an admin no more).
    admin: async (id) => {
      const user = await auth.userWithStamp(id);
      return user?.principal.type === 'admin' ? user : null;
    },
  });
  // Webhooks and email on share events (docs/api.md "Notifications"); `notify` is what modules call.
  const mailer = new Mailer(new SettingsRepository(db.kysely), clock, deps.secretKey);
  const notifications = new NotificationsService({
    repo: new NotificationsRepository(db.kysely),
    mailer,
    clock,
    logger,
    secretKey: deps.secretKey,
    publicBaseUrl: config.publicUrl ?? `http://${config.host}:${config.port}`,
    allowlist: () => settings.urlAllowlist(),
  });
  const { notify } = notifications;
  const pastes = new PastesService(
    new PastesRepository(db.kysely, db.writeBatch),
    clock,
    limiter,
    settings,
    notify,
  );
  const mountsRepository = new MountsRepository(db.kysely);
  // Each storage config's quota, kept on every door (vfs/quota.ts); `drivers` is built
  // below, and a storage is only counted once a request arrives.
  const quota: StorageQuota = new StorageQuota({
    db: db.kysely,
    dialect: db.dialect,
    clock,
    driver: (id) => drivers.driver(id),
    // Members' home folders with a quota, where the mounts put them.
    folders: async () =>
      folderQuotas(await users.homeQuotas(), await mountsRepository.list({ activeOnly: true })),
  });
  const storageConfigsRepository = new StorageConfigsRepository(db.kysely);
  // Every config's driver, built and cached in one place (vfs/driver-pool.ts); its credentials are
  // opened by `storageConfigs`, built below (no driver is built before a request arrives).
  const drivers = new DriverPool({
    findConfig: (id) => storageConfigsRepository.findById(id),
    openSecrets: (record): Record<string, string> => storageConfigs.openSecrets(record),
    publicBaseUrl: config.publicUrl ?? `http://${config.host}:${config.port}`,
    secretKey: deps.secretKey,
    clock,
    bus: cacheBus,
  });
  const storageConfigs = new StorageConfigsService(storageConfigsRepository, clock, {
    dataDir: config.dataDir,
    secretKey: deps.secretKey,
    mounts: mountsRepository,
    drivers,
    // `vfs` is built below; a config only changes once a request arrives.
    onChanged: (id) => {
      void vfs.clearCache({ storageConfigId: id });
      // Its root or bucket may be another: counted again when next needed.
      void quota
        .forget(id)
        .catch((error: unknown) => logger.warn({ err: error }, 'could not forget a usage count'));
    },
  });
  // Share files and uploads reach their objects by config and key (vfs/objects.ts).
  const objects = new StoredObjects({ drivers, quota, report: storageChanged });
  // One repository for file rows, shared by the share routes and the uploads that create them.
  const filesRepository = new FilesRepository(db.kysely);
  const files = new FilesService(filesRepository, objects, clock, limiter, {
    secretKey: deps.secretKey,
    logger,
    settings,
    // `uploads` and `vfs` are built below; a delete only runs once a request arrives.
    abortUploads: (fileId) => uploads.abortSessionsOf(fileId),
    notify,
  });

  // One tree over every mount: the fs routes, WebDAV and the copy engine go through it.
  // WebDAV's locks bind every door's writes (vfs/locks.ts).
  const davRepository = new DavRepository(db.kysely, db.dialect);
  const fsMetaRepository = new FsMetaRepository(db.kysely);
  const vfs = new Vfs({
    mounts: mountsRepository,
    storageConfigs: drivers,
    clock,
    bus: cacheBus,
    locks: davRepository,
    quota,
    // Folder rules apply on every door (vfs/folder-rules.ts).
    folderRules: { source: fsMetaRepository, secretKey: deps.secretKey },
  });
  const fsMeta = new FsMetaService({ repo: fsMetaRepository, vfs, clock, limiter });
  cacheBus.subscribe({
    note: (note) => {
      if (note.kind === 'storage-config') drivers.drop(note.id);
      else if (note.kind === 'folder-rules') vfs.folderRules.forgetLocal();
      else applyNote(note);
    },
    lost: () => {
      vfs.folderRules.forgetLocal();
      applyNote(null);
    },
  });
  function applyNote(note: CacheNote | null): void {
    vfs.applyNote(note).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not forget what another instance changed');
    });
  }
  // File shares follow their files on every door (modules/files/share-upkeep.ts).
  vfs.changes.subscribe(shareUpkeep(filesRepository, clock));
  // Folder shares follow their folders too (modules/folder-shares/folder-shares.upkeep.ts).
  const folderSharesRepository = new FolderSharesRepository(db.kysely);
  vfs.changes.subscribe(folderShareUpkeep(folderSharesRepository, clock));
  // The quota counts what every door wrote and deleted.
  vfs.changes.subscribe(quota.follow);
  /** For share uploads and deletes: what follows storage must not fail the upload that changed it. */
  function storageChanged(change: StorageChange): Promise<void> {
    return vfs.report(change).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not follow a change to storage');
    });
  }
  const fsTasks = new FsTasksService({
    repo: new FsTasksRepository(db.kysely),
    vfs,
    clock,
    logger,
    bus: cacheBus,
  });
  const scheduledSync = new ScheduledSyncService({
    repo: new ScheduledSyncRepository(db.kysely),
    vfs,
    principalById: (id) => users.principalById(id),
    clock,
    logger,
    bus: cacheBus,
  });
  // A cancel asked through another instance (lib/stop-elsewhere.ts) stops the work where it runs.
  cacheBus.subscribe({
    note: (note) => {
      if (note.kind !== 'stop') return;
      fsTasks.stopHere(note.id);
      scheduledSync.stopHere(note.id);
    },
    lost: () => undefined,
  });
  const fs = new FsService({
    vfs,
    files: filesRepository,
    settings,
    clock,
    spoolDir: path.join(config.dataDir, 'tmp', 'fs-uploads'),
    objects,
    notify,
  });
  const zips = new FsZipService({
    vfs,
    clock,
    secretKey: deps.secretKey,
    subjects: {
      user: (id) => auth.userWithStamp(id),
      apiKey: (id) => apiKeys.resolveKeyById(id),
      guest: () => settings.guest(),
    },
    maxEntries: config.zip.maxEntries,
    linkSeconds: config.zip.linkSeconds,
  });
  const mounts = new MountsService({ repo: mountsRepository, storageConfigs, vfs, clock });
  /** The principal behind a `created_by` as it is now (a key looked up again), or null when gone. */
  const creatorNow = (createdBy: string): Promise<Principal | null> =>
    createdBy.startsWith('apikey:')
      ? apiKeys.resolveKeyById(createdBy.slice('apikey:'.length))
      : users.principalById(createdBy);
  /**
   * The maker of something that reads the mounts (a folder share, a bundle's mount file), as they
   * are now: null also once a key lost its mount permission — what they shared stops with them.
   */
  const mountCreatorNow = async (createdBy: string): Promise<Principal | null> => {
    const creator = await creatorNow(createdBy);
    return creator?.type === 'apikey' && !creator.permissions.mount ? null : creator;
  };
  const folderShares = new FolderSharesService({
    repo: folderSharesRepository,
    vfs,
    mounts: mountsRepository,
    creator: mountCreatorNow,
    clock,
    limiter,
    secretKey: deps.secretKey,
    settings,
  });
  const bundles = new BundlesService(new BundlesRepository(db.kysely), {
    settings,
    vfs,
    clock,
    limiter,
    secretKey: deps.secretKey,
    // A mount item is read with its creator's rights as they are now (docs/api.md "Bundles").
    creator: mountCreatorNow,
  });

  const uploads = new UploadsService({
    files: filesRepository,
    uploads: new UploadsRepository(db.kysely),
    storageConfigs,
    objects,
    settings,
    clock,
    logger,
    probe: settingsUrlProbe(settings),
    storageChanged,
    place: (principal, configId, folder) => vfs.shareUploadFolder(principal, configId, folder),
    notify,
  });

  // Links strangers upload into a folder, written with their creator's rights as they are now.
  const uploadRequests = new UploadRequestsService({
    repo: new UploadRequestsRepository(db.kysely),
    vfs,
    settings,
    clock,
    limiter,
    secretKey: deps.secretKey,
    // The service checks the permission the request's target needs (mount or file).
    principalOf: creatorNow,
    notify,
    bundles,
    shares: uploads,
  });

  // tus uploads (docs/api.md): into a mount path, a new share, a bundle or an upload request, through
  // the pipelines above.
  const shareTarget = new ShareTarget(uploads, bundles);
  const tus = new TusService({
    repo: new TusRepository(db.kysely),
    objects,
    settings,
    clock,
    logger,
    tailDir: path.join(config.dataDir, 'tmp', 'tus'),
    targets: [
      new MountPathTarget({ vfs, uploads: fs.uploads }),
      shareTarget,
      new BundleTarget({ shares: shareTarget, bundles }),
      new UploadRequestTarget({ requests: uploadRequests, uploads: fs.uploads, shares: shareTarget }),
    ],
  });

  // Link cards of share pages, one line per kind of share page (docs/api.md "Link cards").
  const cardsRepository = new CardsRepository(db.kysely, db.dialect);
  const cards = new LinkCards(clock);
  cards.register('paste', '/paste/:slug', pasteCards(cardsRepository, cards));
  cards.register('file', '/file/:slug', fileCards(cardsRepository, cards));
  cards.register('bundle', '/bundle/:slug', bundleCards(cardsRepository, cards));
  cards.register('folder', '/folder/:slug', folderCards(cardsRepository, cards));

  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use('*', requestContext(logger, config.trustProxyHops));
  app.use('*', (c, next) => {
    c.set('audit', audit);
    return next();
  });
  // Shutting down: a read that arrives now is refused with 503 (health says `draining` itself), so
  // a load balancer retries it on another instance and stops sending here before the listener
  // closes (deploy/cubby.nginx.conf counts a 503 as a failed attempt). Anything else is served.
  const draining = deps.draining ?? (() => false);
  app.use('*', (c, next) => {
    if (draining() && (c.req.method === 'GET' || c.req.method === 'HEAD') && c.req.path !== '/api/health') {
      throw shuttingDown();
    }
    return next();
  });
  app.use('/api/*', apiHeaders(config.corsOrigins));
  // No route takes NUL in its path or query, and PostgreSQL cannot even compare text holding it.
  app.use('/api/*', (c, next) => {
    if (NUL_ESCAPE.test(c.req.url)) throw badRequest('common.nul_in_url');
    return next();
  });
  app.use(
    '*',
    requestBodies({
      limits: config.body,
      // WebDAV bodies stream too: PUT into storage, XML bodies read up to their own small limit.
      streaming: (path) => STREAMING_BODY_ROUTES.test(path) || WEBDAV_PATH.test(path),
      maxBytes: (path) =>
        PASTE_BODY_ROUTES.test(path)
          ? { bytes: PASTE_BODY_LIMIT, label: '10 MiB' }
          : { bytes: JSON_BODY_LIMIT, label: '1 MiB' },
    }),
  );
  app.use(
    '/api/*',
    authenticate({
      resolveSession: (t, client) => auth.resolveSession(t, client),
      resolveKey: (k) => apiKeys.resolveKey(k),
      resolveGuest: () => settings.guest(),
    }),
  );

  app.route(
    LOCAL_PRESIGN_MOUNT,
    localLinkRoutes(
      new SignedLinks({
        localDriver: (id) => drivers.localDriver(id),
        driver: async (id) => ((await drivers.find(id)) ? drivers.driver(id) : undefined),
        secret: deps.secretKey,
        clock,
      }),
    ),
  );

  app.route(
    '/',
    webdavRoutes(
      { vfs, fs, tasks: fsTasks, settings, repo: davRepository, clock },
      new DavAuthenticator({ auth, twoFactor, users, apiKeys, appPasswords, clock, audit }),
    ),
  );

  const api = new Hono<AppEnv>();
  api.route('/', systemRoutes(db, clock, cacheBus, draining));
  api.route('/', dashboardRoutes(new DashboardService(new DashboardRepository(db.kysely), clock)));
  api.route('/', authRoutes(auth, users));
  api.route('/', usersRoutes(users, invites, { config }));
  api.route('/', oidcRoutes(oidc, { config }));
  api.route('/', ldapRoutes(ldap));
  api.route('/', appPasswordsRoutes(appPasswords));
  api.route('/', twoFactorRoutes(twoFactor, users));
  api.route('/', passkeysRoutes(passkeys, { auth, users, config }));
  api.route('/', auditRoutes(audit, config));
  api.route('/', apiKeysRoutes(apiKeys));
  // Before the share routes: its guard answers preview fetchers on their bytes routes.
  api.route('/', cardsRoutes(cards, { repo: cardsRepository, files, config }));
  api.route('/', pastesRoutes(pastes));
  api.route('/', filesRoutes(files, config));
  api.route('/', bundlesRoutes({ bundles, files, vfs, clock }, config));
  api.route('/', settingsRoutes(settings));
  api.route('/', notificationsRoutes(notifications, mailer));
  api.route('/', storageConfigsRoutes(storageConfigs, { config, selfFetch: async (r) => app.fetch(r) }));
  api.route('/', mountsRoutes(mounts));
  api.route(
    '/',
    fsRoutes(fs, vfs, { config, internalBaseUrl: storageConfigs.internalBaseUrl, files, folderShares }),
  );
  api.route('/', fsZipRoutes(zips, { config, clock }));
  api.route('/', folderSharesRoutes(folderShares, { vfs, zips, clock, config }));
  api.route('/', fsMetaRoutes(fsMeta));
  api.route('/', fsTasksRoutes(fsTasks, vfs));
  api.route('/', scheduledSyncRoutes(scheduledSync));
  api.route('/', urlUploadRoutes(settings));
  api.route('/', uploadRequestsRoutes(uploadRequests, { config }));
  api.route('/', tusRoutes(tus, { config }));
  api.route(
    '/',
    uploadsRoutes(uploads, {
      config,
      internalBaseUrl: storageConfigs.internalBaseUrl,
      resolveKey: (key) => apiKeys.resolveKey(key),
    }),
  );
  if (config.testHooks && clock instanceof AdjustableClock) {
    api.route(
      '/',
      testHookRoutes(clock, {
        freeOrphanedStreams: () => uploads.freeOrphanedStreams(),
        removeLeftoverTemps: () => uploads.removeLeftoverTemps(),
        removeLeftoverSpools: () => fs.uploads.removeLeftoverSpools(),
        purgeAbandonedUploads: () => uploads.purgeAbandonedUploads(),
        purgeExpiredTusUploads: () => tus.purgeExpired(),
      }),
    );
  }
  // Built from the routes above (and the presigned storage routes) when first asked for.
  api.route(
    '/',
    openApiRoutes(() => app.routes, APP_VERSION),
  );
  api.notFound(handleNotFound);
  app.route('/api', api);
  app.all('/api/*', handleNotFound);

  app.use(
    '*',
    serveSpa(deps.webDistDir ?? DEFAULT_WEB_DIST, {
      headFor: async (c) => {
        const origin = publicOrigin(c, config);
        const card = await cards.forPath(c.req.path, origin);
        return card && cardTags(card, origin);
      },
    }),
  );
  app.notFound(handleNotFound);

  return {
    app,
    services: {
      instanceId,
      cacheBus,
      audit,
      auth,
      users,
      invites,
      oidc,
      appPasswords,
      apiKeys,
      pastes,
      cards,
      notifications,
      settings,
      storageConfigs,
      drivers,
      objects,
      files,
      bundles,
      uploads,
      uploadRequests,
      tus,
      vfs,
      mounts,
      fs,
      fsTasks,
      scheduledSync,
      folderShares,
      fsMeta,
      davRepository,
      quota,
    },
  };
}
