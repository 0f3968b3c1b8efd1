import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchCommand } from '../../electron/cli/commands/search'
import type { CliContext } from '../../electron/cli/commands/types'
import { CairnCore } from '../../electron/core/cairn'
import { BACKLOG, writeSchema13 } from '../core/db/schema-13-history'

let home: string
let core: CairnCore
let out: string
let err: string

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-reindex-words-'))
  writeSchema13(join(home, 'state.db'))
  core = await CairnCore.open({ home })
  out = ''
  err = ''
})

afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

function ctx(): CliContext {
  return { io: { out: (t) => void (out += t), err: (t) => void (err += t), isTTY: false }, env: {}, processEnv: {}, home, core: async () => core }
}

describe('cairn search --reindex-words', () => {
  it('searches an older history before its words are indexed, indexes them with progress, and then finds the word', async () => {
    expect(await searchCommand.run(ctx(), ['服务器'])).toBe(0)
    expect(out).toContain('session deploy')
    out = ''
    expect(await searchCommand.run(ctx(), ['🎉'])).toBe(0)
    expect(out).toBe('No past conversation matches "🎉".\n')

    out = ''
    expect(await searchCommand.run(ctx(), ['--reindex-words'])).toBe(0)
    expect(err).toContain(`${BACKLOG} of ${BACKLOG} messages\n`)
    expect(out).toBe(`Done: ${BACKLOG} older messages indexed by word (${BACKLOG - 1} held Chinese, Japanese or other words to add).\n`)

    out = ''
    expect(await searchCommand.run(ctx(), ['🎉'])).toBe(0)
    expect(out).toContain('session party')
    out = ''
    expect(await searchCommand.run(ctx(), ['--reindex-words'])).toBe(0)
    expect(out).toBe('Every message is already indexed by word.\n')
  })
})
