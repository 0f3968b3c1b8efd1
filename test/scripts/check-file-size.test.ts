import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'

const script = join(__dirname, '..', '..', 'scripts', 'check-file-size.mjs')
const run = promisify(execFile)
const roots: string[] = []

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function lines(count: number): string {
  return Array.from({ length: count }, (_, i) => `/* line ${i + 1} */`).join('\n')
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cairn-size-'))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

/** Runs the lint's size check over a tree and returns its exit code and what it printed. */
async function check(root: string): Promise<{ code: number; stderr: string }> {
  return run(process.execPath, [script, root]).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr })
  )
}

describe('the file size lint', () => {
  it('flags code, stylesheets and pages over 400 lines', async () => {
    const root = tree({
      'electron/core/long.ts': lines(401),
      'renderer/src/styles/long.css': lines(401),
      'renderer/long.html': lines(401),
      'renderer/src/short.css': lines(400)
    })
    const { code, stderr } = await check(root)
    expect(code).toBe(1)
    expect(stderr).toContain('electron/core/long.ts: 401 lines')
    expect(stderr).toContain('renderer/src/styles/long.css: 401 lines')
    expect(stderr).toContain('renderer/long.html: 401 lines')
    expect(stderr).not.toContain('short.css')
  })

  it('leaves data, prose, lockfiles and installed packages alone', async () => {
    const root = tree({
      'test/fixtures/data.json': lines(500),
      'renderer/README.md': lines(500),
      'scripts/package-lock.json': lines(500),
      'renderer/node_modules/pkg/index.css': lines(500),
      'renderer/src/ok.css': lines(10)
    })
    expect(await check(root)).toEqual({ code: 0, stderr: '' })
  })
})
