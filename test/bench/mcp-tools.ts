/**
 * What MCP servers cost in every request, and whether the prompt cache survives them. Prints JSON:
 *
 * - `toolDefinitions`: estimated prompt tokens (electron/core/provider/tokens.ts) of the MCP tool
 *   definitions a conversation sends with 0, 1 (server-everything) and 5 real servers connected
 *   (everything over stdio and over Streamable HTTP, filesystem, memory, sequential-thinking), with
 *   the tool search off (`never`: every tool) and on (`always`: mcp_tool_search + mcp_call).
 * - `prefixCache`: a 20-turn conversation with server-everything connected (MCP calls in 8 turns),
 *   through the real agent loop against the scripted provider: Σ cached / Σ prompt tokens as the
 *   scripted server reports them (the longest prefix a request shares with an earlier one, tools first).
 *
 *   npm run bench:mcp
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mcpSettingsSchema, type McpSettings } from '../../shared/mcp'
import { createAgentSession } from '../../electron/core/agent/create-agent'
import { CairnCore } from '../../electron/core/cairn'
import { McpManager } from '../../electron/core/mcp/mcp-manager'
import { estimatePromptTokens } from '../../electron/core/provider/tokens'
import { toolSchema } from '../../electron/core/tools/run-tool'
import { startScriptedServer, type ScriptedReply } from '../scripted-provider'
import { EVERYTHING, FILESYSTEM, MEMORY, SEQUENTIAL_THINKING, everythingStdio, startEverythingHttp } from '../core/mcp/mcp-fixture'

const temp = mkdtempSync(join(tmpdir(), 'cairn-bench-mcp-'))

function manager(servers: Record<string, unknown>, settings: Partial<McpSettings>): McpManager {
  const parsed = mcpSettingsSchema.parse(settings)
  return new McpManager({ servers: () => servers, settings: () => parsed, logDir: join(temp, 'logs'), clientVersion: 'bench' })
}

async function definitions(servers: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  for (const toolSearch of ['never', 'always'] as const) {
    const mcp = manager(servers, { toolSearch })
    mcp.start()
    await mcp.whenSettled(60_000)
    const failed = mcp.list().filter((s) => s.status !== 'ready')
    if (failed.length) throw new Error(`not ready: ${failed.map((s) => `${s.name}: ${s.error?.message}`).join('; ')}`)
    const tools = mcp.conversationTools()
    out[toolSearch === 'never' ? 'searchOff' : 'searchOn'] = {
      servers: mcp.list().length,
      serverTools: mcp.list().reduce((n, s) => n + s.tools.length, 0),
      toolsSent: tools.length,
      estimatedTokens: estimatePromptTokens([], tools.map((tool) => toolSchema(tool)))
    }
    await mcp.close()
  }
  return out
}

const call = (name: string, args: object): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] })

function conversation(search: boolean): Array<{ user: string; replies: ScriptedReply[] }> {
  const run = (name: string, args: object): ScriptedReply => (search ? call('mcp_call', { name, arguments: args }) : call(name, args))
  return Array.from({ length: 20 }, (_, i) => {
    const user = `Question ${i + 1}: ${'tell me about the billing service and its retries. '.repeat(3)}`
    if (i % 5 === 1) return { user, replies: [run('mcp__everything__echo', { message: `note ${i}` }), { text: `Echoed note ${i}.` }] }
    if (i % 5 === 3) return { user, replies: [run('mcp__everything__get-sum', { a: i, b: 2 }), { text: `The sum is ${i + 2}.` }] }
    return { user, replies: [{ text: `Answer ${i + 1}: the service retries with exponential backoff, capped at five attempts.` }] }
  })
}

async function prefixCache(toolSearch: 'never' | 'always'): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(temp, 'home-'))
  const workspace = mkdtempSync(join(temp, 'ws-'))
  writeFileSync(join(workspace, 'README.md'), 'billing service\n')
  const server = await startScriptedServer({ strict: true })
  const core = await CairnCore.open({ home })
  const mcp = manager({ everything: everythingStdio() }, { toolSearch })
  try {
    await core.config.update({ provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 10_000 }, skills: { extraDirs: [] } })
    mcp.start()
    await mcp.whenSettled(60_000)
    const session = createAgentSession({ core, env: { CAIRN_API_KEY: 'sk-bench' }, workspace, autoApprove: true, mcpTools: mcp.conversationTools() })
    let promptTokens = 0
    let cachedTokens = 0
    session.events.on((event) => {
      if (event.type !== 'usage') return
      promptTokens += event.usage.promptTokens
      cachedTokens += event.usage.cachedTokens
    })
    for (const turn of conversation(toolSearch === 'always')) {
      server.enqueue(...turn.replies)
      const summary = await session.runTurn(turn.user).done
      if (summary.reason !== 'completed' || summary.toolCalls.some((c) => !c.ok)) throw new Error(`turn "${turn.user}" ended ${summary.reason}: ${JSON.stringify(summary.toolCalls)}`)
    }
    const requests = server.chatRequests()
    return {
      turns: 20,
      requests: requests.length,
      promptTokens,
      cachedTokens,
      cachedShare: Math.round((cachedTokens / promptTokens) * 10_000) / 10_000,
      systemPromptVersions: new Set(requests.map((r) => JSON.stringify(r.body.messages[0]))).size,
      toolListVersions: new Set(requests.map((r) => JSON.stringify(r.body.tools))).size
    }
  } finally {
    await mcp.close()
    await core.close()
    await server.close()
  }
}

async function main(): Promise<void> {
  const http = await startEverythingHttp('streamableHttp')
  try {
    const five = {
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      'everything-http': { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
      filesystem: { command: process.execPath, args: [FILESYSTEM, temp] },
      memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(temp, 'memory.jsonl') } },
      'sequential-thinking': { command: process.execPath, args: [SEQUENTIAL_THINKING] }
    }
    const toolDefinitions = {
      none: await definitions({}),
      everything: await definitions({ everything: five.everything }),
      fiveServers: await definitions(five)
    }
    const prefix = { searchOff: await prefixCache('never'), searchOn: await prefixCache('always') }
    console.log(JSON.stringify({ toolDefinitions, prefixCache: prefix }, null, 2))
  } finally {
    await http.close()
    rmSync(temp, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
