import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { IpcRoute, RouteInput } from '../../shared/ipc/contract'
import { until } from '../helpers/review-fixture'

/** What the route samples need from the smoke test's running shell. */
export interface SampleContext {
  sessionId: string
  apiKey: string
  userHome: string
  latestLedgerId(): number
  chatIdle(sessionId: string): Promise<void>
  events(name: string): any[]
}

/**
 * One input per route of the contract, in the order the smoke test sends them (a chat first, the
 * reviews and curation it starts last), each safe to send to the built shell.
 */
export function routeSamples(ctx: SampleContext): { [R in IpcRoute]: () => RouteInput<R> | Promise<RouteInput<R>> } {
  const { sessionId, userHome, latestLedgerId, chatIdle, events } = ctx
  const API_KEY = ctx.apiKey
  return {
    'app.info': () => undefined,
    'settings.get': () => undefined,
    'settings.update': () => ({ patch: { ui: { theme: 'dark' } } }),
    'settings.setApiKey': () => ({ apiKey: API_KEY }),
    'settings.testConnection': () => ({}),
    'settings.detectLocal': () => undefined,
    // The desktop app keeps its keys in the keyring: this changes nothing there.
    'settings.rememberSecrets': () => ({ remember: false }),
    'memory.get': () => undefined,
    'memory.add': () => ({ target: 'user', content: 'Deploys with docker compose' }),
    'memory.replace': () => ({ target: 'user', oldText: 'docker compose', content: 'Deploys with docker compose v2' }),
    'memory.remove': () => ({ target: 'user', text: 'compose v2' }),
    'memory.setPinned': () => ({ target: 'user', text: 'no such entry', pinned: true }),
    'memory.history': () => ({ target: 'user' }),
    'memory.restore': () => ({ ledgerId: latestLedgerId() }),
    'memory.setHidden': () => ({ target: 'user', text: 'no such entry', hidden: true }),
    'memory.visibilityHistory': () => ({ target: 'user', entry: 'compose v2' }),
    // Issue 28, part B
    'memory.project': () => ({ workspace: userHome }),
    'workspace.instructions': () => ({ workspace: userHome }),
    'workspace.openInstructions': () => ({ workspace: userHome, file: 'AGENTS.md' }),
    'memory.search': () => ({ query: 'docker compose' }),
    'archive.list': () => ({}),
    'archive.setHidden': () => ({ id: 999_999, hidden: true }),
    'archive.restore': () => ({ id: 999_999 }),
    'archive.remove': () => ({ id: 999_999 }),
    'prompts.list': () => undefined,
    'prompts.save': () => ({ name: 'smoke-prompt', description: 'From the smoke test', variables: [], body: 'Say {{what}} twice.' }),
    'prompts.delete': () => ({ name: 'smoke-prompt' }),
    'timeline.list': () => ({}),
    'timeline.get': () => ({ id: latestLedgerId() }),
    'timeline.revert': () => ({ id: latestLedgerId() }),
    'skills.list': () => undefined,
    'skills.get': () => ({ name: 'no-such-skill' }),
    'skills.history': () => ({ name: 'no-such-skill' }),
    'skills.setFlags': () => ({ name: 'no-such-skill', pinned: true }),
    'skills.restore': () => ({ name: 'no-such-skill', ledgerId: latestLedgerId() }),
    'skills.create': () => ({ name: 'no such skill', category: null, description: 'An invalid name', body: '' }),
    'skills.saveFile': () => ({ name: 'no-such-skill', content: '---\nname: no-such-skill\n---\n', expected: '' }),
    'skills.archive': () => ({ name: 'no-such-skill' }),
    'skills.openFolder': () => ({ name: 'no-such-skill' }),
    'inbox.list': () => ({}),
    'inbox.get': () => ({ id: 999_999 }),
    'inbox.approve': () => ({ id: 999_999 }),
    'inbox.reject': () => ({ id: 999_999 }),
    'inbox.rereview': () => ({ id: 999_999 }),
    'inbox.approveAll': () => ({}),
    'sessions.list': () => ({}),
    'sessions.get': () => ({ sessionId }),
    'sessions.messages': () => ({ sessionId, before: 1_000_000, limit: 50 }),
    'sessions.search': () => ({ query: 'docker' }),
    'sessions.rename': () => ({ sessionId, title: 'Deploying' }),
    'sessions.setFlags': () => ({ sessionId, pinned: true }),
    'sessions.export': () => ({ sessionId, format: 'md' }),
    'sessions.setWorkspace': () => ({ sessionId, path: join(userHome, 'Cairn') }),
    'sessions.setModel': () => ({ sessionId, model: 'scripted' }),
    'sessions.setInstructions': () => ({ sessionId, instructions: 'Answer briefly.' }),
    'models.list': () => ({}),
    'mcp.list': () => undefined,
    // Disabled: saved and edited in config.json without starting a program.
    'mcp.save': () => ({ name: 'sample', server: { command: 'node', args: ['--version'], enabled: false }, secrets: { env: { TOKEN: 'sample-secret' } } }),
    'mcp.setTool': () => ({ name: 'sample', tool: 'echo', autoApprove: true }),
    'mcp.setEnabled': () => ({ name: 'sample', enabled: false }),
    'mcp.test': () => ({ name: 'no-such-server' }),
    'mcp.log': () => ({ name: 'no-such-server' }),
    'mcp.reload': () => undefined,
    'mcp.remove': () => ({ name: 'sample' }),
    'mcp.importPreview': () => ({ from: 'claude-desktop' }),
    'mcp.import': () => ({ from: 'claude-code', names: ['no-such-server'] }),
    'mcp.resources': () => undefined,
    'mcp.readResource': () => ({ server: 'no-such-server', uri: 'test://static/resource/1' }),
    'mcp.prompts': () => undefined,
    'mcp.getPrompt': () => ({ server: 'no-such-server', name: 'simple_prompt', arguments: {} }),
    'backup.status': () => undefined,
    // Scheduling stays off: the smoke home is backed up only by the explicit run.
    'backup.setSchedule': () => ({ everyDays: 0, keep: 3, folder: '' }),
    'backup.run': () => undefined,
    'import.sources': () => undefined,
    'import.status': () => undefined,
    'import.list': () => undefined,
    'import.pick': () => ({ source: 'chatgpt' }),
    // An empty ChatGPT export: previewed and imported (in the background) with nothing to bring in.
    'import.preview': () => ({ source: 'chatgpt', path: emptyExport(userHome) }),
    'import.run': () => ({ source: 'chatgpt', path: emptyExport(userHome) }),
    'import.undo': () => ({ id: 999_999 }),
    'import.learn': () => ({ importId: 999_999 }),
    'import.learnCancel': () => undefined,
    'sync.status': () => undefined,
    'sync.setSchedule': () => ({ everyMinutes: 15 }),
    'sync.setToken': () => ({ token: null }),
    // Not set up: answers with the status (not_set_up is not recorded); nothing reaches a network.
    'sync.run': () => undefined,
    // Unreachable: answers ok:false (network) and puts everything back.
    'sync.setup': () => ({ remote: 'http://127.0.0.1:9/cairn-sync.git' }),
    'sync.leave': () => undefined,
    'search.status': () => undefined,
    // Off (no embedding model): both answer with the status, and nothing is embedded.
    'search.fillMeaning': () => undefined,
    'search.pauseMeaning': () => undefined,
    // Nothing listens on port 9: answers ok:false (unreachable) at once.
    'search.testEmbedding': () => ({ model: 'nomic-embed-text', baseURL: 'http://127.0.0.1:9/v1', dimensions: 0 }),
    'chat.reloadTools': () => ({ sessionId }),
    'chat.attach': () => ({ sessionId }),
    'chat.discard': () => ({ sessionId }),
    'chat.approve': () => ({ sessionId, requestId: 'no-such-request', allow: false }),
    'chat.send': () => ({ sessionId, text: 'And staging too.' }),
    'chat.cancel': () => ({ sessionId }),
    'chat.regenerate': async () => {
      await chatIdle(sessionId)
      return { sessionId }
    },
    // Ids that are not in the conversation: refused (NOT_FOUND) before any turn starts.
    'chat.edit': () => ({ sessionId, messageId: 999_999_999, text: 'Edited.' }),
    'chat.showVersion': () => ({ sessionId, branchId: 999_999_999 }),
    'learning.status': () => undefined,
    'learning.setEnabled': () => ({ enabled: true }),
    'learning.resume': () => undefined,
    'learning.setMode': () => ({ mode: 'auto' }),
    'learning.fates': () => ({ reviewIds: ['no-such-review'] }),
    'learning.reviewNow': async () => {
      await chatIdle(sessionId)
      return { sessionId }
    },
    'window.openMain': () => ({ sessionId }),
    'window.hideQuick': () => undefined,
    'shell.openExternal': () => ({ url: 'https://example.com/guide' }),
    'window.pickFolder': () => ({}),
    'sessions.delete': async () => {
      await chatIdle(sessionId)
      await until(() => events('review.event').filter((event) => event.type === 'review_finished' || event.type === 'review_failed').length >= 2, 'the second review to end', 60_000)
      return { sessionId }
    },
    // Last: the curation it queues must not take a scripted answer meant for the reviews above.
    'learning.curate': () => undefined,
    'memoryProvider.status': () => undefined,
    'memoryProvider.search': () => ({ query: 'tea' }),
    'memoryProvider.forget': () => ({ id: 'm-1' }),
    // Issue 29, part E: its first message carries no image (NOT_FOUND).
    'attachments.image': () => ({ sessionId, messageId: 1, index: 0 })
  
  }
}

/** A ChatGPT export with no conversations, in the smoke test's user home. */
function emptyExport(userHome: string): string {
  const path = join(userHome, 'conversations.json')
  writeFileSync(path, '[]')
  return path
}
