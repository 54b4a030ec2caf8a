/** Public surface of the API client. */
export { ApiError, isApiError } from './api-error.ts';
export { errorMessage } from './error-message.ts';
export {
  api,
  apiRequest,
  fetchWithCredential,
  requestHeaders,
  sendRequest,
  registerAuthBridge,
  type AuthBridge,
  type Credential,
  type RequestOptions,
} from './client.ts';
export {
  API_BASE_STORAGE_KEY,
  getApiBaseUrl,
  getBackendOverride,
  getServerBaseUrl,
  normalizeBackendUrl,
  setBackendOverride,
} from './base-url.ts';
export { rememberPathToken } from './path-tokens.ts';
