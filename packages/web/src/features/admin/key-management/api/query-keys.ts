/** Query keys of the API key feature: one factory, so invalidation cannot miss a variant. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};
