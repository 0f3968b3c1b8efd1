import { describe, expect, it } from 'vitest'
import { modelStep } from '../../../electron/core/provider/model-step'
import { ChatProvider } from '../../../electron/core/provider/provider'
import { resolveLearningProviderSettings, type ProviderSettings } from '../../../electron/core/provider/provider-settings'
import { startScriptedServer } from '../../scripted-provider'

const chat: ProviderSettings = { preset: 'openrouter', baseURL: 'https://openrouter.ai/api/v1', model: 'big-model', apiKey: 'sk-chat', requestTimeoutMs: 60_000, maxRetries: 3 }
const none = { model: '', baseURL: '' }

describe('the provider reviews run on', () => {
  it('is the chat provider unless learning.model or learning.baseURL says otherwise', () => {
    expect(resolveLearningProviderSettings(none, { chat, env: {} })).toEqual(chat)
    expect(resolveLearningProviderSettings({ ...none, model: ' small-model ' }, { chat, env: {} })).toEqual({ ...chat, model: 'small-model' })
  })

  it('on the chat server (same origin) keeps the chat key, unless a learning key is set', () => {
    const same = { model: 'small', baseURL: 'https://openrouter.ai/api/v1/' }
    expect(resolveLearningProviderSettings(same, { chat, env: {} })).toMatchObject({ baseURL: 'https://openrouter.ai/api/v1', apiKey: 'sk-chat', preset: 'openrouter' })
    expect(resolveLearningProviderSettings(same, { chat, ownKey: 'sk-learn', env: {} }).apiKey).toBe('sk-learn')
  })

  it('on a server of its own never gets the chat key: only the saved learning key or CAIRN_LEARNING_API_KEY', () => {
    const own = { model: 'llama3.2', baseURL: 'https://api.together.xyz/v1' }
    expect(resolveLearningProviderSettings(own, { chat, env: {} })).toEqual({ ...chat, preset: 'custom', baseURL: 'https://api.together.xyz/v1', model: 'llama3.2', apiKey: null })
    expect(resolveLearningProviderSettings(own, { chat, env: { CAIRN_LEARNING_API_KEY: 'sk-env' } }).apiKey).toBe('sk-env')
    expect(resolveLearningProviderSettings(own, { chat, ownKey: 'sk-saved', env: { CAIRN_LEARNING_API_KEY: 'sk-env' } }).apiKey).toBe('sk-saved')
    // A local server needs no key at all, and still gets none of the chat's.
    expect(resolveLearningProviderSettings({ model: 'qwen', baseURL: 'http://localhost:11434/v1' }, { chat, env: {} })).toMatchObject({ apiKey: null, preset: 'custom' })
  })
})

describe('one model step', () => {
  it('carries the usage the provider reported for that call (a review adds these up)', async () => {
    const server = await startScriptedServer({ replies: [{ text: 'Nothing to save.', usage: { prompt_tokens: 1234, completion_tokens: 5 } }] })
    try {
      const provider = new ChatProvider({ preset: 'custom', baseURL: server.url, model: 'scripted', apiKey: 'sk-x', requestTimeoutMs: 5_000, maxRetries: 0 })
      const step = await modelStep(provider, { messages: [{ role: 'user', content: 'hi' }] })
      expect(step.usage).toMatchObject({ promptTokens: 1234, completionTokens: 5 })
      expect(step.message).toEqual({ role: 'assistant', content: 'Nothing to save.' })
    } finally {
      await server.close()
    }
  })
})
