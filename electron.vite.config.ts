import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

// The package stays CommonJS so the sandboxed preload can be a CJS bundle (toolchain.md §2).
export default defineConfig({
  // Main: every pure-JS package (a devDependency) is bundled in; only `dependencies` stay external and
  // ship in node_modules (better-sqlite3, sqlite-vec, pdfjs-dist: native or loading files beside them).
  // The review worker is a standalone chunk via `?modulePath` (electron/main/review/utility-spawner.ts),
  // never a second input, so it cannot end up requiring the main entry (toolchain.md §2).
  main: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/main/index.ts') },
        external: ['better-sqlite3'],
        onwarn(warning, warn) {
          // gray-matter's JavaScript front-matter engine uses eval; Cairn never selects it (skill-file.ts).
          if (warning.code === 'EVAL' && /node_modules[\\/]gray-matter[\\/]/.test(warning.id ?? '')) return
          warn(warning)
        }
      }
    }
  },
  // Preload: one CJS file that only requires 'electron' (sandboxed preloads cannot load ESM or other modules).
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      // KaTeX's fonts stay files of the app: one inlined as a data: URL would be refused by the pages' CSP (font-src 'self').
      assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
      rollupOptions: {
        input: { index: resolve(__dirname, 'renderer/index.html'), quick: resolve(__dirname, 'renderer/quick.html') }
      }
    }
  }
})
