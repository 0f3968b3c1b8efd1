import { expect, it } from 'vitest'
import { ProcessSecretStore } from '../../electron/serve/process-secrets'

it('browser mode reads the sync token from CAIRN_SECRET_SYNC_TOKEN, else CAIRN_SYNC_TOKEN (as the CLI does), and prefers one entered in the UI', async () => {
  expect(new ProcessSecretStore({ CAIRN_SYNC_TOKEN: 'cli-token' }).getSecret('sync.token')).toBe('cli-token')
  const store = new ProcessSecretStore({ CAIRN_SYNC_TOKEN: 'cli-token', CAIRN_SECRET_SYNC_TOKEN: 'app-token' })
  expect(store.getSecret('sync.token')).toBe('app-token')
  await store.setSecret('sync.token', 'typed')
  expect(store.getSecret('sync.token')).toBe('typed')
  // Only the sync token answers to CAIRN_SYNC_TOKEN.
  expect(new ProcessSecretStore({ CAIRN_SYNC_TOKEN: 'cli-token' }).getSecret('mcp.github.env.TOKEN')).toBeNull()
  expect(new ProcessSecretStore({}).getSecret('sync.token')).toBeNull()
})
