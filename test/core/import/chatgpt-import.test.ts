import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { importChatExport, ImportBatches, ImportSourceError, undoImport } from '../../../electron/core/import'
import { searchSessions } from '../../../electron/core/sessions/session-search'
import { tempDir } from './hermes-home'
import { writeZip } from './zip-file'

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'chatgpt-export', 'conversations.json')
const SOURDOUGH = '6a1f0c2e-0d1b-4c55-9d3e-1a2b3c4d5e6f'
const BIRD = '7b2e1d3f-1e2c-4d66-8e4f-2b3c4d5e6f70'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function openCore(): Promise<{ core: CairnCore; dir: string }> {
  const dir = tempDir('cairn-chatgpt-import-')
  dirs.push(dir)
  const core = await CairnCore.open({ home: join(dir, 'home') })
  cores.push(core)
  return { core, dir }
}

function sessionBySearch(core: CairnCore, query: string) {
  const hit = searchSessions(core.db, query).sessions[0]
  expect(hit, `a session found for "${query}"`).toBeDefined()
  return { session: core.sessions.get(hit.sessionId)!, messages: core.sessions.messages(hit.sessionId) }
}

describe('cairn import chatgpt: a ChatGPT data export becomes searchable conversations', () => {
  it('flattens each tree along the branch last shown, with times, titles and the model of each answer', async () => {
    const { core } = await openCore()
    const report = await importChatExport(core, { app: 'chatgpt', path: FIXTURE })
    expect(report.problems).toEqual([])
    expect(report.counts.sessions).toEqual({ added: 2, existing: 0, messages: 8 })

    const { session, messages } = sessionBySearch(core, 'levain nail polish')
    expect(session).toMatchObject({ title: 'Reviving a sourdough starter', source: 'import:chatgpt', model: null, startedAt: 1717243200125 })
    // The conversation keeps no model (going on with it answers with the user's); each answer names the one that wrote it.
    // The regenerated answer replaced the first one, and the edited question replaced its first wording.
    expect(messages.map((m) => [m.role, m.content, m.meta?.model ?? null])).toEqual([
      ['user', 'My levain smells like nail polish after a week in the fridge. Is it dead?', null],
      ['assistant', 'Not dead: the acetone smell means it is hungry. Discard most of it and feed it twice a day at room temperature.', 'gpt-4o'],
      ['user', 'How much rye flour should each feeding use, by weight?', null],
      ['assistant', 'Feed 1:5:5 by weight: 10 g starter, 50 g rye flour, 50 g water.', 'gpt-4o-mini']
    ])
    expect(messages.map((m) => m.createdAt)).toEqual([1717243210000, 1717243260000, 1717243400000, 1717243410000])
    // Words only the abandoned answer and question held are not findable.
    expect(searchSessions(core.db, 'probably ratio').sessions).toEqual([])

    // An image part is named; the code run and its output (tool traffic) are left out.
    const bird = sessionBySearch(core, 'kingfisher feeder')
    expect(bird.messages.map((m) => m.content)).toEqual([
      '[image]\nWhat bird is this? Bright blue back, orange chest.',
      'That is a common kingfisher: the blue back and orange chest give it away.',
      'Would it eat from a feeder?',
      'Rarely: kingfishers eat fish, so a pond visit is more likely than the feeder.'
    ])
    expect(bird.messages.some((m) => m.role === 'tool' || m.content?.includes('PIL'))).toBe(false)
  })

  it('adds nothing the second time, says what a dry run would do without writing, and undoes a batch whole', async () => {
    const { core } = await openCore()
    const dry = await importChatExport(core, { app: 'chatgpt', path: FIXTURE, dryRun: true })
    expect(dry).toMatchObject({ importId: null, dryRun: true, counts: { sessions: { added: 2, existing: 0, messages: 8 } } })
    expect(core.sessions.list({ limit: 100 })).toEqual([])
    expect(new ImportBatches(core.db).list()).toEqual([])

    const first = await importChatExport(core, { app: 'chatgpt', path: FIXTURE })
    const second = await importChatExport(core, { app: 'chatgpt', path: FIXTURE })
    expect(second.counts.sessions).toEqual({ added: 0, existing: 2, messages: 0 })
    expect(core.sessions.list({ limit: 100 })).toHaveLength(2)
    // Nothing new: no empty batch is kept.
    expect(second).toMatchObject({ importId: null, nothingNew: true })
    expect(new ImportBatches(core.db).list().map((batch) => [batch.id, batch.source, batch.counts.sessions.added])).toEqual([[first.importId, 'chatgpt', 2]])

    const undone = await undoImport(core, first.importId!)
    expect(undone).toMatchObject({ ok: true, sessionsRemoved: 2, complete: true })
    expect(core.sessions.list({ limit: 100 })).toEqual([])
    expect(searchSessions(core.db, 'kingfisher').sessions).toEqual([])
  })

  it('reads the export zip in place', async () => {
    const { core, dir } = await openCore()
    const zip = join(dir, 'chatgpt-export.zip')
    writeZip(zip, { 'user.json': '{"email":"someone@example.com"}', 'chat.html': '<html></html>', 'conversations.json': readFileSync(FIXTURE) })
    const report = await importChatExport(core, { app: 'chatgpt', path: zip })
    expect(report.problems).toEqual([])
    expect(report.counts.sessions.added).toBe(2)
    expect(sessionBySearch(core, 'kingfisher').session.title).toBe('Bird on the feeder')
  })

  it('refuses a zip with an entry that climbs out of it, or a damaged one, in one sentence and writing nothing', async () => {
    const { core, dir } = await openCore()
    for (const [name, path] of [['climbs.zip', '../evil.txt'], ['absolute.zip', '/etc/evil.txt']]) {
      const zip = join(dir, name)
      writeZip(zip, { [path]: 'x', 'conversations.json': readFileSync(FIXTURE) })
      const error = await importChatExport(core, { app: 'chatgpt', path: zip }).then(() => null, (caught: unknown) => caught)
      expect(error).toBeInstanceOf(ImportSourceError)
      expect((error as Error).message).toBe(`${name} has an entry whose path points outside the archive (${JSON.stringify(path)}), so Cairn does not read it. Nothing was imported; unpack the export yourself and import its folder if you trust it.`)
    }
    const damaged = join(dir, 'damaged.zip')
    writeFileSync(damaged, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64)]))
    await expect(importChatExport(core, { app: 'chatgpt', path: damaged })).rejects.toThrow(/^damaged\.zip could not be read as a zip \(.+\)\. Nothing was imported\.$/)
    expect(core.sessions.list({ limit: 10 })).toEqual([])
    expect(new ImportBatches(core.db).list()).toEqual([])
  })

  it('skips a malformed conversation by position and id, and keeps what came before invalid JSON', async () => {
    const { core, dir } = await openCore()
    const [sourdough, bird] = JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown[]
    const mixed = join(dir, 'conversations.json')
    writeFileSync(mixed, JSON.stringify([sourdough, { id: 'broken-1', title: 'No tree', mapping: 'oops' }, 'not a conversation', bird]))
    const report = await importChatExport(core, { app: 'chatgpt', path: mixed })
    expect(report.counts.sessions.added).toBe(2)
    expect(report.problems).toEqual([
      { file: 'conversations.json', message: 'conversation 2 (broken-1) has no message tree (mapping); it was skipped.' },
      { file: 'conversations.json', message: 'conversation 3 is not a conversation object; it was skipped.' }
    ])

    const { core: other } = await openCore()
    const cut = join(dir, 'cut.json')
    const whole = JSON.stringify([bird, sourdough])
    writeFileSync(cut, `${whole.slice(0, whole.indexOf(SOURDOUGH) + 10)}}}]`)
    const partial = await importChatExport(other, { app: 'chatgpt', path: cut })
    expect(partial.counts.sessions.added).toBe(1)
    expect(partial.problems).toHaveLength(1)
    expect(partial.problems[0].file).toBe('cut.json')
    expect(partial.problems[0].message).toMatch(/^is not valid JSON \(.+\) at about byte \d+; the 1 conversation before that point came in, nothing after it\.$/)
    expect(other.db.prepare('SELECT external_id FROM sessions').all()).toEqual([{ external_id: BIRD }])
  })
})
