/** Placeholder for a screen whose feature arrives in a later issue: a titled card with a notice. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from './card.tsx';

export function ComingSoon({
  title,
  description,
  children,
  as = 'h1',
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  as?: 'h1' | 'h2';
}) {
  const { t } = useTranslation();
  return (
    <Card title={title} as={as} description={description}>
      <div className="flex items-start gap-3 rounded-lg border border-dashed border-border-strong/60 bg-surface-sunken px-4 py-5">
        <span aria-hidden="true" className="mt-0.5 inline-block size-2.5 shrink-0 rounded-full bg-accent" />
        <div className="space-y-1 text-sm">
          <p className="font-medium text-fg">{t('common.comingSoon.title')}</p>
          <p className="text-fg-muted">{t('common.comingSoon.description')}</p>
        </div>
      </div>
      {children}
    </Card>
  );
}
