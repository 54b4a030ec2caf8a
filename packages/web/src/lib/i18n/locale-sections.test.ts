/** The split of the locale files into the core part and the sections lazy screens load. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zhCN from '../../locales/zh-CN.json' with { type: 'json' };
import enUS from '../../locales/en-US.json' with { type: 'json' };
import { flattenLocale, type LocaleTree } from '../../locales/locale-check.ts';
import { CORE_PATHS, partOf, pickPart, SECTIONS, type LocalePart } from './locale-sections.ts';

const PARTS: LocalePart[] = ['core', ...(Object.keys(SECTIONS) as (keyof typeof SECTIONS)[])];

for (const [name, locale] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`${name}: every text is in exactly one part, and the parts together are the whole file`, () => {
    const whole = flattenLocale(locale);
    const seen = new Map<string, LocalePart>();
    for (const part of PARTS) {
      for (const [key, text] of flattenLocale(pickPart(locale, part))) {
        assert.equal(seen.get(key), undefined, `${key} is in ${seen.get(key)} and ${part}`);
        assert.equal(text, whole.get(key), `${key} keeps its text in ${part}`);
        seen.set(key, part);
      }
    }
    assert.deepEqual([...seen.keys()].sort(), [...whole.keys()].sort());
  });
}

test('every section and core path names texts that exist', () => {
  const keys = [...flattenLocale(zhCN).keys()];
  for (const path of [...Object.values(SECTIONS).flat(), ...CORE_PATHS]) {
    assert.ok(
      keys.some((key) => key === path || key.startsWith(`${path}.`)),
      `${path} names no text in zh-CN.json`,
    );
  }
});

test('the layout and paste view texts are core; a screen’s own texts are in its section', () => {
  assert.equal(partOf('nav.home'), 'core');
  assert.equal(partOf('pasteView.actions.copy'), 'core');
  assert.equal(partOf('errors.network'), 'core');
  assert.equal(partOf('auth.noPermissions'), 'core');
  // Deeper core paths win over the section of their parent.
  assert.equal(partOf('pastes.format.markdown'), 'core');
  assert.equal(partOf('pastes.fields.slug'), 'pastes');
  assert.equal(partOf('settings.account.updated'), 'core');
  assert.equal(partOf('settings.account.title'), 'admin');
  assert.equal(partOf('auth.login.title'), 'admin');
  assert.equal(partOf('home.heading'), 'home');
  // A path is a whole segment: `homeLink` is not under `home`.
  assert.equal(partOf('nav.homeLink'), 'core');
  assert.equal(partOf('homepage.title'), 'core');
  // Texts no section names load up front.
  assert.equal(partOf('brandNew.group'), 'core');
});

test('a part keeps the nesting and leaves out branches it has nothing of', () => {
  const tree: LocaleTree = {
    nav: { home: '首页' },
    pastes: { format: { text: '纯文本' }, fields: { slug: '后缀' } },
  };
  assert.deepEqual(pickPart(tree, 'core'), { nav: { home: '首页' }, pastes: { format: { text: '纯文本' } } });
  assert.deepEqual(pickPart(tree, 'pastes'), { pastes: { fields: { slug: '后缀' } } });
  assert.deepEqual(pickPart(tree, 'admin'), {});
});
