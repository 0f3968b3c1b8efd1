import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '..', '..')
const electronImport = /(?:from\s+['"]electron['"]|require\(\s*['"]electron['"]\s*\)|import\(\s*['"]electron['"]\s*\))/

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|mts|cts)$/.test(name) ? [path] : []
  })
}

describe('architecture', () => {
  it('recognises every way of importing electron', () => {
    expect(electronImport.test(`import { app } from 'electron'`)).toBe(true)
    expect(electronImport.test(`const e = require("electron")`)).toBe(true)
    expect(electronImport.test(`await import('electron')`)).toBe(true)
    expect(electronImport.test(`import x from 'electron-store'`)).toBe(false)
  })

  it.each(['electron/core', 'electron/cli', 'electron/serve', 'electron/worker', 'shared'])('%s never imports electron', (dir) => {
    const offenders = sourceFiles(join(root, dir))
      .filter((file) => electronImport.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file))
    expect(offenders).toEqual([])
  })
})
