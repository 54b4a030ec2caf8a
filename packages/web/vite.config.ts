/**
 * Build and dev-server configuration of the web app. The build goes to `dist/` (hashed files under
 * `dist/assets/`), which the Node server serves with an SPA fallback. In development `/api` is
 * proxied to a server on port 8787. The chunking keeps the JavaScript the paste view loads before
 * it shows content small (issue 4, `bench/paste-view-js.ts`): each locale is served in parts, the
 * first load is one file, and modules that only re-export are known to be free of side effects.
 */
import fs from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pickPart, SECTIONS, type LocalePart } from './src/lib/i18n/locale-sections.ts';

const LOCALE_PART = /[\\/]src[\\/]locales[\\/][\w-]+\.json\?section=(\w+)&locale-section$/;

/**
 * Serves `<locale>.json?section=<part>&locale-section` as that part of the locale file (see
 * `src/lib/i18n/locale-sections.ts`), so each part of each language is a chunk of its own.
 */
function localeSections(): Plugin {
  return {
    name: 'cubby:locale-sections',
    enforce: 'pre',
    load(id) {
      const part = LOCALE_PART.exec(id)?.[1];
      if (part === undefined) return null;
      if (part !== 'core' && !Object.hasOwn(SECTIONS, part)) this.error(`Unknown locale section in ${id}`);
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const texts = pickPart(JSON.parse(fs.readFileSync(file, 'utf8')), part as LocalePart);
      return { code: `export default ${JSON.stringify(texts)};`, moduleType: 'js' };
    },
  };
}

/** See the worker's build below: one output file, asked for with the option's current name. */
function workerAsOneFile(): Plugin {
  return {
    name: 'cubby:worker-as-one-file',
    config(config) {
      const output = config.build?.rollupOptions?.output;
      if (!output || Array.isArray(output) || !('inlineDynamicImports' in output)) return;
      delete output.inlineDynamicImports;
      Object.assign(output, { codeSplitting: false });
    },
  };
}

const SHARE_UI =
  /[\\/]src[\\/](?:components[\\/](?:alert|badge|copy-button|qr-code)\.tsx|lib[\\/](?:use-media-query|i18n[\\/]format-date)\.ts)$/;
const PURE_MODULES = /[\\/]packages[\\/]shared[\\/]src[\\/]|[\\/]src[\\/]features[\\/][\w-]+[\\/]index\.ts$/;

export default defineConfig({
  plugins: [
    localeSections(),
    react(),
    tailwindcss(),
    // The installable app (issue 14): the manifest and `dist/sw.js` from `src/sw.ts`, which gets the
    // list of the app shell's files to precache. The page registers the worker itself, after first
    // paint (`src/features/pwa`), so nothing is injected into index.html.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifestFilename: 'manifest.webmanifest',
      manifest: {
        name: 'Cubby',
        short_name: 'Cubby',
        description: 'Self-hosted online clipboard and file sharing',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#4f46e5',
        background_color: '#f6f6f7',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // The app shell only: the entry chunk, the runtime, shared UI, styles, the core texts of
        // each language, icons. Screens' chunks are kept by the worker when first loaded.
        globPatterns: [
          'index.html',
          'favicon.svg',
          'icons/apple-touch-icon-180.png',
          'assets/{index,rolldown-runtime,ui}-*.js',
          'assets/*-core-*.js',
          'assets/offline-{fallback,badge,db}-*.js',
          'assets/pwa-prompts-*.js',
          'assets/*-pwa-*.js',
          'assets/*.css',
        ],
        globIgnores: ['**/*.map'],
        // The plugin builds the worker as one file with Rollup's `inlineDynamicImports`, which this
        // Vite (Rolldown) names `codeSplitting: false` and warns about; the same request by its name.
        buildPlugins: { vite: [workerAsOneFile()] },
      },
      devOptions: { enabled: false },
    }),
  ],
  resolve: {
    // react-i18next imports useSyncExternalStore through a shim for React < 18; React 19 has it.
    alias: [{ find: /^use-sync-external-store\/shim$/, replacement: 'react' }],
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: false,
    // The largest chunks (the Markdown editor, the diagram renderer) load only when a screen needs
    // them, and the paste view's first load is measured by bench/paste-view-js.ts; the size note
    // would only ever name those.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically is one file (react, the router, i18next,
            // the layout…) rather than several that every page loads anyway.
            { name: 'app', tags: ['$initial'] },
            // The small pieces the share pages show (badges, copy and QR buttons, dates): one
            // request instead of six.
            { name: 'ui', test: SHARE_UI },
          ],
        },
        // zh-CN-core-<hash>.js rather than eight zh-CN-<hash>.js.
        chunkFileNames: (chunk) => {
          const part = chunk.facadeModuleId ? LOCALE_PART.exec(chunk.facadeModuleId)?.[1] : undefined;
          return part ? `assets/[name]-${part}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
      treeshake: {
        // @cubby/shared is plain declarations, and a feature's index.ts only re-exports; saying so
        // lets a chunk leave out what it does not use (zod, with the schemas; the login form, which
        // only the admin screen shows, from the first load).
        moduleSideEffects: (id) => (PURE_MODULES.test(id) ? false : undefined),
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8787', changeOrigin: false },
    },
  },
});
