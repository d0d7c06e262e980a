import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev -w console` serves the console with hot reload and sends /api to a running portal.
export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': process.env.PORTAL_URL ?? 'http://localhost:3000' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
});
