import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAgentSession, type CreateAgentOptions } from '../../../electron/core/agent/create-agent'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture
let other: string

beforeEach(async () => {
  fx = await agentFixture()
  other = mkdtempSync(join(tmpdir(), 'cairn-ws-other-'))
})
afterEach(async () => {
  await fx.close()
  rmSync(other, { recursive: true, force: true })
})

const writeNote = (path: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] })

/** One turn that writes `name` with `content`, in a session opened with `options`. */
async function writeTurn(options: Omit<CreateAgentOptions, 'core'>, name: string, content: string) {
  fx.server.enqueue(writeNote(name, content), { text: 'Written.' })
  const session = createAgentSession({ core: fx.core, env: fx.env, autoApprove: true, ...options })
  const summary = await session.runTurn(`write ${name}`).done
  expect(summary.reason).toBe('completed')
  return session
}

const systemPromptOf = (id: string) => fx.core.sessions.get(id)?.systemPrompt ?? ''

describe('the workspace of a conversation', () => {
  it('is stored with a new session, and a resumed session works there again whatever folder its caller is in', async () => {
    const first = await writeTurn({ workspace: fx.workspace }, 'plan.md', 'step one')
    expect(readFileSync(join(fx.workspace, 'plan.md'), 'utf8')).toBe('step one')
    expect(fx.core.sessions.get(first.id)?.workspace).toBe(fx.workspace)
    expect(systemPromptOf(first.id)).toContain(`Workspace folder: ${fx.workspace}`)

    // Resumed from somewhere else (a CLI started in another folder): it keeps its own folder.
    const resumed = await writeTurn({ workspace: other, sessionId: first.id }, 'plan.md', 'step two')
    expect(resumed.id).toBe(first.id)
    expect(readFileSync(join(fx.workspace, 'plan.md'), 'utf8')).toBe('step two')
    expect(existsSync(join(other, 'plan.md'))).toBe(false)
    expect(fx.core.sessions.get(first.id)?.workspace).toBe(fx.workspace)
  })

  it('moves when asked: the next turn writes in the new folder and the prompt names it', async () => {
    const first = await writeTurn({ workspace: fx.workspace }, 'a.txt', 'A')
    await writeTurn({ workspace: other, moveWorkspace: true, sessionId: first.id }, 'b.txt', 'B')
    expect(readFileSync(join(other, 'b.txt'), 'utf8')).toBe('B')
    expect(existsSync(join(fx.workspace, 'b.txt'))).toBe(false)
    expect(fx.core.sessions.get(first.id)?.workspace).toBe(other)
    const prompt = systemPromptOf(first.id)
    expect(prompt).toContain(`Workspace folder: ${other}`)
    expect(prompt).not.toContain(fx.workspace)
    // The model got the new prompt with the old conversation.
    const messages = fx.server.lastChatRequest()!.body.messages as Array<{ role: string; content: string }>
    expect(messages[0].content).toContain(`Workspace folder: ${other}`)
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([expect.stringContaining('write a.txt'), expect.stringContaining('write b.txt')])
  })

  it('is filled in for a session from before workspaces, from the folder its caller works in', async () => {
    const old = fx.core.sessions.create({ source: 'cli', systemPrompt: 'You are Cairn.\nWorkspace folder: /somewhere/unknown' })
    expect(old.workspace).toBeNull()
    await writeTurn({ workspace: other, sessionId: old.id }, 'c.txt', 'C')
    expect(readFileSync(join(other, 'c.txt'), 'utf8')).toBe('C')
    expect(fx.core.sessions.get(old.id)?.workspace).toBe(other)
    expect(systemPromptOf(old.id)).toContain(`Workspace folder: ${other}`)
  })
})
