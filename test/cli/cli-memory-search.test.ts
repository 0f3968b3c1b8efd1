import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../electron/core/cairn'
import { runCairn } from '../helpers/run-cli'

let home: string

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-archive-'))
  writeFileSync(join(home, 'config.json'), JSON.stringify({ skills: { extraDirs: [] }, memory: { userCharLimit: 100 } }))
  const core = await CairnCore.open({ home })
  try {
    const agent = { write: { source: 'agent' as const } }
    await core.memory.add('user', 'Deploys the shop with flyctl on Fridays, after the weekly sync', agent)
    await core.memory.add('user', 'Keeps the deploy checklist in Notion, reviewed before each deploy', agent) // over 100 together: archived
    await core.memory.add('memory', 'Staging deploys need the VPN', agent)
    await core.memory.remove('memory', 'VPN', agent) // retired
    core.archive.add({ target: 'user', text: '每周五部署生产环境' })
  } finally {
    await core.close()
  }
})

const cairn = (...args: string[]) => runCairn(['--home', home, ...args])

describe('cairn memory search', () => {
  it('finds core and archive entries with ids and dates, in words and as JSON', async () => {
    const shown = await cairn('memory', 'search', 'deploy')
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/In memory:\n {2}USER\.md #1 {2}Deploys the shop with flyctl on Fridays, after the weekly sync\n/)
    expect(shown.stdout).toMatch(/In the archive:\n/)
    expect(shown.stdout).toMatch(/a\d+ {2}Keeps the deploy checklist in Notion.*\(user, memory was full, added \d{4}-\d\d-\d\d.*, never recalled\)/)
    expect(shown.stdout).toMatch(/Staging deploys need the VPN {2}\(memory, taken out of memory, added /)

    const json = JSON.parse((await cairn('memory', 'search', '部署', '--json')).stdout)
    expect(json.archive).toMatchObject([{ text: '每周五部署生产环境', source: 'added', target: 'user' }])
    expect(json.archiveSize).toBe(3)

    expect((await cairn('memory', 'search', 'kubernetes')).stdout).toMatch(/Nothing in memory or the archive matches "kubernetes"/)
    expect((await cairn('memory', 'search')).code).not.toBe(0)
  })

  it('cairn memory shows the archive’s size', async () => {
    expect((await cairn('memory')).stdout).toMatch(/Archive: 3 entries \(not in every conversation; find them with: cairn memory search <words>\)/)
    expect(JSON.parse((await cairn('memory', '--json')).stdout).archive).toEqual({ count: 3 })
  })
})
