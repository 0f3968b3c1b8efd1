import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

export const repo = join(__dirname, '..', '..')
const depcruise = join(repo, 'node_modules', '.bin', 'depcruise')
const config = join(repo, '.dependency-cruiser.cjs')
const run = promisify(execFile)

export interface Violation {
  rule: string
  from: string
  to: string
}

/** Runs the lint's dependency rules over a small tree of files and returns what they flag. */
export async function violations(cwd: string): Promise<Violation[]> {
  const result = await run(depcruise, ['electron', 'shared', 'renderer', '--config', config, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
  const report = JSON.parse(result.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } }
  return report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }))
}

export function fakePackage(name: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, main: 'index.js' }),
    [`node_modules/${name}/index.js`]: 'module.exports = {}\n'
  }
}

/** Writes `files` (path → text) into a fresh temporary folder with a tsconfig the lint reads; returns the folder. */
export function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cairn-layers-'))
  const all = { 'tsconfig.node.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler' } }), ...files }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}
