import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { importChatExport, undoImport } from '../../../electron/core/import'
import { searchSessions } from '../../../electron/core/sessions/session-search'
import { tempDir } from './hermes-home'
import { writeZip } from './zip-file'

const EXPORT = join(__dirname, '..', '..', 'fixtures', 'claude-export')

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function openCore(): Promise<{ core: CairnCore; dir: string }> {
  const dir = tempDir('cairn-claude-import-')
  dirs.push(dir)
  const core = await CairnCore.open({ home: join(dir, 'home') })
  cores.push(core)
  return { core, dir }
}

describe('cairn import claude: a Claude.ai export becomes searchable conversations', () => {
  it('reads both message shapes (content blocks and plain text), names attached files, and is idempotent and undoable', async () => {
    const { core } = await openCore()
    const report = await importChatExport(core, { app: 'claude', path: EXPORT })
    expect(report.problems).toEqual([])
    expect(report.counts.sessions).toEqual({ added: 2, existing: 0, messages: 4 })

    const greenhouse = searchSessions(core.db, 'greenhouse vent opener').sessions[0]
    const session = core.sessions.get(greenhouse.sessionId)!
    expect(session).toMatchObject({ title: 'Tuning the greenhouse vent', source: 'import:claude', model: null, startedAt: Date.parse('2025-03-02T08:15:00Z') })
    const messages = core.sessions.messages(session.id)
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'At what temperature should the greenhouse vent opener start? Tomatoes and basil.\n[file: vent-log.csv]\n[file: greenhouse.jpg]'],
      ['assistant', 'Set the wax opener to begin at 24 C and be fully open by 29 C; your log shows 31 C at noon, so add shade cloth too.']
    ])
    expect(messages[1].createdAt).toBe(Date.parse('2025-03-02T08:15:20Z'))
    // Its thinking block is not part of what was said.
    expect(searchSessions(core.db, 'user grows tomatoes basil like').sessions.flatMap((hit) => core.sessions.messages(hit.sessionId)).some((m) => m.content?.includes('21-27'))).toBe(false)

    // The older shape: words in `text`, an empty name (no title).
    const marmot = searchSessions(core.db, 'marmot asleep').sessions[0]
    expect(core.sessions.get(marmot.sessionId)!.title).toBeNull()
    expect(core.sessions.messages(marmot.sessionId).map((m) => m.content)).toEqual(["Translate 'the marmot is asleep' into German.", 'Das Murmeltier schläft.'])

    const again = await importChatExport(core, { app: 'claude', path: join(EXPORT, 'conversations.json') })
    expect(again.counts.sessions).toEqual({ added: 0, existing: 2, messages: 0 })
    expect(await undoImport(core, report.importId!)).toMatchObject({ ok: true, sessionsRemoved: 2, complete: true })
    expect(core.sessions.list({ limit: 10 })).toEqual([])
  })

  it('reads the zip Claude.ai sends, with conversations.json in a folder', async () => {
    const { core, dir } = await openCore()
    const zip = join(dir, 'data-2025-03-02.zip')
    writeZip(zip, { 'data/users.json': '[]', 'data/conversations.json': readFileSync(join(EXPORT, 'conversations.json')) })
    const report = await importChatExport(core, { app: 'claude', path: zip })
    expect(report.problems).toEqual([])
    expect(report.counts.sessions.added).toBe(2)
  })

  it('says clearly when the path holds no export', async () => {
    const { core, dir } = await openCore()
    await expect(importChatExport(core, { app: 'claude', path: dir })).rejects.toThrow(`${dir} has no conversations.json`)
    const zip = join(dir, 'other.zip')
    writeZip(zip, { 'notes.txt': 'hello' })
    await expect(importChatExport(core, { app: 'claude', path: zip })).rejects.toThrow('holds no conversations.json')
  })
})
