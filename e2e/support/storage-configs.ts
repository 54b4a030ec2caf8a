/** Storage configs through the API for browser tests: the list, and making one the default. */
import { expect, type APIRequestContext } from '@playwright/test';
import { BASE_URL } from './env.ts';

export interface StorageConfigRecord {
  id: string;
  name: string;
  provider_type: string;
  is_default: number;
  is_public: number;
  root_path?: string | null;
  access_key_id_masked?: string | null;
  has_secret?: boolean;
}

export async function listStorageConfigs(
  request: APIRequestContext,
  token: string,
): Promise<StorageConfigRecord[]> {
  const response = await request.get(`${BASE_URL}/api/s3-configs`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: StorageConfigRecord[] }).data;
}

/** Makes a config the default through the API (tests put the first-start default back). */
export async function setDefaultStorage(
  request: APIRequestContext,
  token: string,
  id: string,
): Promise<void> {
  const response = await request.put(`${BASE_URL}/api/s3-configs/${id}/set-default`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
}
