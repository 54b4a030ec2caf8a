/**
 * The notice on a screen the signed-in principal may not use (a visitor, or a key without the
 * permission): why, and a link to the admin page to sign in or switch account.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../config/paths.ts';
import { Alert } from './alert.tsx';

export function AccessNotice({
  signedIn,
  message,
  testId,
}: {
  signedIn: boolean;
  message: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert tone="warning" testId={testId}>
      <p>{message}</p>
      <Link to={paths.admin.getHref()} className="mt-1 inline-block font-medium underline underline-offset-2">
        {signedIn ? t('home.notice.switchAccount') : t('home.notice.signIn')}
      </Link>
    </Alert>
  );
}
