import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = join(__dirname, '..', '..')
const builtIndex = join(root, 'out', 'renderer', 'index.html')

/** Newest modification time under `dir` (source folders only; small trees). */
function newestIn(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs)
  }
  return newest
}

/**
 * `cairn serve` serves the built renderer (out/renderer). Build it once before the e2e files run:
 * when it is missing, or older than the renderer or shared sources (so the UI under test is the
 * one in the working tree, not a stale build).
 */
export default function setup(): void {
  const stale = !existsSync(builtIndex) || Math.max(newestIn(join(root, 'renderer')), newestIn(join(root, 'shared'))) > statSync(builtIndex).mtimeMs
  if (!stale) return
  execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' })
}
