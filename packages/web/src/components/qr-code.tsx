/**
 * A QR code of a URL, drawn in the browser (the `qrcode` package, loaded when first shown; no
 * network). Dark modules on white whatever the theme, so phones can read it.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner.tsx';

export function QrCode({
  value,
  size = 192,
  label,
}: {
  value: string;
  size?: number;
  /** What the code holds, for assistive tech (default: a generic "QR code"). */
  label?: string;
}) {
  const { t } = useTranslation();
  const [image, setImage] = useState<{ value: string; url: string } | null>(null);

  useEffect(() => {
    let active = true;
    void import('qrcode')
      .then((qr) => qr.toDataURL(value, { margin: 1, width: size * 2, errorCorrectionLevel: 'M' }))
      .then((url) => {
        if (active) setImage({ value, url });
      });
    return () => {
      active = false;
    };
  }, [value, size]);

  return (
    <div
      className="inline-flex items-center justify-center rounded-lg bg-white p-2 ring-1 ring-border"
      style={{ width: size + 16, height: size + 16 }}
    >
      {image?.value === value ? (
        <img
          src={image.url}
          width={size}
          height={size}
          alt={label ?? t('common.qrCodeAlt')}
          data-testid="qr-code"
          className="block"
        />
      ) : (
        <Spinner />
      )}
    </div>
  );
}
