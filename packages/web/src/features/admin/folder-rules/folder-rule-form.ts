/**
 * The folder-rule dialog's values and their check (docs/architecture.md, "Folder rules"): hide
 * patterns are typed one per line; a stored password shows as the mask, and sending the mask keeps it.
 */
import {
  FS_META_MAX_PATTERN_LENGTH,
  FS_META_MAX_PATTERNS,
  FS_META_PASSWORD_MASK,
  type FsMetaBody,
  type FsMetaRule,
  normalizeFsPath,
} from '@cubby/shared';

export interface FolderRuleValues {
  path: string;
  header: string;
  headerInherit: boolean;
  footer: string;
  footerInherit: boolean;
  patterns: string;
  hideInherit: boolean;
  password: string;
  passwordInherit: boolean;
}

export type FolderRuleField = 'path' | 'header' | 'footer' | 'patterns' | 'password';
export type FolderRuleErrorKey =
  | 'admin.folderRules.errors.pathInvalid'
  | 'admin.folderRules.errors.patternSlash'
  | 'admin.folderRules.errors.patternTooLong'
  | 'admin.folderRules.errors.tooManyPatterns';

/** The server's field names (400 details) as the form's fields. */
export const SERVER_FIELD: Record<string, FolderRuleField> = {
  path: 'path',
  header_markdown: 'header',
  footer_markdown: 'footer',
  hide_patterns: 'patterns',
  password: 'password',
};

export const EMPTY_FOLDER_RULE: FolderRuleValues = {
  path: '/',
  header: '',
  headerInherit: false,
  footer: '',
  footerInherit: false,
  patterns: '',
  hideInherit: false,
  password: '',
  passwordInherit: true,
};

export function valuesOf(rule: FsMetaRule): FolderRuleValues {
  return {
    path: rule.path,
    header: rule.header_markdown ?? '',
    headerInherit: rule.header_inherit,
    footer: rule.footer_markdown ?? '',
    footerInherit: rule.footer_inherit,
    patterns: rule.hide_patterns.join('\n'),
    hideInherit: rule.hide_inherit,
    password: rule.has_password ? FS_META_PASSWORD_MASK : '',
    passwordInherit: rule.password_inherit,
  };
}

/** The patterns typed, one per line, blank lines dropped. */
export const patternLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

export function validateFolderRule(
  values: FolderRuleValues,
):
  | { ok: true; input: FsMetaBody }
  | { ok: false; errors: Partial<Record<FolderRuleField, FolderRuleErrorKey>> } {
  const errors: Partial<Record<FolderRuleField, FolderRuleErrorKey>> = {};
  const path = normalizeFsPath(values.path.trim());
  if (path === null) errors.path = 'admin.folderRules.errors.pathInvalid';
  const patterns = patternLines(values.patterns);
  if (patterns.length > FS_META_MAX_PATTERNS) errors.patterns = 'admin.folderRules.errors.tooManyPatterns';
  else if (patterns.some((p) => p.includes('/'))) errors.patterns = 'admin.folderRules.errors.patternSlash';
  else if (patterns.some((p) => p.length > FS_META_MAX_PATTERN_LENGTH))
    errors.patterns = 'admin.folderRules.errors.patternTooLong';
  if (path === null || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      path,
      header_markdown: values.header.trim() === '' ? null : values.header,
      header_inherit: values.headerInherit,
      footer_markdown: values.footer.trim() === '' ? null : values.footer,
      footer_inherit: values.footerInherit,
      hide_patterns: patterns,
      hide_inherit: values.hideInherit,
      // The mask keeps the stored password; an empty field removes it.
      password: values.password,
      password_inherit: values.passwordInherit,
    },
  };
}
