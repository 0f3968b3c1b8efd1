import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { LearnedReview, LearningStatus, SettingsView } from '../../../shared/ipc/domain'
import type { LearningMode } from '../../../shared/config'
import { config, learned, learningStatus, ledger, message, review, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

describe('settings: learning mode and the learning model', () => {
  async function openSettings(view: SettingsView = settingsView(), status: LearningStatus = learningStatus()) {
    let current = view
    let learning = status
    const harness = await renderApp({
      'settings.get': () => current,
      'learning.status': () => learning,
      'learning.setMode': ({ mode }: { mode: LearningMode }) => {
        learning = { ...learning, mode }
        current = { ...current, config: { ...current.config, learning: { ...current.config.learning, mode } } }
        return learning
      },
      'learning.setEnabled': ({ enabled }) => {
        learning = { ...learning, enabled }
        current = { ...current, config: { ...current.config, learning: { ...current.config.learning, enabled } } }
        return learning
      },
      'settings.update': ({ patch }) => {
        const p = patch as { provider?: object; learning?: object }
        current = { ...current, config: { ...current.config, provider: { ...current.config.provider, ...p.provider }, learning: { ...current.config.learning, ...p.learning } } }
        return current
      },
      'settings.setApiKey': ({ apiKey, which }) => {
        const key = { hasApiKey: Boolean(apiKey), keyHint: apiKey ? apiKey.slice(-4) : null, keyStorage: apiKey ? ('os' as const) : ('none' as const) }
        current = which === 'learning' ? { ...current, learningKey: key } : { ...current, ...key }
        return current
      }
    })
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    await settle()
    fireEvent.click(screen.getByRole('tab', { name: 'Learning' }))
    await settle()
    return harness
  }

  it('offers Auto, Ask and Off, each explained, and saves the choice with learning.setMode', async () => {
    const harness = await openSettings()
    const modes = screen.getByRole('radiogroup', { name: 'Learning mode' })
    expect(within(modes).getByRole('radio', { name: /^Auto/ }).getAttribute('aria-checked')).toBe('true')
    expect(within(modes).getByRole('radio', { name: /^Ask/ }).textContent).toContain('waits in the Inbox for your approval')
    fireEvent.click(within(modes).getByRole('radio', { name: /^Ask/ }))
    await settle()
    expect(harness.bridge.callsTo('learning.setMode')).toEqual([{ mode: 'ask' }])
    expect(within(modes).getByRole('radio', { name: /^Ask/ }).getAttribute('aria-checked')).toBe('true')

    fireEvent.click(within(modes).getByRole('radio', { name: /^Off/ }))
    await settle()
    expect(harness.bridge.callsTo('learning.setMode')).toEqual([{ mode: 'ask' }, { mode: 'off' }])
    // Off: the review settings below cannot be changed.
    expect((screen.getByRole('switch', { name: 'Create new skills' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('moves through the modes with the arrow keys like a native radio group: one tab stop, each arrow chooses', async () => {
    const harness = await openSettings()
    const modes = screen.getByRole('radiogroup', { name: 'Learning mode' })
    const radio = (name: RegExp) => within(modes).getByRole('radio', { name })
    // Only the chosen mode is in the tab order.
    expect([radio(/^Auto/), radio(/^Ask/), radio(/^Off/)].map((r) => r.tabIndex)).toEqual([0, -1, -1])

    act(() => radio(/^Auto/).focus())
    fireEvent.keyDown(radio(/^Auto/), { key: 'ArrowRight' })
    expect(document.activeElement).toBe(radio(/^Ask/))
    await settle()
    expect(harness.bridge.callsTo('learning.setMode')).toEqual([{ mode: 'ask' }])
    expect(radio(/^Ask/).getAttribute('aria-checked')).toBe('true')
    expect([radio(/^Auto/), radio(/^Ask/), radio(/^Off/)].map((r) => r.tabIndex)).toEqual([-1, 0, -1])

    fireEvent.keyDown(radio(/^Ask/), { key: 'ArrowDown' })
    await settle()
    // Past the last it wraps to the first, and back.
    fireEvent.keyDown(radio(/^Off/), { key: 'ArrowRight' })
    await settle()
    expect(document.activeElement).toBe(radio(/^Auto/))
    fireEvent.keyDown(radio(/^Auto/), { key: 'ArrowUp' })
    await settle()
    expect(document.activeElement).toBe(radio(/^Off/))
    fireEvent.keyDown(radio(/^Off/), { key: 'Home' })
    await settle()
    expect(harness.bridge.callsTo('learning.setMode')).toEqual([{ mode: 'ask' }, { mode: 'off' }, { mode: 'auto' }, { mode: 'off' }, { mode: 'auto' }])
    expect(radio(/^Auto/).getAttribute('aria-checked')).toBe('true')
    expect(document.activeElement).toBe(radio(/^Auto/))
  })

  it('shows learning switched off as Off, and choosing a mode turns it back on', async () => {
    const harness = await openSettings(settingsView({ config: config((c) => (c.learning.enabled = false)) }), learningStatus({ enabled: false }))
    expect(screen.getByRole('radio', { name: /^Off/ }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByRole('radio', { name: /^Auto/ }))
    await settle()
    expect(harness.bridge.callsTo('learning.setMode')).toEqual([{ mode: 'auto' }])
    expect(harness.bridge.callsTo('learning.setEnabled')).toEqual([{ enabled: true }])
  })

  it('saves a cheaper learning model and its own endpoint with the provider, in one save, and its key apart', async () => {
    const harness = await openSettings(settingsView({ learningKey: { hasApiKey: false, keyHint: null, keyStorage: 'none' } }))
    // The learning model is saved with the provider, so it lives in Settings → Provider.
    fireEvent.click(screen.getByRole('tab', { name: 'Provider' }))
    await settle()
    const model = screen.getByLabelText('Model for learning') as HTMLInputElement
    expect(model.placeholder).toBe('Same as chat (gpt-test)')
    fireEvent.change(model, { target: { value: 'gpt-mini' } })
    // The learning key appears once learning has an endpoint of its own.
    expect(screen.queryByLabelText('API key for learning')).toBeNull()
    fireEvent.change(screen.getByLabelText('Endpoint for learning'), { target: { value: 'http://10.0.0.9:8000/v1 ' } })
    fireEvent.click(within(screen.getByRole('region', { name: 'Model provider' })).getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([
      { patch: { provider: { preset: 'openai', baseURL: '', model: 'gpt-test' }, learning: { model: 'gpt-mini', baseURL: 'http://10.0.0.9:8000/v1' } } }
    ])

    const key = screen.getByLabelText('API key for learning')
    fireEvent.change(key, { target: { value: 'sk-learning-1234' } })
    fireEvent.keyDown(key, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('settings.setApiKey')).toEqual([{ apiKey: 'sk-learning-1234', which: 'learning' }])
  })
})

describe('chat: what this conversation taught', () => {
  const user = message('user', 'I always use pnpm', { createdAt: Date.now() - 60_000 })
  const answer = message('assistant', 'Noted.', { createdAt: Date.now() - 50_000 })
  const later = message('user', 'Now deploy', { createdAt: Date.now() - 10_000 })
  const notes: LearnedReview[] = [
    {
      reviewId: 'rv1',
      at: Date.now() - 40_000,
      requested: false,
      summary: { ...learned({ user: 1, skills: [{ name: 'deploy', verb: 'updated' }] }), remembered: [{ store: 'user', text: 'Uses pnpm, never npm' }], skills: [{ name: 'deploy', verb: 'updated', gist: { added: 'run pnpm deploy', removed: 'run npm deploy' } }] }
    },
    { reviewId: 'rv2', at: Date.now() - 5_000, requested: true, summary: learned() }
  ]

  async function openChat(extra: Parameters<typeof renderApp>[0] = {}) {
    const harness = await renderApp({
      'sessions.list': [session('s1', 'Deploy day')],
      'sessions.get': { session: session('s1', 'Deploy day'), messages: [user, answer, later], running: false, learned: notes },
      ...extra
    })
    fireEvent.click(screen.getByRole('button', { name: /Deploy day/ }))
    await settle()
    return harness
  }

  it('shows each review’s lessons as quiet notes in the conversation, where they happened, after a reload too', async () => {
    await openChat()
    const shown = screen.getAllByRole('complementary', { name: 'Learned from this conversation' })
    expect(shown.map((note) => note.querySelector('ul')!.textContent)).toEqual(['Remembered: Uses pnpm, never npmSkill deploy: run pnpm deploy', 'Nothing worth keeping.'])
    // The first sits between the answer and the next message; the second after the last message.
    const order = [...document.querySelectorAll('.message-cell')].map((cell) => {
      const note = cell.querySelector('aside')
      return note ? `note:${note.getAttribute('data-review-id')}` : (cell.textContent ?? '').slice(0, 12)
    })
    expect(order).toEqual(['I always use', 'Noted.', 'note:rv1', 'Now deploy', 'note:rv2'])
  })

  it('adds a note when a review of this conversation finishes, pointing to the Inbox for what it proposed', async () => {
    const harness = await openChat({ 'sessions.get': { session: session('s1', 'Deploy day'), messages: [user], running: false } })
    act(() =>
      harness.bridge.emit('review.event', {
        type: 'review_finished',
        reviewId: 'rv3',
        sessionId: 's1',
        outcome: { summary: { ...learned(), proposed: 2 }, proposals: [7, 8], entries: [], skillOutcomes: [], finalText: '', iterations: 2, toolCalls: 1, refusedCalls: [] }
      })
    )
    await settle()
    const note = screen.getByRole('complementary', { name: 'Learned from this conversation' })
    fireEvent.click(within(note).getByRole('button', { name: 'Proposed 2 changes for you to review' }))
    expect(screen.getByRole('heading', { name: 'Inbox' })).toBeTruthy()
  })

  it('words the notes in Chinese', async () => {
    await openChat({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    const shown = screen.getAllByRole('complementary', { name: '从这段对话中学到的' })
    expect(shown.map((note) => note.querySelector('ul')!.textContent)).toEqual(['记住了：Uses pnpm, never npm技能 deploy：run pnpm deploy', '没有值得保留的内容。'])
  })
})

describe('timeline: what a review cost', () => {
  it('shows the tokens a review used when the provider reported them, and which changes came from the Inbox', async () => {
    await renderApp({
      'timeline.list': {
        entries: [ledger(1, { source: 'review', reviewId: 'rv1', meta: { proposalId: 4 } }), ledger(2, { source: 'review', reviewId: 'rv2' })],
        reviews: [review('rv1', { model: 'gpt-mini', promptTokens: 12_345, completionTokens: 678 }), review('rv2')]
      }
    })
    fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
    await settle()
    // Newest first: rv2 (recorded before reviews counted tokens) says nothing about them.
    const [without, withUsage] = screen.getAllByRole('region', { name: 'Background review' })
    expect(within(withUsage).getByText('gpt-mini: 12,345 prompt + 678 completion tokens')).toBeTruthy()
    expect(without.textContent).not.toMatch(/tokens/)
    // A change the user approved in the Inbox says so.
    expect(within(withUsage).getByText('Approved in the Inbox')).toBeTruthy()
    expect(within(without).queryByText('Approved in the Inbox')).toBeNull()
  })
})
