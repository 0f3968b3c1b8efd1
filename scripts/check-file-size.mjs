// Part of `npm run lint`: a source file past MAX_LINES is asking to be split by concept.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

export const MAX_LINES = 400
const ROOTS = ['electron', 'shared', 'renderer', 'scripts', 'test']
// Everything written by hand: code, stylesheets and pages (not lockfiles, JSON data or prose).
const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs|js|css|html)$/

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path)
    return SOURCE.test(name) ? [path] : []
  })
}

/** Files under `root`'s source folders longer than MAX_LINES, with their line counts. */
export function oversizeFiles(root) {
  return ROOTS.flatMap((dir) => {
    try {
      return sourceFiles(join(root, dir))
    } catch {
      return [] // a folder that does not exist has no long files
    }
  })
    .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter((entry) => entry.lines > MAX_LINES)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? process.cwd()
  const long = oversizeFiles(root)
  for (const { file, lines } of long) console.error(`${file}: ${lines} lines (at most ${MAX_LINES}); split it by concept`)
  if (long.length) process.exit(1)
  console.log(`✔ no source file over ${MAX_LINES} lines`)
}
