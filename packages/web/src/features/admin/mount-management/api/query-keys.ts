/** Query keys of mounts: one factory, so invalidation cannot miss a variant. */
export const mountKeys = {
  all: ['mounts'] as const,
  list: () => [...mountKeys.all, 'list'] as const,
};
