import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ImportBatchInfo, ImportReportInfo, ImportSourceInfo } from '../../../shared/ipc/contract-import'
import { FakeFailure } from '../helpers/fake-transport'
import { translator } from '../../../shared/i18n'
import { config, importActivity, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const HERMES = '/home/me/.hermes'
const OPENCLAW = '/home/me/.openclaw/workspace'
const CLAUDE_CODE = '/home/me/.claude'
const sources: ImportSourceInfo[] = [
  { id: 'hermes', pick: 'folder', defaultPath: HERMES, found: true },
  { id: 'openclaw', pick: 'folder', defaultPath: OPENCLAW, found: false },
  { id: 'claude-code', pick: 'folder', defaultPath: CLAUDE_CODE, found: true },
  { id: 'chatgpt', pick: 'file', defaultPath: null, found: false }
]
const counts = {
  memory: { added: 4, duplicates: 2, archived: 2, proposed: 1, refused: 0 },
  skills: { created: 3, identical: 0, proposed: 0, files: 2, refused: 1, usage: 2 },
  sessions: { added: 3, existing: 0, messages: 17 }
}
const preview: ImportReportInfo = {
  importId: null,
  source: 'hermes',
  path: HERMES,
  dryRun: true,
  counts,
  problems: [{ file: 'skills/broken/half-written/SKILL.md', line: 3, message: 'the front matter is not valid YAML' }]
}
const batch: ImportBatchInfo = {
  id: 4,
  source: 'hermes',
  path: HERMES,
  startedAt: Date.now() - 60 * 60_000,
  finishedAt: Date.now() - 59 * 60_000,
  revertedAt: null,
  counts,
  problems: 1,
  conversations: 3,
  unreviewed: 3
}

async function openImport(handlers: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({ 'import.sources': { sources }, 'import.list': { batches: [batch] }, 'import.status': importActivity({ unreviewed: 3 }), ...handlers })
  act(() => harness.app.ui.getState().openSettings('data'))
  await settle()
  return { ...harness, part: screen.getByRole('region', { name: 'Import from other assistants' }) }
}

describe('Settings → Data → Import', () => {
  it('fills in the usual Hermes home, previews it with counts and problems by file and line, then imports with progress and a result', async () => {
    const { bridge, part, app } = await openImport({
      'import.preview': preview,
      'import.run': importActivity({ running: { source: 'hermes', path: HERMES, startedAt: Date.now(), phase: 'starting', done: 0, total: null } })
    })
    const location = within(part).getByLabelText('Location') as HTMLInputElement
    expect(location.value).toBe(HERMES)
    expect(within(part).getByText(/Found at \/home\/me\/\.hermes\./)).toBeTruthy()

    fireEvent.click(within(part).getByRole('button', { name: 'Preview' }))
    await settle()
    expect(bridge.callsTo('import.preview')).toEqual([{ source: 'hermes', path: HERMES }])
    expect(within(part).getByText('Memory entries: 4 added, 1 waiting in the Inbox (over the limit), 2 duplicates left out, 0 refused.')).toBeTruthy()
    expect(within(part).getByText('Memory entries kept in the archive (no room in the memory file): 2.')).toBeTruthy()
    expect(
      within(part).getByText('Skills: 3 new (2 supporting files, 2 with their usage figures), 0 waiting in the Inbox (a different skill of that name exists, or it adds a download, an address or a credentials path), 0 already here, 1 refused.')
    ).toBeTruthy()
    expect(within(part).getByText('Conversations: 3 (17 messages), 0 imported before.')).toBeTruthy()
    expect(within(part).getByText('skills/broken/half-written/SKILL.md:3')).toBeTruthy()

    fireEvent.click(within(part).getByRole('button', { name: 'Import' }))
    await settle()
    expect(bridge.callsTo('import.run')).toEqual([{ source: 'hermes', path: HERMES }])
    act(() => bridge.emit('import.changed', importActivity({ running: { source: 'hermes', path: HERMES, startedAt: Date.now(), phase: 'sessions', done: 1, total: 3 } })))
    expect(within(part).getByText(/Conversations: 1 of 3/)).toBeTruthy()
    expect((within(part).getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true)

    const report = { ...preview, dryRun: false, importId: 5 }
    act(() => bridge.emit('import.changed', importActivity({ last: { source: 'hermes', path: HERMES, finishedAt: Date.now(), report, error: null }, unreviewed: 3 })))
    await settle()
    expect(within(part).getByText('Import #5 brought in:')).toBeTruthy()
    fireEvent.click(within(part).getByRole('button', { name: 'Open the timeline' }))
    expect(app.ui.getState().view).toBe('timeline')
  })

  it('offers OpenClaw and Claude Code at their usual folders, and words what each brings in', async () => {
    const claudeCodeCounts = {
      memory: { added: 0, duplicates: 1, proposed: 2, refused: 0 },
      skills: { created: 1, identical: 0, proposed: 0, files: 0, refused: 0, usage: 0 },
      sessions: { added: 0, existing: 0, messages: 0 }
    }
    const notesBatch: ImportBatchInfo = { ...batch, id: 6, source: 'openclaw', path: OPENCLAW, counts: { ...counts, sessions: { added: 2, existing: 0, messages: 2 } }, conversations: 2, unreviewed: 0 }
    const candidatesBatch: ImportBatchInfo = { ...batch, id: 7, source: 'claude-code', path: CLAUDE_CODE, counts: claudeCodeCounts, problems: 0, conversations: 0, unreviewed: 0 }
    const { bridge, part } = await openImport({
      'import.list': { batches: [candidatesBatch, notesBatch] },
      'import.preview': ({ source }: { source: string }) =>
        source === 'openclaw'
          ? { ...preview, source: 'openclaw', path: OPENCLAW, counts: { ...counts, sessions: { added: 2, existing: 1, messages: 2 } }, problems: [] }
          : { ...preview, source: 'claude-code', path: CLAUDE_CODE, counts: claudeCodeCounts, problems: [] }
    })
    const select = within(part).getByLabelText('Import from')
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Hermes (its home folder)',
      'OpenClaw (its workspace)',
      'Claude Code (~/.claude)',
      'ChatGPT (data export)'
    ])

    fireEvent.change(select, { target: { value: 'openclaw' } })
    expect((within(part).getByLabelText('Location') as HTMLInputElement).value).toBe(OPENCLAW)
    expect(within(part).getByText(/Nothing at the usual place \(\/home\/me\/\.openclaw\/workspace\)\./)).toBeTruthy()
    fireEvent.click(within(part).getByRole('button', { name: 'Preview' }))
    await settle()
    expect(within(part).getByText('Daily notes: 2 added as searchable conversations, 1 imported before.')).toBeTruthy()
    expect(within(part).queryByText(/^Conversations:/)).toBeNull()

    fireEvent.change(select, { target: { value: 'claude-code' } })
    expect((within(part).getByLabelText('Location') as HTMLInputElement).value).toBe(CLAUDE_CODE)
    fireEvent.click(within(part).getByRole('button', { name: 'Preview' }))
    await settle()
    expect(bridge.callsTo('import.preview')).toEqual([
      { source: 'openclaw', path: OPENCLAW },
      { source: 'claude-code', path: CLAUDE_CODE }
    ])
    expect(within(part).getByText('Memory entries: 2 waiting in the Inbox for you to approve, 1 already known, 0 refused.')).toBeTruthy()
    expect(within(part).queryByText(/^(Conversations|Daily notes):/)).toBeNull()

    expect(within(part).getByText('2 memory entries proposed, 1 skill')).toBeTruthy()
    expect(within(part).getByText(/^4 memory entries, 3 skills, 2 daily notes/)).toBeTruthy()
  })

  it('words a refused location instead of showing its code, and the picker fills the path in', async () => {
    const { part } = await openImport({
      'import.preview': () => {
        throw new FakeFailure('IMPORT_PATH_RELATIVE', 'Give the full path', { path: 'hermes' })
      },
      'import.pick': { path: '/Users/me/Downloads/chatgpt-export.zip' }
    })
    fireEvent.change(within(part).getByLabelText('Location'), { target: { value: 'hermes' } })
    fireEvent.click(within(part).getByRole('button', { name: 'Preview' }))
    await settle()
    expect(within(part).getByRole('alert').textContent).toContain('Give the full path (starting with / or ~, or a drive letter), not “hermes”.')
    expect(within(part).getByRole('alert').textContent).not.toContain('IMPORT_PATH_RELATIVE')

    fireEvent.change(within(part).getByLabelText('Import from'), { target: { value: 'chatgpt' } })
    expect((within(part).getByLabelText('Location') as HTMLInputElement).value).toBe('')
    fireEvent.click(within(part).getByRole('button', { name: 'Choose…' }))
    await settle()
    expect((within(part).getByLabelText('Location') as HTMLInputElement).value).toBe('/Users/me/Downloads/chatgpt-export.zip')
  })

  it('undoes a past import after confirming', async () => {
    const { bridge, part } = await openImport({
      'import.undo': { importId: 4, reverted: 9, conflicts: [], sessionsRemoved: 3, sessionsKept: 0, proposalsWithdrawn: 1, complete: true }
    })
    expect(within(part).getByText(/Import #4 · Hermes/)).toBeTruthy()
    fireEvent.click(within(part).getByRole('button', { name: 'Undo import #4' }))
    const dialog = screen.getByRole('dialog', { name: 'Undo import #4?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(bridge.callsTo('import.undo')).toEqual([])

    fireEvent.click(within(part).getByRole('button', { name: 'Undo import #4' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Undo the import' }))
    await settle()
    expect(bridge.callsTo('import.undo')).toEqual([{ id: 4 }])
    expect(within(part).getByText(/Import #4 undone: 9 changes reverted, 3 conversations deleted, 1 proposal withdrawn\./)).toBeTruthy()
  })

  it('learns from imported conversations with progress and Cancel, and says why it cannot while learning is off', async () => {
    const running = importActivity({
      unreviewed: 3,
      learning: { ...importActivity().learning, running: true, total: 3, done: 1, changes: 2, current: { sessionId: 's1', title: 'Fixing the flaky invoice test' }, startedAt: Date.now() }
    })
    const { bridge, part } = await openImport({ 'import.learn': running, 'import.learnCancel': { ...running, learning: { ...running.learning, cancelRequested: true } } })
    fireEvent.click(within(part).getByRole('button', { name: 'Learn from 3 conversations' }))
    await settle()
    expect(bridge.callsTo('import.learn')).toEqual([{}])
    expect(within(part).getByText('Reviewed 1 of 3: 2 changes made, 0 proposed, 0 failed.')).toBeTruthy()
    expect(within(part).getByText('Reviewing “Fixing the flaky invoice test”')).toBeTruthy()
    fireEvent.click(within(part).getByRole('button', { name: 'Cancel' }))
    await settle()
    expect(bridge.callsTo('import.learnCancel')).toHaveLength(1)
    expect(within(part).getByText('Stopping after this conversation…')).toBeTruthy()

    act(() => bridge.emit('import.changed', importActivity({ unreviewed: 3, learningOn: false })))
    const start = within(part).getByRole('button', { name: 'Learn from 3 conversations' }) as HTMLButtonElement
    expect(start.disabled).toBe(true)
    expect(within(part).getByText('Learning is off, so Cairn cannot learn from imported conversations. Turn it on in Settings → Learning.')).toBeTruthy()
  })

  it('words a background import that failed by its key in the window language (zh-CN), and an older peer’s English as it came', async () => {
    const zh = translator('zh-CN')
    const failed = { source: 'hermes' as const, path: '/tmp/nowhere', finishedAt: Date.now(), report: null, error: 'There is no Hermes home at /tmp/nowhere.' }
    const keyed = { ...failed, errorKey: 'import.no_hermes_home', errorParams: { path: '/tmp/nowhere' } }
    const { bridge, app } = await renderApp({
      'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }),
      'import.sources': { sources },
      'import.list': { batches: [] },
      'import.status': importActivity({ last: keyed })
    })
    act(() => app.ui.getState().openSettings('data'))
    await settle()
    act(() => bridge.emit('import.changed', importActivity({ last: keyed })))
    await settle()
    const part = screen.getByRole('region', { name: zh('import.title') })
    const worded = zh('import.failed', { message: zh('error.import.no_hermes_home', { path: '/tmp/nowhere' }) })
    expect(worded).not.toContain('There is no')
    expect(within(part).getByText(worded)).toBeTruthy()

    act(() => bridge.emit('import.changed', importActivity({ last: failed })))
    expect(within(part).getByText(zh('import.failed', { message: failed.error }))).toBeTruthy()
  })
})
