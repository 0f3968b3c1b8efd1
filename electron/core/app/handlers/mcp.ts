import { homedir } from 'node:os'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { McpImportSource, McpList } from '../../../../shared/ipc/contract-mcp'
import { IpcError } from '../../../../shared/ipc/define'
import { parseMcpServerConfig } from '../../../../shared/mcp'
import { previewImport, type ImportLocations } from '../../mcp/config-import'
import type { SettingsSlice } from './route-slices'
import {
  dropServer,
  isObject,
  orphanedSecrets,
  putServer,
  referencedSecrets,
  secretsOfImported,
  withSecretRefs,
  withToolFlags,
  type RawServers,
  type SecretWrites
} from './mcp-config'

type McpRoute =
  | 'mcp.list'
  | 'mcp.save'
  | 'mcp.remove'
  | 'mcp.setEnabled'
  | 'mcp.setTool'
  | 'mcp.test'
  | 'mcp.log'
  | 'mcp.reload'
  | 'mcp.importPreview'
  | 'mcp.import'
  | 'mcp.resources'
  | 'mcp.readResource'
  | 'mcp.prompts'
  | 'mcp.getPrompt'
  | 'chat.reloadTools'

/**
 * Settings → Tools (MCP) and the composer's prompts and resources. Every change is written to
 * config.json through the ConfigStore (whole server objects, other keys kept), then the servers are
 * reloaded; secret values go to the secret store and come back only as "kept".
 */
export function mcpHandlers(app: SettingsSlice): Pick<IpcHandlers, McpRoute> {
  const raw = (): RawServers => app.core.config.get().mcpServers
  const secrets = app.options.secrets
  const view = (): McpList => {
    const config = raw()
    const names = [...new Set(Object.values(config).flatMap(referencedSecrets))]
    return { servers: app.mcp.list(), config, keptSecrets: names.filter((name) => secrets.getSecret?.(name) != null) }
  }
  const serverOf = (name: string): Record<string, unknown> => {
    const server = raw()[name]
    if (server === undefined) throw IpcError.of('NOT_FOUND', 'mcp.server_missing', { name })
    if (!isObject(server)) throw IpcError.of('VALIDATION_FAILED', 'mcp.server_not_object', { name })
    return server
  }
  const known = (name: string): void => {
    if (!app.mcp.list().some((server) => server.name === name)) throw IpcError.of('NOT_FOUND', 'mcp.server_missing', { name })
  }
  const writeSecrets = async (writes: SecretWrites): Promise<void> => {
    if (writes.length === 0) return
    if (!secrets.setSecret) throw IpcError.of('UNSUPPORTED', 'mcp.no_secret_store', {})
    for (const [name, value] of writes) await secrets.setSecret(name, value)
  }
  /** Writes the new `mcpServers`, tells the windows, and lets the servers follow. */
  const saveServers = async (change: (servers: RawServers) => RawServers): Promise<McpList> => {
    const config = await app.core.config.edit((file) => ({ ...file, mcpServers: change(isObject(file.mcpServers) ? file.mcpServers : {}) }))
    app.emit('settings.changed', { config })
    await app.mcp.reload()
    return view()
  }

  return {
    'mcp.list': async () => {
      app.mcp.start()
      return view()
    },
    'mcp.save': async ({ name, server, previousName, secrets: values }) => {
      const servers = raw()
      if (previousName !== undefined && !Object.hasOwn(servers, previousName)) throw IpcError.of('NOT_FOUND', 'mcp.server_missing', { name: previousName })
      if ((previousName ?? null) !== name && Object.hasOwn(servers, name)) throw IpcError.of('CONFLICT', 'mcp.server_exists', { name })
      const next = withSecretRefs(name, server, values)
      const parsed = parseMcpServerConfig(next.server)
      if (!parsed.ok) throw IpcError.of('VALIDATION_FAILED', 'mcp.server_invalid', { name, problem: parsed.error })
      await writeSecrets(next.writes)
      const replaced = previousName === undefined ? undefined : servers[previousName]
      await saveServers((current) => putServer(current, name, next.server, previousName))
      // A value given anew (or under a new name) leaves the old secret unused: forget it.
      await writeSecrets(orphanedSecrets(replaced, raw()).map((secret) => [secret, null]))
      return view()
    },
    'mcp.remove': async ({ name }) => {
      const removed = serverOf(name)
      await saveServers((current) => dropServer(current, name))
      await writeSecrets(orphanedSecrets(removed, raw()).map((secret) => [secret, null]))
      return view()
    },
    'mcp.setEnabled': async ({ name, enabled }) => {
      const server = serverOf(name)
      return saveServers((current) => putServer(current, name, { ...server, enabled }))
    },
    'mcp.setTool': async ({ name, tool, enabled, autoApprove }) => {
      const server = serverOf(name)
      return saveServers((current) => putServer(current, name, withToolFlags(server, tool, { enabled, autoApprove })))
    },
    'mcp.test': async ({ name }) => {
      known(name)
      return app.mcp.test(name)
    },
    'mcp.log': async ({ name }) => {
      known(name)
      return { text: app.mcp.readLog(name) }
    },
    'mcp.reload': async () => {
      await app.mcp.reload()
      return view()
    },
    'mcp.importPreview': async ({ from }) => preview(app, from),
    'mcp.import': async ({ from, names, renames = {} }) => {
      const found = preview(app, from).servers
      const picked: Array<{ name: string; server: Record<string, unknown> }> = []
      const taken = new Set(Object.keys(raw()))
      for (const name of names) {
        const candidate = found.find((item) => item.name === name && item.status !== 'invalid' && item.status !== 'identical')
        if (!candidate) continue
        const target = renames[name] ?? name
        if (taken.has(target)) throw IpcError.of('CONFLICT', 'mcp.import_name_taken', { name, target })
        taken.add(target)
        picked.push({ name: target, server: candidate.server })
      }
      const converted = picked.map(({ name, server }) => ({ name, ...withSecretRefs(name, server, secretsOfImported(name, server)) }))
      if (converted.length === 0) return { ...view(), imported: [] }
      await writeSecrets(converted.flatMap((item) => item.writes))
      const list = await saveServers((current) => converted.reduce((servers, item) => putServer(servers, item.name, item.server), current))
      return { ...list, imported: converted.map((item) => item.name) }
    },
    'mcp.resources': async () => app.mcp.listResources(),
    'mcp.readResource': async ({ server, uri }) => {
      known(server)
      return app.mcp.readResource(server, uri)
    },
    'mcp.prompts': async () => app.mcp.listPrompts(),
    'mcp.getPrompt': async ({ server, name, arguments: args }) => {
      known(server)
      return app.mcp.getPrompt(server, name, args)
    },
    'chat.reloadTools': async ({ sessionId }) => {
      await app.chats.reloadTools(sessionId)
      return { ok: true as const }
    }
  }
}

/** Tells every window when a server's state changes (the Settings page and the composer follow it). */
export function watchMcp(app: SettingsSlice): () => void {
  return app.mcp.onChange(() => app.emit('mcp.changed', { servers: app.mcp.list() }))
}

function preview(app: SettingsSlice, from: McpImportSource) {
  const env = app.options.env ?? process.env
  const where: ImportLocations = { home: app.options.userHome ?? homedir(), appData: env.APPDATA, cwd: process.cwd(), platform: process.platform }
  return previewImport(from, where, app.core.config.get().mcpServers, (name) => app.options.secrets.getSecret?.(name) ?? null)
}
