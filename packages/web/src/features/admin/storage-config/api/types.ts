/**
 * Storage configs as the API answers and takes them (docs/storage.md, "Adding an S3 bucket";
 * docs/compatibility.md §3; the shapes live in @cubby/shared). Booleans in answers are 0/1, as CloudPaste
 * sends them; a config never carries its secret, only a masked access key and whether a secret is stored.
 */
import type { StorageConfigView, StorageTestStep } from '@cubby/shared';

export type StorageConfig = StorageConfigView;

export interface TestStep extends Omit<StorageTestStep, 'name'> {
  /** One of `STORAGE_TEST_STEPS`, or a step a newer server reports. */
  name: string;
}

/** What POST /s3-configs/:id/test reports: overall success, the summary and each step. */
export interface StorageTestReport {
  success: boolean;
  message: string;
  steps: TestStep[];
}
