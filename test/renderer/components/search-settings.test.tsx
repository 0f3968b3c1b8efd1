import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { config, searchUpkeep, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

async function openSearch(handlers: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp(handlers)
  act(() => harness.app.ui.getState().navigate('settings'))
  await settle()
  return { ...harness, part: () => screen.getByRole('region', { name: 'Search' }) }
}

const on = { state: 'ready' as const, settings: { model: 'nomic-embed-text', baseURL: 'http://localhost:11434/v1', dimensions: 0 }, endpoint: 'http://localhost:11434/v1' }

describe('Settings → Search', () => {
  it('off: says so and how to turn it on, with no buttons; the word index is up to date', async () => {
    const { part } = await openSearch()
    expect(within(part()).getByText('Search by meaning is off.')).toBeTruthy()
    expect(within(part()).getByText(/set search\.embeddingModel in config\.json.*serves \/v1\/embeddings works: OpenAI, Ollama, LM Studio/)).toBeTruthy()
    expect(within(part()).queryByRole('button', { name: 'Fill now' })).toBeNull()
    expect(within(part()).getByText('Up to date: every message is indexed by word.')).toBeTruthy()
  })

  it('older messages being indexed: the count in the user’s locale and a progress bar, live', async () => {
    const { bridge, part } = await openSearch({ 'search.status': searchUpkeep({}, { backlog: { done: 0, total: 30_000 }, running: false }) })
    expect(within(part()).getByText('Older messages indexed: 0 of 30,000. Indexing goes on when no chat is running.')).toBeTruthy()
    act(() => bridge.emit('search.changed', searchUpkeep({}, { backlog: { done: 12_000, total: 30_000 }, running: true })))
    expect(within(part()).getByText('Indexing older messages: 12,000 of 30,000')).toBeTruthy()
    const bar = within(part()).getByRole('progressbar', { name: 'Word index for Chinese and Japanese' }) as HTMLProgressElement
    expect(bar.value).toBeCloseTo(0.4)
    act(() => bridge.emit('search.changed', searchUpkeep()))
    expect(within(part()).getByText('Up to date: every message is indexed by word.')).toBeTruthy()
    expect(within(part()).queryByRole('progressbar')).toBeNull()
  })

  it('on: the index, the settings where they are set, progress while filling, Pause and Fill now, a failure worded by its code', async () => {
    const ready = searchUpkeep({ ...on, index: { model: 'nomic-embed-text', dimensions: 768, embedded: 1200, skipped: 1 }, progress: { done: 1201, total: 3000 } })
    const { bridge, part } = await openSearch({
      'search.status': ready,
      'search.pauseMeaning': searchUpkeep({ ...on, index: ready.meaning.index, paused: true }),
      'search.fillMeaning': searchUpkeep({ ...on, index: ready.meaning.index, filling: true })
    })
    expect(within(part()).getByText('Ready: 1,200 messages embedded with nomic-embed-text (768 dimensions). 1,201 of 3,000 messages are searchable by meaning. 1 message the model refused was skipped.')).toBeTruthy()
    expect(within(part()).getByText('http://localhost:11434/v1')).toBeTruthy()
    expect(within(part()).getByText('As the model returns')).toBeTruthy()

    act(() => bridge.emit('search.changed', searchUpkeep({ ...on, index: ready.meaning.index, filling: true, progress: { done: 1500, total: 3000 } })))
    expect(within(part()).getByText('Embedding messages with nomic-embed-text: 1,500 of 3,000')).toBeTruthy()
    // Unavailable but still focusable (aria-disabled), and a click does nothing.
    expect(within(part()).getByRole('button', { name: 'Fill now' }).getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(within(part()).getByRole('button', { name: 'Fill now' }))
    await settle()
    expect(bridge.callsTo('search.fillMeaning')).toHaveLength(0)
    fireEvent.click(within(part()).getByRole('button', { name: 'Pause' }))
    await settle()
    expect(bridge.callsTo('search.pauseMeaning')).toHaveLength(1)
    expect(within(part()).getByText('Paused: nothing is embedded until you press Fill now.')).toBeTruthy()
    expect(within(part()).getByRole('button', { name: 'Pause' }).getAttribute('aria-disabled')).toBe('true')

    fireEvent.click(within(part()).getByRole('button', { name: 'Fill now' }))
    await settle()
    expect(bridge.callsTo('search.fillMeaning')).toHaveLength(1)
    // Pressed during a chat: it says why nothing moves yet.
    act(() => bridge.emit('search.changed', searchUpkeep({ ...on, index: ready.meaning.index, waiting: true })))
    expect(within(part()).getByText('Embedding waits while a chat is running.')).toBeTruthy()

    act(() => bridge.emit('search.changed', searchUpkeep({ ...on, index: ready.meaning.index, lastError: { code: 'unreachable', message: 'connect ECONNREFUSED', status: null } })))
    expect(within(part()).getByText('Cannot reach http://localhost:11434/v1. It is tried again in a few minutes.')).toBeTruthy()
    expect(within(part()).queryByText(/ECONNREFUSED/)).toBeNull()
  })

  it('speaks Chinese', async () => {
    await openSearch({
      'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }),
      'search.status': searchUpkeep({}, { backlog: { done: 12_000, total: 30_000 }, running: true })
    })
    const section = screen.getByRole('region', { name: '搜索' })
    expect(within(section).getByText('正在为较早的消息建立索引：12,000 / 30,000')).toBeTruthy()
    expect(within(section).getByText('按含义搜索已关闭。')).toBeTruthy()
  })
})
