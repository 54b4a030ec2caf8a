/**
 * The end of every settings form: the server's refusal, if any, and the save button (its spinner
 * while saving). One copy for each section of Admin → Settings.
 */
import { Alert } from '../../../../components/alert.tsx';
import { Button } from '../../../../components/button.tsx';
import { Spinner } from '../../../../components/spinner.tsx';

export function SettingsFormEnd({
  error,
  errorTestId,
  pending,
  label,
  testId,
}: {
  error: string | null | undefined;
  errorTestId: string;
  pending: boolean;
  label: string;
  testId?: string | undefined;
}) {
  return (
    <>
      {error && (
        <Alert tone="error" testId={errorTestId}>
          {error}
        </Alert>
      )}
      <Button type="submit" disabled={pending} data-testid={testId}>
        {pending && <Spinner className="size-4 text-accent-fg" />}
        {label}
      </Button>
    </>
  );
}
