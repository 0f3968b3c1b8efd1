import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tree, violations, type Violation } from './lint-tree'

const CORE = `export class CairnCore {}\n`
const NAMES_THE_CORE = `import type { CairnCore } from '../cairn'\nexport const use = (core: CairnCore) => core\n`

describe('the composition-roots lint', () => {
  let dir: string
  let found: Promise<Violation[]>

  beforeAll(() => {
    dir = tree({
      'electron/core/cairn.ts': CORE,
      // Modules above the stores that take the whole core instead of an interface of their own.
      'electron/core/import/importer.ts': NAMES_THE_CORE,
      'electron/core/app/handlers/memory.ts': `import type { CairnCore } from '../../cairn'\nexport const h = (core: CairnCore) => core\n`,
      'electron/core/mcp-server/tools.ts': NAMES_THE_CORE,
      // A handler reaching the whole core through the class that composes the app.
      'electron/core/app/handlers/skills.ts': `import type { CairnApp } from '../cairn-app'\nexport const h = (app: CairnApp) => app\n`,
      // The roots that compose one: the app, and `cairn doctor` (which opens its own).
      'electron/core/app/cairn-app.ts': `${NAMES_THE_CORE}export class CairnApp {}\n`,
      'electron/core/doctor/index.ts': NAMES_THE_CORE,
      // A shell outside the core.
      'electron/cli/main.ts': `import { CairnCore } from '../core/cairn'\nexport const c = CairnCore\n`,
      // The lint reads these folders too.
      'shared/contract.ts': `export const contract = 1\n`,
      'renderer/src/view.ts': `import { contract } from '../../shared/contract'\nexport const v = contract\n`
    })
    found = violations(dir)
  })

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('fails a core module that names the whole data home, or the app that holds it', async () => {
    const flagged = (await found).filter((v) => v.rule === 'core-composed-at-the-roots').map((v) => v.from)
    expect(flagged.sort()).toEqual([
      'electron/core/app/handlers/memory.ts',
      'electron/core/app/handlers/skills.ts',
      'electron/core/import/importer.ts',
      'electron/core/mcp-server/tools.ts'
    ])
  })

  it('lets the composition roots and the shells name it', async () => {
    const flagged = (await found).filter((v) => v.rule === 'core-composed-at-the-roots').map((v) => v.from)
    for (const root of ['electron/core/app/cairn-app.ts', 'electron/core/doctor/index.ts', 'electron/cli/main.ts']) expect(flagged).not.toContain(root)
  })
})
