import { afterEach, describe, expect, it } from 'vitest'
import { ChatProvider } from '../../../electron/core/provider/provider'
import { ProviderError } from '../../../electron/core/provider/provider-errors'
import { startScriptedServer, type ScriptedServer } from '../../scripted-provider'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const settings = (baseURL: string, apiKey: string | null) => ({ preset: 'custom' as const, baseURL, model: 'scripted', apiKey, requestTimeoutMs: 5000, maxRetries: 0 })

describe('a provider without a key', () => {
  it('sends no Authorization header, so a local server sees no stand-in key', async () => {
    server = await startScriptedServer()
    expect(await new ChatProvider(settings(server.url, null)).listModels()).toEqual(['scripted'])
    expect(server.requests[0].headers.authorization).toBeUndefined()
  })

  it('is refused by a server that wants a key without any made-up key in the error', async () => {
    server = await startScriptedServer({ apiKey: 'sk-real' })
    const error = await new ChatProvider(settings(server.url, null)).listModels().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect((error as ProviderError).code).toBe('auth')
    expect((error as ProviderError).message).toMatch(/didn't provide an API key/)
    expect((error as ProviderError).message).not.toMatch(/not-needed|unused|Incorrect API key/)
  })

  it('sends the key it has', async () => {
    server = await startScriptedServer({ apiKey: 'sk-real' })
    await new ChatProvider(settings(server.url, 'sk-real')).listModels()
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-real')
  })
})
