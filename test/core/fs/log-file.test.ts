import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LogFile, logLine } from '../../../electron/core/fs/log-file'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-log-'))
  dirs.push(dir)
  return dir
}

describe('a log file', () => {
  it('appends whole lines, making its folder, and rotates by size keeping the newest files', () => {
    const path = join(folder(), 'logs', 'main.log')
    const log = new LogFile(path, { maxBytes: 50, keep: 2 })
    for (let index = 1; index <= 12; index++) expect(log.append(`line ${String(index).padStart(2, '0')} of twelve, some words`)).toBe(true)
    // Each file holds what was written since the last rotation; nothing older than two rotations remains.
    expect(readFileSync(path, 'utf8')).toBe('line 11 of twelve, some words\nline 12 of twelve, some words\n')
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('line 09 of twelve, some words\nline 10 of twelve, some words\n')
    expect(readFileSync(`${path}.2`, 'utf8')).toBe('line 07 of twelve, some words\nline 08 of twelve, some words\n')
    expect(existsSync(`${path}.3`)).toBe(false)
  })

  it('never throws: a write that cannot land is dropped and reported by its answer', () => {
    const blocked = join(folder(), 'file')
    new LogFile(blocked).append('a file, not a folder')
    expect(new LogFile(join(blocked, 'main.log')).append('x')).toBe(false)
  })

  it('stamps each line with the time and level, and indents an error\'s stack under it', () => {
    const error = new Error('disk full')
    const line = logLine('error', 'could not save', error, new Date('2026-12-05T10:00:00Z'))
    expect(line.split('\n')[0]).toBe('2026-12-05T10:00:00.000Z ERROR could not save')
    expect(line.split('\n')[1]).toBe('  Error: disk full')
    expect(line.split('\n').slice(2).every((stackLine) => stackLine.startsWith('  '))).toBe(true)
  })
})
