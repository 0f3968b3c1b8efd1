import { describe, expect, it } from 'vitest'
import { ProcessSecretStore, secretEnvName } from '../../electron/serve/process-secrets'

describe('browser mode and CLI secrets', () => {
  it('reads a named secret from CAIRN_SECRET_<NAME> and prefers one entered in the UI, kept in memory', async () => {
    expect(secretEnvName('mcp.github.env.GITHUB_TOKEN')).toBe('CAIRN_SECRET_MCP_GITHUB_ENV_GITHUB_TOKEN')
    const store = new ProcessSecretStore({ CAIRN_SECRET_MCP_GITHUB_ENV_GITHUB_TOKEN: 'from-env' })
    expect(store.getSecret('mcp.github.env.GITHUB_TOKEN')).toBe('from-env')
    await store.setSecret('mcp.github.env.GITHUB_TOKEN', 'typed')
    expect(store.getSecret('mcp.github.env.GITHUB_TOKEN')).toBe('typed')
    await store.setSecret('mcp.github.env.GITHUB_TOKEN', null)
    expect(store.getSecret('mcp.github.env.GITHUB_TOKEN')).toBe('from-env')
    expect(store.getSecret('mcp.none')).toBeNull()
  })

  it('keeps the embedding key apart: CAIRN_EMBEDDING_API_KEY, or one entered in the UI, never the chat key', async () => {
    const store = new ProcessSecretStore({ CAIRN_API_KEY: 'sk-chat', CAIRN_EMBEDDING_API_KEY: 'sk-embed-env' })
    expect(store.getApiKey('embedding')).toBe('sk-embed-env')
    expect(store.storage('embedding')).toBe('env')
    await store.setApiKey('sk-embed-typed', 'embedding')
    expect(store.getApiKey('embedding')).toBe('sk-embed-typed')
    expect(store.storage('embedding')).toBe('memory')
    expect(store.getApiKey()).toBe('sk-chat')
    expect(new ProcessSecretStore({ CAIRN_API_KEY: 'sk-chat' }).getApiKey('embedding')).toBeNull()
  })
})
