import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          environment: 'node',
          include: ['test/core/**/*.test.ts', 'test/shared/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/main/**/*.test.ts', 'test/serve/**/*.test.ts', 'test/worker/**/*.test.ts', 'test/scripted-provider/**/*.test.ts', 'test/architecture/**/*.test.ts', 'test/scripts/**/*.test.ts', 'test/eval/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000
        }
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['test/renderer/setup.ts']
        }
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          // Real Chromium against a real `cairn serve`: one file at a time (2 cores), generous timeouts.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 90_000,
          globalSetup: ['test/e2e/global-setup.ts']
        }
      }
    ]
  }
})
