/**
 * Where files come in: drag and drop them onto the zone, or pick them (several at once). Also says
 * the largest size the server accepts, before anything is uploaded.
 */
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { Button } from '../../../components/button.tsx';
import { UploadIcon } from '../../../components/icons.tsx';

export interface DropZoneProps {
  disabled: boolean;
  maxBytes: number | null;
  onFiles(files: File[]): void;
}

export function DropZone({ disabled, maxBytes, onFiles }: DropZoneProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`flex flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors ${
        over ? 'border-accent bg-accent-soft' : 'border-border-strong/50 bg-surface-sunken'
      }`}
    >
      {/* Disabled, only the picture fades: the texts keep their contrast (WCAG AA). */}
      <span
        className={`inline-flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text ${disabled ? 'opacity-60' : ''}`}
      >
        <UploadIcon className="size-6" />
      </span>
      <div className="space-y-1">
        <p className="text-sm font-medium text-fg">{t('upload.drop.title')}</p>
        <p className="text-xs text-fg-muted" data-testid="max-upload-size">
          {maxBytes === null
            ? t('upload.drop.hint')
            : t('upload.drop.hintWithLimit', { size: formatBytes(maxBytes) })}
        </p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        disabled={disabled}
        onClick={() => input.current?.click()}
        data-testid="choose-files"
      >
        {t('upload.drop.choose')}
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        className="hidden"
        data-testid="file-input"
        disabled={disabled}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}
