import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ImportActivity } from '../../../shared/ipc/contract-import'
import type { RecordedChatRequest, ScriptedReply } from '../../scripted-provider'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { isReviewRequest, reviewUserText } from '../../helpers/review-fixture'
import { claudeCodeHome, openClawWorkspace } from '../import/agent-homes'
import { hermesHome } from '../import/hermes-home'

const CHATGPT_EXPORT = join(__dirname, '..', '..', 'fixtures', 'chatgpt-export', 'conversations.json')

let fx: AppFixture | undefined
const dirs: string[] = []
afterEach(async () => {
  await fx?.close()
  fx = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** The scripted review: one fact per imported conversation (keyed on words only its transcript holds), then done. */
function reviewer(request: RecordedChatRequest): ScriptedReply | undefined {
  if (!isReviewRequest(request)) return undefined
  if (request.body.messages.at(-1)?.role === 'tool') return { text: 'Saved.' }
  const fact = reviewUserText(request).includes('levain') ? 'User keeps a sourdough starter' : 'User watches the birds at their feeder'
  return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: fact } }] }
}

function hermes(): string {
  const home = hermesHome()
  dirs.push(home)
  return home
}

async function importedActivity(app: AppFixture): Promise<ImportActivity> {
  return app.waitFor('import.changed', (activity) => activity.running === null && activity.last !== null, 30_000)
}

describe('the import routes (Settings → Data)', () => {
  it("lists the sources with each agent's usual folder, and whether it is on this machine", async () => {
    const home = hermes()
    const workspace = openClawWorkspace()
    dirs.push(join(workspace, '..', '..'))
    const missingClaude = join(workspace, 'no-such-claude')
    fx = await appFixture({ env: { HERMES_HOME: home, OPENCLAW_WORKSPACE_DIR: workspace, CLAUDE_CONFIG_DIR: missingClaude } })
    const { sources } = await fx.ok('import.sources')
    expect(sources).toEqual([
      { id: 'hermes', pick: 'folder', defaultPath: home, found: true },
      { id: 'openclaw', pick: 'folder', defaultPath: workspace, found: true },
      { id: 'claude-code', pick: 'folder', defaultPath: missingClaude, found: false },
      { id: 'chatgpt', pick: 'file', defaultPath: null, found: false },
      { id: 'claude', pick: 'file', defaultPath: null, found: false }
    ])
  })

  it("imports Claude Code's folder through the routes: its memories wait in the Inbox, nothing is written to memory", async () => {
    const claude = claudeCodeHome()
    dirs.push(join(claude, '..'))
    fx = await appFixture()
    await fx.ok('import.run', { source: 'claude-code', path: claude })
    const done = await importedActivity(fx)
    expect(done.last).toMatchObject({ source: 'claude-code', error: null })
    const { counts } = done.last!.report!
    expect(counts.memory.added).toBe(0)
    expect(counts.memory.proposed).toBeGreaterThan(0)
    expect(existsSync(join(fx.home, 'memories', 'MEMORY.md'))).toBe(false)
    expect((await fx.ok('import.list')).batches[0]).toMatchObject({ source: 'claude-code', counts })
  })

  it('refuses a relative, a NUL-carrying or an empty path, and a folder that is not a Hermes home, with a coded error', async () => {
    fx = await appFixture()
    const relative = await fx.call('import.preview', { source: 'hermes', path: 'hermes-home' })
    expect(relative).toMatchObject({ ok: false, error: { code: 'IMPORT_PATH_RELATIVE', params: { path: 'hermes-home' } } })
    expect(await fx.call('import.preview', { source: 'hermes', path: '/tmp/a\0b' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await fx.call('import.preview', { source: 'hermes', path: '  ' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    const notHermes = await fx.call('import.preview', { source: 'hermes', path: fx.userHome })
    expect(notHermes).toMatchObject({ ok: false, error: { code: 'IMPORT_SOURCE' } })
    expect(await fx.call('import.pick', { source: 'chatgpt' })).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } })
  })

  it('previews a Hermes home without changing anything, then imports it in the background as one batch that undoes whole', async () => {
    const home = hermes()
    fx = await appFixture()
    const preview = await fx.ok('import.preview', { source: 'hermes', path: home })
    expect(preview).toMatchObject({ dryRun: true, importId: null, source: 'hermes' })
    expect(preview.counts.memory.added).toBeGreaterThan(0)
    expect(preview.counts.skills.created).toBeGreaterThan(0)
    // Hermes's usage figures (skills/.usage.json) reach Settings through the contract.
    expect(preview.counts.skills.usage).toBe(2)
    expect(preview.counts.sessions.added).toBe(3)
    expect(preview.problems.some((problem) => problem.file.includes('half-written'))).toBe(true)
    expect(existsSync(join(fx.home, 'memories', 'MEMORY.md'))).toBe(false)
    expect((await fx.ok('import.list')).batches).toEqual([])

    const started = await fx.ok('import.run', { source: 'hermes', path: home })
    expect(started.running).toMatchObject({ source: 'hermes', path: home })
    expect(await fx.call('import.run', { source: 'hermes', path: home })).toMatchObject({ ok: false, error: { code: 'BUSY' } })
    const done = await importedActivity(fx)
    expect(done.last).toMatchObject({ error: null, report: { dryRun: false, importId: expect.any(Number), counts: preview.counts } })
    const importId = done.last!.report!.importId!
    expect(readFileSync(join(fx.home, 'memories', 'MEMORY.md'), 'utf8').length).toBeGreaterThan(0)
    expect(done.unreviewed).toBe(3)
    expect(fx.events.some((event) => event.name === 'sessions.changed')).toBe(true)
    // The timeline groups the batch's writes under import:<id>.
    const timeline = await fx.ok('timeline.list', {})
    expect(timeline.entries.some((entry) => entry.reviewId === `import:${importId}` && entry.source === 'import')).toBe(true)

    const [batch] = (await fx.ok('import.list')).batches
    expect(batch).toMatchObject({ id: importId, source: 'hermes', revertedAt: null, conversations: 3, unreviewed: 3, counts: preview.counts })

    const undone = await fx.ok('import.undo', { id: importId })
    expect(undone).toMatchObject({ importId, complete: true, sessionsRemoved: 3, conflicts: [] })
    expect(undone.reverted).toBeGreaterThan(0)
    expect((await fx.ok('import.list')).batches[0]).toMatchObject({ id: importId, revertedAt: expect.any(Number), conversations: 0 })
    expect(await fx.call('import.undo', { id: importId })).toMatchObject({ ok: false, error: { code: 'IMPORT_ALREADY_UNDONE' } })
    expect(await fx.call('import.undo', { id: 999 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('a failing import ends with its reason in the activity, and the next one may start', async () => {
    fx = await appFixture()
    await fx.ok('import.run', { source: 'chatgpt', path: join(fx.userHome, 'missing-export.zip') })
    const failed = await importedActivity(fx)
    expect(failed.last).toMatchObject({ source: 'chatgpt', report: null, error: expect.stringContaining('missing-export.zip') })
    expect((await fx.ok('import.run', { source: 'chatgpt', path: CHATGPT_EXPORT })).running).not.toBeNull()
  })

  it('learns from imported conversations only when asked, refuses with learning off, and never reviews one twice', async () => {
    fx = await appFixture({ server: { respond: reviewer } })
    await fx.ok('import.run', { source: 'chatgpt', path: CHATGPT_EXPORT })
    const imported = await importedActivity(fx)
    const importId = imported.last!.report!.importId!
    expect(imported).toMatchObject({ unreviewed: 2, learningOn: true })
    // Importing reviewed nothing.
    expect(fx.server.chatRequests().filter(isReviewRequest)).toEqual([])

    await fx.ok('learning.setMode', { mode: 'off' })
    expect(await fx.call('import.learn', {})).toMatchObject({ ok: false, error: { code: 'LEARNING_OFF' } })
    expect((await fx.ok('import.status')).learningOn).toBe(false)
    await fx.ok('learning.setMode', { mode: 'auto' })
    expect(await fx.call('import.learn', { importId: 999 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })

    const started = await fx.ok('import.learn', { importId })
    expect(started.learning).toMatchObject({ running: true, importId, total: 2 })
    expect(await fx.call('import.undo', { id: importId })).toMatchObject({ ok: false, error: { code: 'BUSY' } })
    const learned = await fx.waitFor('import.changed', (activity) => !activity.learning.running && activity.learning.finishedAt !== null, 60_000)
    expect(learned.learning).toMatchObject({ done: 2, total: 2, changes: 2, failed: 0, stopped: null })
    expect(learned.unreviewed).toBe(0)
    const memory = await fx.ok('memory.get')
    expect(memory.user.entries).toEqual(expect.arrayContaining(['User keeps a sourdough starter', 'User watches the birds at their feeder']))

    const again = await fx.ok('import.learn', {})
    expect(again.learning).toMatchObject({ total: 0 })
    expect((await fx.ok('import.list')).batches[0]).toMatchObject({ id: importId, unreviewed: 0 })
  })
})
