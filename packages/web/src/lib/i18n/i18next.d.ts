/** Types translation keys from the Chinese locale, so `t('no.such.key')` fails to compile. */
import 'i18next';
import type zhCN from '../../locales/zh-CN.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
  }
}
