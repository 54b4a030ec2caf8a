/**
 * Build and dev-server configuration of the web app. The build goes to `dist/` (hashed files under
 * `dist/assets/`), which the Node server serves with an SPA fallback. In development `/api` is
 * proxied to a server on port 8787.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // @cubby/shared is plain declarations; saying so lets a chunk that only needs the path
        // rules leave its zod schemas (and zod) out of the bundle.
        moduleSideEffects: (id) => (/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(id) ? false : undefined),
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8787', changeOrigin: false },
    },
  },
});
