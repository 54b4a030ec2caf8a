/**
 * What Home shows after a share was created: the link with copy and open, the raw-text link, a QR
 * code of the link, "copy as" Markdown / HTML / plain text, and a way to write another.
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PasteFormat } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { pastePageUrl, rawPasteUrl, type CreatedPaste } from '../../pastes/index.ts';
import { contentAs, type CopyFormat } from '../copy-formats.ts';

export interface ShareResultProps {
  created: CreatedPaste;
  content: string;
  format: PasteFormat;
  onNew(): void;
}

export function ShareResult({ created, content, format, onNew }: ShareResultProps) {
  const { t } = useTranslation();
  const link = pastePageUrl(created.slug);
  const raw = rawPasteUrl(created.slug);
  const copyAs: { target: CopyFormat; label: string }[] = [
    { target: 'markdown', label: t('home.result.copyMarkdown') },
    { target: 'html', label: t('home.result.copyHtml') },
    { target: 'text', label: t('home.result.copyText') },
  ];
  const facts = [
    created.hasPassword && t('home.result.protected'),
    created.expiresAt
      ? t('home.result.expires', { date: formatDateTime(created.expiresAt) })
      : t('home.result.neverExpires'),
    created.maxViews > 0
      ? t('home.result.maxViews', { count: created.maxViews })
      : t('home.result.unlimitedViews'),
  ].filter((fact): fact is string => Boolean(fact));

  return (
    <Card
      title={t('home.result.title')}
      description={
        <span className="flex flex-wrap gap-x-3 gap-y-1">
          {facts.map((fact) => (
            <span key={fact}>{fact}</span>
          ))}
        </span>
      }
      actions={
        <Button variant="secondary" onClick={onNew} data-testid="new-paste">
          <PlusIcon className="size-4" />
          {t('home.result.new')}
        </Button>
      }
    >
      <div data-testid="share-result" className="grid gap-6 md:grid-cols-[minmax(0,1fr)_auto]">
        <div className="min-w-0 space-y-5">
          <div className="space-y-1.5">
            <label htmlFor="share-link" className="block text-sm font-medium">
              {t('home.result.link')}
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id="share-link"
                readOnly
                value={link}
                onFocus={(event) => event.currentTarget.select()}
                data-testid="share-link"
                className="block w-full min-w-0 rounded-md border border-border-strong/70 bg-surface-sunken px-3 py-2 font-mono text-sm"
              />
              <div className="flex gap-2">
                <CopyButton text={link} size="md" testId="copy-link">
                  {t('home.result.copyLink')}
                </CopyButton>
                <Link to={paths.paste.getHref(created.slug)} className={buttonClasses('primary')}>
                  {t('home.result.open')}
                </Link>
              </div>
            </div>
          </div>
          <div className="space-y-1.5">
            <p className="text-sm font-medium">{t('home.result.raw')}</p>
            <div className="flex flex-wrap items-center gap-2">
              <a
                href={raw}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="raw-link"
                className="min-w-0 font-mono text-sm break-all text-accent-text underline underline-offset-2"
              >
                {raw}
              </a>
              <CopyButton text={raw} label={t('home.result.copyRaw')}>
                {t('common.copy')}
              </CopyButton>
            </div>
            {created.hasPassword && (
              <p className="text-xs text-fg-muted">{t('home.result.rawPasswordHint')}</p>
            )}
          </div>
          <div className="space-y-1.5">
            <p className="text-sm font-medium">{t('home.result.copyAs')}</p>
            <div className="flex flex-wrap gap-2" data-testid="copy-as">
              {copyAs.map(({ target, label }) => (
                <CopyButton
                  key={target}
                  text={() => contentAs(target, content, format)}
                  testId={`copy-as-${target}`}
                >
                  {label}
                </CopyButton>
              ))}
            </div>
          </div>
          {created.maxViews > 0 && (
            <Alert tone="info">{t('home.result.viewLimitNotice', { count: created.maxViews })}</Alert>
          )}
        </div>
        <figure className="flex flex-col items-center gap-2">
          <QrCode value={link} />
          <figcaption className="text-xs text-fg-muted">{t('home.result.qrCaption')}</figcaption>
        </figure>
      </div>
    </Card>
  );
}
