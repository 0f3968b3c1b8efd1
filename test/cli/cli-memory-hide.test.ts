import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { runCairn } from '../helpers/run-cli'

let home: string

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-hide-'))
  await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [] } })
  const core = await CairnCore.open({ home })
  try {
    await core.memory.add('user', 'User lives in Bergen', { write: { source: 'user' } })
    await core.memory.add('user', 'User is going through a divorce', { write: { source: 'agent', sessionId: 'chat-1' } })
  } finally {
    await core.close()
  }
})

const cairn = (...args: string[]) => runCairn(['--home', home, ...args])

describe('cairn memory hide / show', () => {
  it('hides an entry by its number, marks it in the list and its history, and shows it again by a part of it', { timeout: 120_000 }, async () => {
    const hidden = await cairn('memory', 'hide', 'user', '2')
    expect(hidden.code).toBe(0)
    expect(hidden.stdout).toMatch(/Hidden \(kept in the file, not brought up from the next conversation on\) in USER\.md: User is going through a divorce/)

    const listed = await cairn('memory')
    expect(listed.stdout).toMatch(/2\. User is going through a divorce {2}\(hidden: not brought up, agent \d{4}-/)
    expect(listed.stdout).toMatch(/1\. User lives in Bergen {2}\(user /)
    const json = JSON.parse((await cairn('memory', '--json')).stdout)
    expect(json.user.info[1]).toMatchObject({ text: 'User is going through a divorce', hidden: true })
    expect(json.user.entries).toHaveLength(2)

    const history = await cairn('memory', 'history', 'user', '--entry', 'User is going through a divorce')
    expect(history.stdout).toMatch(/hidden \(not brought up\): User is going through a divorce/)

    expect((await cairn('memory', 'show', 'user', 'divorce')).stdout).toMatch(/Shown again \(from the next conversation on\) in USER\.md/)
    expect((await cairn('memory', 'history', 'user', '--entry', 'User is going through a divorce')).stdout).toMatch(/shown again: .*\n.*hidden \(not brought up\)/)
  })

  it('says clearly when the entry or the number is not there', { timeout: 60_000 }, async () => {
    const missing = await cairn('memory', 'hide', 'user', 'yarn')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/No user entry contains "yarn"/)
    const number = await cairn('memory', 'hide', 'user', '7')
    expect(number.code).not.toBe(0)
    expect(number.stderr).toMatch(/USER\.md has 2 entries; there is no number 7/)
  })
})
