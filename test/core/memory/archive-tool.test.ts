import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { createMemoryTool } from '../../../electron/core/memory'
import { projectKeyFor } from '../../../electron/core/memory/project-key'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ToolContext } from '../../../electron/core/tools/types'

let home: string
let core: CairnCore
let ctx: ToolContext

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-archive-tool-'))
  writeFileSync(join(home, 'config.json'), JSON.stringify({ memory: { memoryCharLimit: 150 } }))
  core = await CairnCore.open({ home })
  ctx = { write: { source: 'agent', sessionId: 's1' }, turn: newTurnState() }
})
afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

/** The tool as the chat gets it, called the way the agent calls it: schema-validated, one call at a time. */
async function call(args: Record<string, unknown>): Promise<Record<string, any>> {
  const tool = createMemoryTool(core.memory, { enabled: true, userProfileEnabled: true, audience: 'chat' })
  return (await runTool(tool, args, ctx)) as Record<string, any>
}

describe('the memory tool and the archive', () => {
  it('a model that blindly adds to a full memory, one call per response, loses nothing, and finds it again by other words', async () => {
    // A model at its worst: one add per response, never reading first, never consolidating.
    const facts = [
      'The staging server is deployed with make deploy-staging from the ops repo',
      'Database backups run nightly at 02:00 to the NAS called vault',
      'The VPN must be on before ssh to any prod host',
      'Grafana dashboards live at grafana.internal under the Platform folder'
    ]
    const results = []
    for (const content of facts) results.push(await call({ action: 'add', target: 'memory', content }))
    expect(results.every((result) => result.success)).toBe(true)
    expect(results.filter((result) => result.archived).length).toBeGreaterThan(0)
    // The breaker never tripped: nothing failed.
    expect(ctx.turn!.memoryFailures).toBe(0)

    // Reworded: "backup" and "nas" rather than the entry's own phrasing.
    const found = await call({ action: 'search', query: 'where do the nightly backups go? nas' })
    expect(found.success).toBe(true)
    const backup = found.results.find((hit: { text: string }) => hit.text.includes('NAS called vault'))
    expect(backup).toBeDefined()
    expect(backup.id).toMatch(/^(memory:\d+|archive:\d+)$/)
    expect(backup.added).toMatch(/^\d{4}-\d\d-\d\d \(today\)$/)

    const grafana = await call({ action: 'search', query: 'grafana dashboards' })
    const archived = grafana.results.find((hit: { where: string }) => hit.where === 'archive')
    expect(archived).toMatchObject({ where: 'archive', target: 'memory', source: 'overflow', last_recalled: 'never' })
    // Found by the model: it now counts as recalled.
    const id = Number(archived.id.split(':')[1])
    expect(core.archive.get(id)?.lastRecalledAt).not.toBeNull()
  })

  it('search covers both stores without a target, keeps to the workspace’s project, and asks for a query', async () => {
    const workspace = join(home, 'projects', 'shop')
    mkdirSync(workspace, { recursive: true })
    await call({ action: 'add', target: 'user', content: 'Prefers pnpm over npm' })
    core.archive.add({ target: 'memory', text: 'The shop uses pnpm workspaces', projectKey: projectKeyFor(workspace) })
    core.archive.add({ target: 'memory', text: 'The blog uses pnpm too', projectKey: 'blog-0123456789ab' })

    const inShop = await call({ action: 'search', query: 'pnpm' })
    expect(inShop.results.map((hit: { text: string }) => hit.text)).toEqual(['Prefers pnpm over npm'])
    ctx = { ...ctx, workspace }
    const withProject = await call({ action: 'search', query: 'pnpm' })
    expect(withProject.results.map((hit: { where: string; text: string }) => `${hit.where}: ${hit.text}`)).toEqual([
      'core: Prefers pnpm over npm',
      'archive: The shop uses pnpm workspaces'
    ])
    expect(await call({ action: 'search' })).toMatchObject({ success: false, error: expect.stringMatching(/needs query/) })
  })
})
