import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { executeToolCalls } from '../../../electron/core/agent/tool-executor'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore } from '../../../electron/core/sessions'
import { defineTool, newTurnState, type ToolDef } from '../../../electron/core/tools/types'

let dir: string
let db: StateDb
let store: SessionStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-tool-spend-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
  store.create({ id: 's1' })
})

afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A tool that spends the given tokens through its context, as session_search's summaries do. */
function spending(spends: Array<[model: string, prompt: number, completion: number]>): ToolDef {
  return defineTool({
    name: 'spender',
    description: 'spends tokens',
    schema: z.object({}),
    run(_args, ctx) {
      for (const [model, promptTokens, completionTokens] of spends) ctx.recordUsage?.({ promptTokens, completionTokens, cachedTokens: 1 }, model)
      return { success: true }
    }
  })
}

async function run(tool: ToolDef) {
  const [outcome] = await executeToolCalls([{ id: 'c1', name: tool.name, arguments: '{}' }], {
    sessionId: 's1',
    turnId: 't1',
    tools: new Map([[tool.name, tool]]),
    sessions: store,
    emit: () => {},
    context: () => ({ write: { source: 'agent', sessionId: 's1' }, turn: newTurnState() })
  })
  return outcome
}

describe('tokens a tool spends on model calls of its own', () => {
  it('are added up, kept with the tool result under their model and counted into the session', async () => {
    const outcome = await run(spending([['small-model', 300, 20], ['small-model', 200, 10]]))
    expect(outcome.usage).toEqual({ promptTokens: 500, completionTokens: 30, cachedTokens: 2 })
    expect(outcome.record).toMatchObject({ promptTokens: 500, completionTokens: 30, cachedTokens: 2, meta: { model: 'small-model' } })
    expect(store.get('s1')).toMatchObject({ inputTokens: 500, outputTokens: 30 })
  })

  it('name each model with its own share when several spent them', async () => {
    const outcome = await run(spending([['small-model', 300, 20], ['big-model', 50, 5]]))
    expect(outcome.record.promptTokens).toBe(350)
    expect(outcome.record.meta).toEqual({
      usageByModel: {
        'small-model': { promptTokens: 300, completionTokens: 20, cachedTokens: 1 },
        'big-model': { promptTokens: 50, completionTokens: 5, cachedTokens: 1 }
      }
    })
  })

  it('are saved as whole counts when a server reports fractions or junk, so the tool result is never lost', async () => {
    const outcome = await run(spending([['small-model', 300.6, Number.NaN], ['small-model', -5, 10.2]]))
    expect(outcome.record).toMatchObject({ content: '{"success":true}', promptTokens: 301, completionTokens: 10 })
    expect(store.messages('s1').filter((m) => m.role === 'tool')).toHaveLength(1)
  })

  it('leave a tool that spends nothing as it was', async () => {
    const outcome = await run(spending([]))
    expect(outcome.usage).toBeNull()
    expect(outcome.record).toMatchObject({ promptTokens: null, completionTokens: null, cachedTokens: null, meta: null })
  })
})
