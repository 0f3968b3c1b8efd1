import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakePackage, repo, tree, violations, type Violation } from './lint-tree'

describe('the layering lint', () => {
  let bad: string
  let good: string
  let badFound: Promise<Violation[]>

  beforeAll(() => {
    bad = tree({
      // A store reaching up into the learning loop that sits above it.
      'electron/core/memory/store.ts': `import { review } from '../learning/review'\nexport const store = () => review()\n`,
      'electron/core/learning/review.ts': `export const review = () => 1\n`,
      // Two sibling stores of one layer importing each other (a cycle, and a sibling import).
      'electron/core/skills/a.ts': `import { b } from '../sessions/b'\nexport const a = () => b()\n`,
      'electron/core/sessions/b.ts': `import { a } from '../skills/a'\nexport const b = (): number => a()\n`,
      // The Electron-free core loading Electron.
      'electron/core/agent/window.ts': `import { BrowserWindow } from 'electron'\nexport const w = BrowserWindow\n`,
      ...fakePackage('electron'),
      ...fakePackage('electron-store'),
      ...fakePackage('better-sqlite3'),
      // A package that loads Electron, from the core.
      'electron/core/config/settings.ts': `import Store from 'electron-store'\nexport const s = Store\n`,
      // The renderer loading Electron or a native Node package.
      'renderer/src/native.ts': `import Database from 'better-sqlite3'\nimport { ipcRenderer } from 'electron'\nexport const d = [Database, ipcRenderer]\n`,
      // A process shell reaching into the renderer's source.
      'electron/main/page.ts': `import { v } from '../../renderer/src/view'\nexport const p = v\n`,
      // A new core folder nobody gave a layer.
      'electron/core/util/helpers.ts': `import { review } from '../learning/review'\nexport const h = review\n`,
      // The renderer importing the core instead of speaking the contract.
      'renderer/src/view.ts': `import { review } from '../../electron/core/learning/review'\nexport const v = review\n`,
      // shared/ importing a side.
      'shared/types.ts': `import { store } from '../electron/core/memory/store'\nexport const s = store\n`
    })
    good = tree({
      'electron/core/learning/host/review.ts': `import { store } from '../../memory/store'\nexport const review = () => store()\n`,
      'electron/core/memory/store.ts': `import { cut } from '../text/cut'\nexport const store = () => cut()\n`,
      'electron/core/text/cut.ts': `export const cut = () => 1\n`,
      'electron/cli/main.ts': `import { review } from '../core/learning/host/review'\nexport const main = review\n`,
      'renderer/src/view.ts': `import { contract } from '../../shared/contract'\nexport const v = contract\n`,
      'shared/contract.ts': `export const contract = 1\n`
    })
  })

  beforeAll(() => {
    badFound = violations(bad)
  })

  afterAll(() => {
    for (const dir of [bad, good]) rmSync(dir, { recursive: true, force: true })
  })

  it('fails an upward import, a cycle, electron in the core, and the renderer or shared/ reaching into the core', async () => {
    const found = await badFound
    const has = (rule: string, from: string) => found.some((v) => v.rule === rule && v.from === from)
    expect(has('core-layer:memory', 'electron/core/memory/store.ts')).toBe(true)
    expect(has('core-layer:skills', 'electron/core/skills/a.ts')).toBe(true)
    expect(found.some((v) => v.rule === 'no-circular')).toBe(true)
    expect(has('core-is-electron-free', 'electron/core/agent/window.ts')).toBe(true)
    expect(has('renderer-speaks-the-contract', 'renderer/src/view.ts')).toBe(true)
    expect(has('shared-is-the-bottom', 'shared/types.ts')).toBe(true)
  })

  it('fails Electron-loading packages in the core, native packages in the renderer, shells reaching into the renderer, and unlayered core folders', async () => {
    const found = await badFound
    const has = (rule: string, from: string, to?: RegExp) => found.some((v) => v.rule === rule && v.from === from && (!to || to.test(v.to)))
    expect(has('core-is-electron-free', 'electron/core/config/settings.ts', /electron-store/)).toBe(true)
    expect(has('renderer-speaks-the-contract', 'renderer/src/native.ts', /better-sqlite3/)).toBe(true)
    expect(has('renderer-speaks-the-contract', 'renderer/src/native.ts', /node_modules\/electron\//)).toBe(true)
    expect(has('shells-are-separate', 'electron/main/page.ts')).toBe(true)
    expect(has('core-unit-has-a-layer', 'electron/core/util/helpers.ts')).toBe(true)
  })

  it('passes a tree that only imports downwards', async () => {
    expect(await violations(good)).toEqual([])
  })

  it('passes the real source tree', async () => {
    expect(await violations(repo)).toEqual([])
  })
})
