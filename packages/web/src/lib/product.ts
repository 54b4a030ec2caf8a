/** Fixed facts about the product shown in the interface (the name is not translated). */
export const PRODUCT_NAME = 'Cubby';
/** Third-party link in the header (docs/product.md §1): opens in a new tab without an opener or referrer. */
export const SOURCE_REPOSITORY_URL = 'https://github.com/cubby-app/cubby';
