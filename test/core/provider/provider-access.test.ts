import { describe, expect, it } from 'vitest'
import { defaultConfig, type CairnConfig } from '../../../shared/config'
import { environmentKeys, ProviderAccess, providerKeys } from '../../../electron/core/provider/provider-access'

function config(patch: { learning?: Partial<CairnConfig['learning']>; search?: Partial<CairnConfig['search']> } = {}): CairnConfig {
  const base = defaultConfig()
  return {
    ...base,
    provider: { ...base.provider, preset: 'openrouter', baseURL: 'https://openrouter.ai/api/v1', model: 'big-model' },
    learning: { ...base.learning, ...patch.learning },
    search: { ...base.search, ...patch.search }
  }
}

describe('the provider keys of one process', () => {
  it('are the saved ones first, then the environment in its order, else none', () => {
    const env = { OPENAI_API_KEY: 'sk-openai', CAIRN_LEARNING_API_KEY: 'sk-env-learning' }
    const keys = providerKeys((which) => (which === 'chat' ? 'sk-saved' : null), env)
    expect(keys.apiKeyFor('chat')).toBe('sk-saved')
    expect(keys.apiKeyFor('learning')).toBe('sk-env-learning')
    expect(keys.apiKeyFor('embedding')).toBeNull()
    expect(environmentKeys({ CAIRN_API_KEY: 'sk-cairn', OPENAI_API_KEY: 'sk-openai' }).apiKeyFor('chat')).toBe('sk-cairn')
    expect(environmentKeys(env).apiKeyFor('chat')).toBe('sk-openai')
  })

  it('are asked for at each use, so a key saved later applies at once', () => {
    let saved: string | null = null
    const access = new ProviderAccess(() => config(), providerKeys(() => saved, {}), {})
    expect(access.chat().apiKey).toBeNull()
    saved = 'sk-new'
    expect(access.chat().apiKey).toBe('sk-new')
  })
})

describe('the providers resolved from them', () => {
  const keys = providerKeys((which) => ({ chat: 'sk-chat', learning: 'sk-learn', embedding: 'sk-embed', memoryProvider: 'sk-memory' })[which], {})

  it('send each endpoint of its own only its own key, never the chat key', () => {
    const own = new ProviderAccess(() => config({ learning: { model: 'llama', baseURL: 'https://api.together.xyz/v1' } }), keys, {})
    expect(own.learning()).toMatchObject({ baseURL: 'https://api.together.xyz/v1', model: 'llama', apiKey: 'sk-learn' })
    const none = new ProviderAccess(() => config({ learning: { model: 'llama', baseURL: 'https://api.together.xyz/v1' } }), providerKeys((which) => (which === 'chat' ? 'sk-chat' : null), {}), {})
    expect(none.learning().apiKey).toBeNull()
    const embedding = new ProviderAccess(() => config({ search: { embeddingModel: 'embed', embeddingBaseURL: 'http://localhost:11434/v1' } }), keys, {})
    expect(embedding.embedder()?.settings).toMatchObject({ baseURL: 'http://localhost:11434/v1', model: 'embed', apiKey: 'sk-embed' })
  })

  it('read CAIRN_BASE_URL and CAIRN_MODEL over the settings, and leave search by meaning off without a model', () => {
    const access = new ProviderAccess(() => config(), keys, { CAIRN_BASE_URL: 'http://127.0.0.1:8080/v1', CAIRN_MODEL: 'local' })
    expect(access.chat()).toMatchObject({ baseURL: 'http://127.0.0.1:8080/v1', model: 'local', apiKey: 'sk-chat' })
    expect(access.embedder()).toBeNull()
  })
})
