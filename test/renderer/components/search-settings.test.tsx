import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { config, searchUpkeep, settingsView } from '../helpers/fixtures'
import { FakeFailure } from '../helpers/fake-transport'
import { renderApp, settle } from '../helpers/render-app'

async function openSearch(handlers: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp(handlers)
  act(() => harness.app.ui.getState().openSettings('search'))
  await settle()
  return { ...harness, part: () => screen.getByRole('region', { name: 'Search' }) }
}

const on = { state: 'ready' as const, settings: { model: 'nomic-embed-text', baseURL: 'http://localhost:11434/v1', dimensions: 0 }, endpoint: 'http://localhost:11434/v1' }

describe('Settings → Search', () => {
  it('off: says so and how to turn it on, with no buttons; the word index is up to date', async () => {
    const { part } = await openSearch()
    expect(within(part()).getByText('Search by meaning is off.')).toBeTruthy()
    expect(within(part()).getByText(/enter an embedding model below.*serves \/v1\/embeddings works: OpenAI, Ollama, LM Studio/)).toBeTruthy()
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

  it('edits the embedding settings in labelled fields, keeps a wrong size as typed and refuses it, and saves the key only for a server of its own', async () => {
    const withSaved = config((c) => (c.search = { embeddingModel: 'nomic-embed-text', embeddingBaseURL: '', embeddingDimensions: 0 }))
    const { bridge, part } = await openSearch({
      'settings.get': settingsView({ config: withSaved, embeddingKey: { hasApiKey: false, keyHint: null, keyStorage: 'none' } }),
      'search.status': searchUpkeep({ ...on, settings: { model: 'nomic-embed-text', baseURL: '', dimensions: 0 }, endpoint: 'https://api.openai.com/v1' }),
      'settings.update': (input) => settingsView({ config: config((c) => Object.assign(c.search, (input.patch as { search: object }).search)), embeddingKey: { hasApiKey: false, keyHint: null, keyStorage: 'none' } }),
      'settings.setApiKey': settingsView({ embeddingKey: { hasApiKey: true, keyHint: 'mbed', keyStorage: 'os' } })
    })
    const model = within(part()).getByLabelText('Embedding model') as HTMLInputElement
    const server = within(part()).getByLabelText('Server') as HTMLInputElement
    const dimensions = within(part()).getByLabelText('Dimensions') as HTMLInputElement
    expect(model.value).toBe('nomic-embed-text')
    expect(server.value).toBe('')
    // No server of its own: no key field (the chat provider's key goes to the chat provider's server).
    expect(within(part()).queryByLabelText('Embedding server API key')).toBeNull()

    fireEvent.change(dimensions, { target: { value: '-5' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Save search settings' }))
    await settle()
    expect(within(part()).getByRole('alert').textContent).toContain('Dimensions must be a whole number from 0 to 8192.')
    expect(dimensions.value).toBe('-5')
    expect(dimensions.getAttribute('aria-invalid')).toBe('true')
    expect(bridge.callsTo('settings.update')).toHaveLength(0)

    fireEvent.change(dimensions, { target: { value: '256' } })
    fireEvent.change(server, { target: { value: 'http://localhost:11434/v1' } })
    const key = within(part()).getByLabelText('Embedding server API key') as HTMLInputElement
    fireEvent.change(key, { target: { value: 'sk-embed' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Save search settings' }))
    await settle()
    expect(bridge.callsTo('settings.update')).toEqual([{ patch: { search: { embeddingModel: 'nomic-embed-text', embeddingBaseURL: 'http://localhost:11434/v1', embeddingDimensions: 256 } } }])
    expect(bridge.callsTo('settings.setApiKey')).toEqual([{ apiKey: 'sk-embed', which: 'embedding' }])
    expect(key.value).toBe('')
    expect(within(part()).getByText('Saved.')).toBeTruthy()
  })

  it('a save main refuses shows its reason in this section and keeps every field as typed', async () => {
    const { part } = await openSearch({
      'settings.update': () => {
        throw new FakeFailure('VALIDATION_FAILED', 'config.json has invalid settings: search.embeddingBaseURL: too long')
      }
    })
    const model = within(part()).getByLabelText('Embedding model') as HTMLInputElement
    fireEvent.change(model, { target: { value: 'text-embedding-3-small' } })
    fireEvent.change(within(part()).getByLabelText('Dimensions'), { target: { value: '512' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Save search settings' }))
    await settle()
    expect(within(part()).getByRole('alert').textContent).toContain('search.embeddingBaseURL: too long')
    expect(model.value).toBe('text-embedding-3-small')
    expect((within(part()).getByLabelText('Dimensions') as HTMLInputElement).value).toBe('512')
    expect(within(part()).queryByText('Saved.')).toBeNull()
  })

  it('Test embeds with what is typed and words the answer: the size, or the failure by its code, keeping the fields', async () => {
    const results = [
      { ok: true as const, endpoint: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768 },
      { ok: false as const, endpoint: 'http://localhost:11434/v1', model: 'nomic-embed-txt', code: 'model_not_found' as const, message: 'model "nomic-embed-txt" not found', status: 404 }
    ]
    const { bridge, part } = await openSearch({ 'search.testEmbedding': () => results.shift()! })
    const model = within(part()).getByLabelText('Embedding model') as HTMLInputElement
    // No model typed: Test stays focusable but does nothing, and says why.
    expect(within(part()).getByText('Enter an embedding model to test.')).toBeTruthy()
    fireEvent.click(within(part()).getByRole('button', { name: 'Test' }))
    await settle()
    expect(bridge.callsTo('search.testEmbedding')).toHaveLength(0)

    fireEvent.change(model, { target: { value: 'nomic-embed-text' } })
    fireEvent.change(within(part()).getByLabelText('Server'), { target: { value: 'http://localhost:11434/v1' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Test' }))
    await settle()
    expect(bridge.callsTo('search.testEmbedding')).toEqual([{ model: 'nomic-embed-text', baseURL: 'http://localhost:11434/v1', dimensions: 0 }])
    expect(within(part()).getByText('Works: nomic-embed-text at http://localhost:11434/v1 returns vectors of 768 dimensions.')).toBeTruthy()

    fireEvent.change(model, { target: { value: 'nomic-embed-txt' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Test' }))
    await settle()
    expect(within(part()).getByRole('alert').textContent).toContain('The embedding model "nomic-embed-txt" was not found at http://localhost:11434/v1.')
    // A test is not the background fill: nothing is "pressed" or "tried again" after it.
    expect(within(part()).getByRole('alert').textContent).not.toMatch(/Fill now|tried again/)
    expect(model.value).toBe('nomic-embed-txt')
    expect(bridge.callsTo('settings.update')).toHaveLength(0)
  })

  it('speaks Chinese', async () => {
    await openSearch({
      'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }),
      'search.status': searchUpkeep({}, { backlog: { done: 12_000, total: 30_000 }, running: true })
    })
    const section = screen.getByRole('region', { name: '搜索' })
    expect(within(section).getByText('正在为较早的消息建立索引：12,000 / 30,000')).toBeTruthy()
    expect(within(section).getByText('按含义搜索已关闭。')).toBeTruthy()
    expect(within(section).getByLabelText('嵌入模型')).toBeTruthy()
    expect(within(section).getByRole('button', { name: '保存搜索设置' })).toBeTruthy()
  })
})
