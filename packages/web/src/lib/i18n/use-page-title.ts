/**
 * Sets `document.title` to the given (already translated) parts followed by the product name,
 * e.g. "Online clipboard - Cubby". Callers pass `t(...)` results, so the title follows language
 * changes.
 */
import { useEffect } from 'react';
import { PRODUCT_NAME } from '../product.ts';

export function usePageTitle(...parts: string[]): void {
  const title = [...parts, PRODUCT_NAME].join(' - ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
