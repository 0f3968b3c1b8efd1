import { join } from 'node:path'

/**
 * Where the CLI's code runs from. From source this file is electron/cli/install-paths.ts; bundled
 * (scripts/build-cli.mjs) it is part of a module in out/cli. Both sit two folders below the checkout.
 */
const BUNDLED = /\.m?js$/.test(__filename)

/** The folder Cairn runs from: the checkout (or install folder), with out/renderer in it. */
export const CAIRN_ROOT = join(__dirname, '..', '..')

/**
 * The review worker to fork: the bundle's sibling out/cli/review-worker.mjs when the CLI runs bundled
 * (no TypeScript on disk to run), else undefined, i.e. forkReviewWorker's default (the source through tsx).
 */
export function reviewWorkerEntry(): string | undefined {
  return BUNDLED ? join(__dirname, 'review-worker.mjs') : undefined
}

/** The terminal markdown renderer (markdown-render.ts): bundled apart as out/cli/markdown-render.js, so only an answer loads it. */
export function markdownRendererEntry(): string {
  return join(__dirname, BUNDLED ? 'markdown-render.js' : 'markdown-render.ts')
}
