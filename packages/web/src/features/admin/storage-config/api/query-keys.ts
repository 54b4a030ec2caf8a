/** Query keys of storage configs: one factory, so invalidation cannot miss a variant. */
export const storageConfigKeys = {
  all: ['storage-configs'] as const,
  list: () => [...storageConfigKeys.all, 'list'] as const,
};
