import { describe, expect, it } from 'vitest'
import { normalizeLedgerMeta, type LedgerEntry, type LedgerKind } from '../../shared/ledger'
import { translator } from '../../shared/i18n'
import { QuickPromptShortcut, type GlobalShortcuts } from '../../electron/main/shell/shortcut'
import { ledgerLabel as labelIn, trayMenuTemplate as templateIn, trayTooltip as tooltipIn, type TrayActions, type TrayState } from '../../electron/main/shell/tray-menu'

const en = translator('en')
const ledgerLabel = (row: LedgerEntry) => labelIn(row, en)
const trayMenuTemplate = (tray: TrayState, actions: TrayActions, platform?: NodeJS.Platform) => templateIn(tray, actions, en, platform)
const trayTooltip = (tray: TrayState) => tooltipIn(tray, en)

/** A row as the ledger returns it: `meta` carries what its kind implies (skill name, memory file). */
function entry(overrides: Partial<Omit<LedgerEntry, 'kind' | 'meta'>> & { kind?: LedgerKind; meta?: Record<string, unknown> }): LedgerEntry {
  const { kind = 'memory.add', meta = {}, ...rest } = overrides
  const target = rest.target ?? 'memories/MEMORY.md'
  return {
    id: 1,
    at: '2026-11-29T10:00:00.000Z',
    target,
    source: 'review',
    sessionId: null,
    reviewId: null,
    before: null,
    after: null,
    revertedBy: null,
    ...rest,
    kind,
    meta: normalizeLedgerMeta(kind, target, meta)
  } as LedgerEntry
}

function recorder() {
  const calls: string[] = []
  const actions: TrayActions = {
    quickPrompt: () => calls.push('quick'),
    openMain: () => calls.push('main'),
    openLedgerEntry: (id) => calls.push(`ledger:${id}`),
    setLearningPaused: (paused) => calls.push(`paused:${paused}`),
    quit: () => calls.push('quit')
  }
  return { calls, actions }
}

const state = (overrides: Partial<TrayState> = {}): TrayState => ({
  learningEnabled: true,
  recent: [],
  shortcut: 'CommandOrControl+Shift+Space',
  shortcutProblem: null,
  ...overrides
})

describe('tray menu', () => {
  it('names each kind of learned change in a short line', () => {
    expect(ledgerLabel(entry({ kind: 'memory.add', target: 'memories/USER.md', after: 'Prefers pnpm over npm' }))).toBe('Profile + "Prefers pnpm over npm"')
    expect(ledgerLabel(entry({ kind: 'memory.remove', before: 'Old fact' }))).toBe('Memory − "Old fact"')
    expect(ledgerLabel(entry({ kind: 'memory.replace', after: 'x'.repeat(200) })).length).toBeLessThanOrEqual(48)
    expect(ledgerLabel(entry({ kind: 'skill.create', target: 'skills/devops/deploy/SKILL.md', meta: { skill: 'deploy' } }))).toBe('Skill "deploy" created')
    expect(ledgerLabel(entry({ kind: 'skill.patch', target: 'skills/devops/deploy/SKILL.md', meta: { skill: 'deploy' } }))).toBe('Skill "deploy" updated')
    expect(ledgerLabel(entry({ kind: 'skill.file_write', target: 'skills/devops/deploy/scripts/run.sh', meta: { skill: 'deploy' } }))).toBe('Skill "deploy": run.sh written')
    expect(ledgerLabel(entry({ kind: 'skill.delete', target: 'skills/devops/old/SKILL.md', source: 'revert' }))).toBe('Undo: Skill "old" deleted')
  })

  it('lists the last five changes, each opening the timeline at its row', () => {
    const { calls, actions } = recorder()
    const recent = [7, 6, 5, 4, 3, 2].map((id) => entry({ id, after: `fact ${id}` }))
    const menu = trayMenuTemplate(state({ recent }), actions)
    const submenu = menu.find((item) => item.label === 'Recently learned')!.submenu as Array<{ label: string; click: () => void }>
    expect(submenu.map((item) => item.label)).toEqual(['7', '6', '5', '4', '3'].map((id) => `Memory + "fact ${id}"`))
    submenu[1].click()
    expect(calls).toEqual(['ledger:6'])
  })

  it('says when nothing was learned yet', () => {
    const menu = trayMenuTemplate(state(), recorder().actions)
    expect(menu.find((item) => item.label === 'Recently learned')!.submenu).toEqual([{ label: 'Nothing learned yet', enabled: false }])
  })

  it('binds the pause checkbox to learning.enabled and wires the other items', () => {
    const { calls, actions } = recorder()
    const paused = trayMenuTemplate(state({ learningEnabled: false }), actions)
    const pause = paused.find((item) => item.label === 'Pause learning')!
    expect(pause).toMatchObject({ type: 'checkbox', checked: true })
    ;(pause.click as (item: { checked: boolean }) => void)({ checked: false })
    for (const label of ['Quick prompt', 'Open Cairn', 'Quit Cairn']) (paused.find((item) => item.label === label)!.click as () => void)()
    expect(calls).toEqual(['paused:false', 'quick', 'main', 'quit'])
    expect(paused.find((item) => item.label === 'Quick prompt')).toMatchObject({ accelerator: 'CommandOrControl+Shift+Space', registerAccelerator: false })
  })

  it('explains a broken shortcut in the menu and the tooltip, and escapes & on Windows', () => {
    const problem = 'The quick prompt shortcut Ctrl&K is taken by another application. Choose another one in Settings.'
    const taken = { requested: 'Ctrl&K', reason: 'taken', kept: null } as const
    const menu = trayMenuTemplate(state({ shortcut: null, shortcutProblem: taken }), recorder().actions, 'win32')
    expect(menu.some((item) => item.label === problem.replace('&', '&&') && item.enabled === false)).toBe(true)
    expect(trayTooltip(state({ shortcut: null, shortcutProblem: taken, learningEnabled: false }))).toBe(`Cairn\nLearning is paused\n${problem}`)
    const invalidButKept = { requested: 'Ctrl+Banana', reason: 'invalid', kept: 'CommandOrControl+Shift+Space' } as const
    expect(trayTooltip(state({ shortcutProblem: invalidButKept }))).toMatch(/Ctrl\+Banana is not a valid shortcut .*Cairn kept CommandOrControl\+Shift\+Space\.$/)
    expect(trayTooltip(state())).toBe('Cairn\nQuick prompt: CommandOrControl+Shift+Space')
  })

  it('speaks the language of ui.language: no English left in Chinese', () => {
    const zh = translator('zh-CN')
    const recent = [
      entry({ id: 3, kind: 'skill.create', target: 'skills/devops/deploy/SKILL.md' }),
      entry({ id: 2, kind: 'memory.add', target: 'memories/USER.md', after: '喜欢简短的回答' }),
      entry({ id: 1, kind: 'skill.file_write', target: 'skills/devops/deploy/scripts/run.sh', source: 'revert' })
    ]
    const tray = state({ recent, learningEnabled: false, shortcutProblem: { requested: 'Alt+Space', reason: 'taken', kept: null } })
    const menu = templateIn(tray, recorder().actions, zh, 'linux')
    const labels = menu.flatMap((item) => [item.label ?? '', ...((item.submenu as Array<{ label: string }> | undefined) ?? []).map((sub) => sub.label)])
    expect(labels).toContain('最近学到的')
    expect(labels).toContain('已创建技能“deploy”')
    expect(labels).toContain('资料 +“喜欢简短的回答”')
    expect(labels).toContain('撤销：技能“deploy”：已写入 run.sh')
    // Only names and keys stay in Latin letters: the skill name, the file, the accelerator, "Cairn".
    const leftover = [...labels, tooltipIn(tray, zh)].join(' ').replace(/deploy|run\.sh|Alt\+Space|Cairn/g, '')
    expect(leftover).not.toMatch(/[A-Za-z]/)
  })
})

/** An in-memory globalShortcut: `taken` accelerators belong to another app, `invalid` ones throw like Electron. */
function fakeShortcuts(taken: string[] = [], invalid: string[] = []) {
  const registered = new Map<string, () => void>()
  const shortcuts: GlobalShortcuts = {
    register(accelerator, callback) {
      if (invalid.includes(accelerator)) throw new Error(`conversion failure from ${accelerator}`)
      if (taken.includes(accelerator) || registered.has(accelerator)) return false
      registered.set(accelerator, callback)
      return true
    },
    unregister(accelerator) {
      registered.delete(accelerator)
    }
  }
  return { shortcuts, registered }
}

describe('quick prompt shortcut', () => {
  it('registers the configured accelerator and moves to a new one', () => {
    const { shortcuts, registered } = fakeShortcuts()
    let presses = 0
    const shortcut = new QuickPromptShortcut(shortcuts, () => presses++)
    expect(shortcut.apply('CommandOrControl+Shift+Space')).toEqual({ active: 'CommandOrControl+Shift+Space', problem: null })
    registered.get('CommandOrControl+Shift+Space')!()
    expect(presses).toBe(1)
    expect(shortcut.apply('Alt+Space')).toEqual({ active: 'Alt+Space', problem: null })
    expect([...registered.keys()]).toEqual(['Alt+Space'])
  })

  it('keeps the previous shortcut when another app owns the new one, and says so', () => {
    const { shortcuts, registered } = fakeShortcuts(['Alt+Space'])
    const shortcut = new QuickPromptShortcut(shortcuts, () => {})
    shortcut.apply('CommandOrControl+Shift+Space')
    const status = shortcut.apply('Alt+Space')
    expect(status).toEqual({
      active: 'CommandOrControl+Shift+Space',
      problem: 'The quick prompt shortcut Alt+Space is taken by another application. Cairn kept CommandOrControl+Shift+Space.',
      refusal: { requested: 'Alt+Space', reason: 'taken', kept: 'CommandOrControl+Shift+Space' }
    })
    expect([...registered.keys()]).toEqual(['CommandOrControl+Shift+Space'])
  })

  it('reports a taken shortcut at start and an invalid one, with what to do', () => {
    const taken = new QuickPromptShortcut(fakeShortcuts(['CommandOrControl+Shift+Space']).shortcuts, () => {})
    expect(taken.apply('CommandOrControl+Shift+Space')).toMatchObject({ active: null, problem: 'The quick prompt shortcut CommandOrControl+Shift+Space is taken by another application. Choose another one in Settings.' })
    const invalid = new QuickPromptShortcut(fakeShortcuts([], ['Ctrl+Banana']).shortcuts, () => {})
    const refused = invalid.apply('Ctrl+Banana')
    expect(refused.problem).toContain('is not a valid shortcut (example: CommandOrControl+Shift+Space)')
    expect(refused.refusal).toEqual({ requested: 'Ctrl+Banana', reason: 'invalid', kept: null })
  })

  it('an empty setting turns the shortcut off; dispose releases it', () => {
    const { shortcuts, registered } = fakeShortcuts()
    const shortcut = new QuickPromptShortcut(shortcuts, () => {})
    shortcut.apply('Alt+Space')
    expect(shortcut.apply('  ')).toEqual({ active: null, problem: null })
    expect(registered.size).toBe(0)
    shortcut.apply('Alt+Space')
    shortcut.dispose()
    expect(registered.size).toBe(0)
  })
})
