import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectKeyFor } from '../../../electron/core/memory/project-key'

describe('projectKeyFor', () => {
  const root = mkdtempSync(join(tmpdir(), 'cairn-project-key-'))

  it('names the folder and tells two folders of the same name apart', () => {
    mkdirSync(join(root, 'a', 'My App'), { recursive: true })
    mkdirSync(join(root, 'b', 'My App'), { recursive: true })
    const first = projectKeyFor(join(root, 'a', 'My App'))
    const second = projectKeyFor(join(root, 'b', 'My App'))
    expect(first).toMatch(/^my-app-[0-9a-f]{12}$/)
    expect(second).toMatch(/^my-app-[0-9a-f]{12}$/)
    expect(first).not.toBe(second)
  })

  it('finds the same key through a symlink and a trailing slash', () => {
    mkdirSync(join(root, 'real'), { recursive: true })
    symlinkSync(join(root, 'real'), join(root, 'link'))
    expect(projectKeyFor(join(root, 'link'))).toBe(projectKeyFor(join(root, 'real')))
    expect(projectKeyFor(join(root, 'real') + '/')).toBe(projectKeyFor(join(root, 'real')))
  })

  it('keys a folder named only in another script', () => {
    mkdirSync(join(root, '项目'), { recursive: true })
    expect(projectKeyFor(join(root, '项目'))).toMatch(/^workspace-[0-9a-f]{12}$/)
  })
})
