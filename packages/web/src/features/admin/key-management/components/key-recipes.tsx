/**
 * Ready-to-use recipes for a key just created (issue 10 item 11), shown under the key itself: curl
 * commands for what the key may do — form and raw upload with `file`, a text share with `text` —
 * each with a copy button, ShareX custom uploaders (.sxcu) to download, and with `mount` the WebDAV
 * address of its base path and an rclone remote for it. The key and this
 * server's address are filled in (recipes.ts quotes them); like the key, they exist only while the
 * dialog is open.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/button.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { DownloadIcon } from '../../../../components/icons.tsx';
import { getServerBaseUrl } from '../../../../lib/api/index.ts';
import { downloadText } from '../../../../lib/download.ts';
import {
  curlPaste,
  curlUpload,
  curlUploadDirect,
  type RecipeTarget,
  rcloneWebdav,
  sharexFileUploader,
  sharexTextUploader,
  sxcuFilename,
  sxcuText,
  webdavUrl,
} from '../recipes.ts';

/** What a new key may do, and where (its base path): which recipes it gets. */
export interface KeyGrants {
  text: boolean;
  file: boolean;
  mount: boolean;
  basePath: string;
}

export const hasRecipes = (grants: KeyGrants) => grants.text || grants.file || grants.mount;

export function KeyRecipes({ secret, grants }: { secret: string; grants: KeyGrants }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { text, file, mount } = grants;
  if (!hasRecipes(grants)) return null;
  const target: RecipeTarget = { origin: getServerBaseUrl(), key: secret };
  const sxcu = (kind: 'files' | 'text') => () =>
    downloadText(
      sxcuFilename(target.origin, kind),
      sxcuText(kind === 'files' ? sharexFileUploader(target) : sharexTextUploader(target)),
      'application/json;charset=utf-8',
    );

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 border-t border-border pt-3"
      data-testid="key-recipes"
    >
      <div>
        <h3 id={headingId} className="text-sm font-semibold text-fg">
          {t('keys.recipes.title')}
        </h3>
        <p className="mt-1 text-xs text-fg-muted">{t('keys.recipes.description')}</p>
      </div>
      {file && (
        <>
          <Recipe id="curl-upload" title={t('keys.recipes.curlUpload')} code={curlUpload(target)} />
          <Recipe
            id="curl-upload-direct"
            title={t('keys.recipes.curlUploadDirect')}
            code={curlUploadDirect(target)}
          />
        </>
      )}
      {text && (
        <Recipe
          id="curl-paste"
          title={t('keys.recipes.curlPaste')}
          code={curlPaste(target, t('keys.recipes.sampleText'))}
        />
      )}
      {mount && (
        <>
          <Recipe
            id="webdav-url"
            title={t('keys.recipes.webdav')}
            code={webdavUrl(target, grants.basePath)}
          />
          <p className="text-xs text-fg-muted">{t('keys.recipes.webdavHint')}</p>
          <Recipe id="rclone" title={t('keys.recipes.rclone')} code={rcloneWebdav(target, grants.basePath)} />
        </>
      )}
      {(text || file) && (
        <div className="space-y-2">
          <h4 className="text-xs font-medium text-fg">{t('keys.recipes.sharex')}</h4>
          <div className="flex flex-wrap gap-2">
            {file && (
              <Button variant="secondary" size="sm" onClick={sxcu('files')} data-testid="download-sxcu-files">
                <DownloadIcon className="size-4" />
                {t('keys.recipes.sharexFiles')}
              </Button>
            )}
            {text && (
              <Button variant="secondary" size="sm" onClick={sxcu('text')} data-testid="download-sxcu-text">
                <DownloadIcon className="size-4" />
                {t('keys.recipes.sharexText')}
              </Button>
            )}
          </div>
          <p className="text-xs text-fg-muted">{t('keys.recipes.sharexHint')}</p>
        </div>
      )}
    </section>
  );
}

/** One recipe: its title, a copy button and the code (also the app passwords of My account). */
export function Recipe({ id, title, code }: { id: string; title: string; code: string }) {
  const { t } = useTranslation();
  const codeId = useId();
  return (
    <div className="space-y-1.5" data-testid={`recipe-${id}`}>
      <div className="flex items-center justify-between gap-2">
        <h4 id={`${codeId}-title`} className="text-xs font-medium text-fg">
          {title}
        </h4>
        <CopyButton
          text={code}
          label={t('keys.recipes.copyNamed', { name: title })}
          testId={`copy-recipe-${id}`}
        >
          {t('keys.recipes.copy')}
        </CopyButton>
      </div>
      <pre
        aria-labelledby={`${codeId}-title`}
        className="overflow-x-auto rounded-md border border-border bg-surface-sunken px-2.5 py-2 font-mono text-[11px] whitespace-pre-wrap break-all text-fg sm:px-3 sm:text-xs"
        data-user-content=""
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}
