import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import type { RouteInput } from '../../../shared/ipc/contract'
import { dispatch } from '../../../electron/core/app/router'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { until } from '../../helpers/review-fixture'

let fx: AppFixture | undefined
let scratch: string
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-app-ws-'))
})
afterEach(async () => {
  await fx?.close()
  fx = undefined
  rmSync(scratch, { recursive: true, force: true })
})

type Approval = Extract<AgentEvent, { type: 'approval_needed' }>
const writeFile = (path: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] })
const approvals = (app: AppFixture) => app.events.filter((e) => e.name === 'chat.event' && (e.payload as AgentEvent).type === 'approval_needed').map((e) => e.payload as Approval)
const ended = (app: AppFixture, sessionId: string) =>
  app.events.filter((e) => e.name === 'chat.status' && (e.payload as { sessionId: string; running: boolean }).sessionId === sessionId && !(e.payload as { running: boolean }).running).length

/** Sends a message and answers each write approval with yes until the turn has ended; returns the session id. */
async function turn(app: AppFixture, input: RouteInput<'chat.send'>): Promise<string> {
  const asked = approvals(app).length
  const { sessionId } = await app.ok('chat.send', input)
  const before = ended(app, sessionId)
  let answered = asked
  await until(() => {
    for (const approval of approvals(app).slice(answered)) {
      answered++
      void app.ok('chat.approve', { sessionId, requestId: approval.requestId, allow: true })
    }
    return ended(app, sessionId) > before
  }, 'the turn to end')
  return sessionId
}

describe('the workspace of an app conversation', () => {
  it('is a Cairn folder in the home by default, made on first use, stored with the conversation', async () => {
    fx = await appFixture()
    const cairn = join(fx.userHome, 'Cairn')
    expect(await fx.ok('app.info')).toMatchObject({ defaultWorkspace: cairn })
    expect(existsSync(cairn)).toBe(false)

    fx.server.enqueue(writeFile('notes.md', 'first note'), { text: 'Saved.' })
    const sessionId = await turn(fx, { sessionId: null, text: 'take a note' })
    expect(readFileSync(join(cairn, 'notes.md'), 'utf8')).toBe('first note')
    const { session } = await fx.ok('sessions.get', { sessionId })
    expect(session.workspace).toBe(cairn)
    expect((await fx.ok('sessions.list', {})).sessions[0].workspace).toBe(cairn)
  })

  it('follows agent.workspace from config.json as the default', async () => {
    fx = await appFixture()
    await fx.ok('settings.update', { patch: { agent: { workspace: join(scratch, 'projects') } } })
    expect(await fx.ok('app.info')).toMatchObject({ defaultWorkspace: join(scratch, 'projects') })
  })

  it('takes the folder chosen for a new conversation in chat.send, and refuses one for a conversation that exists', async () => {
    fx = await appFixture()
    const chosen = join(scratch, 'site')
    fx.server.enqueue(writeFile('index.html', '<h1>hi</h1>'), { text: 'Done.' })
    const sessionId = await turn(fx, { sessionId: null, text: 'make a page', workspace: chosen })
    expect(readFileSync(join(chosen, 'index.html'), 'utf8')).toBe('<h1>hi</h1>')
    expect(existsSync(join(fx.userHome, 'Cairn'))).toBe(false)
    expect((await fx.ok('sessions.get', { sessionId })).session.workspace).toBe(chosen)

    const again = await fx.call('chat.send', { sessionId, text: 'more', workspace: scratch })
    expect(again).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    if (!again.ok) expect(again.error.message).toMatch(/workspace: only a new conversation takes a workspace/)
    const refused = await fx.call('chat.send', { sessionId: null, text: 'here?', workspace: 'relative/folder' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'WORKSPACE', params: { problem: 'not_absolute' } } })
    expect((await fx.ok('sessions.list', {})).sessions.length).toBe(1)
  })

  it('refuses, in sessions.setWorkspace, a relative path, a file, the app’s own folders and the data home, saying why', async () => {
    const appDir = join(scratch, 'opt', 'Cairn')
    mkdirSync(join(appDir, 'resources'), { recursive: true })
    fx = await appFixture({ forbiddenWorkspaceRoots: [appDir] })
    const { id: sessionId } = fx.core.sessions.create({ source: 'browser', workspace: scratch })
    writeFileSync(join(scratch, 'a-file.txt'), 'x')

    const problem = async (path: string) => {
      const result = await fx!.call('sessions.setWorkspace', { sessionId, path })
      return result.ok ? 'accepted' : { code: result.error.code, ...result.error.params }
    }
    expect(await problem('projects')).toMatchObject({ code: 'WORKSPACE', problem: 'not_absolute', path: 'projects' })
    expect(await problem(join(scratch, 'a-file.txt'))).toMatchObject({ code: 'WORKSPACE', problem: 'not_folder' })
    expect(await problem(join(appDir, 'resources'))).toMatchObject({ code: 'WORKSPACE', problem: 'forbidden', root: appDir })
    expect(await problem(join(appDir, 'new-folder'))).toMatchObject({ problem: 'forbidden' })
    expect(existsSync(join(appDir, 'new-folder'))).toBe(false)
    expect(await problem(join(fx.home, 'memories'))).toMatchObject({ problem: 'forbidden', root: fx.home })
    expect(await problem('/tmp/bad\0name')).toMatchObject({ code: 'VALIDATION_FAILED' })
    expect(fx.core.sessions.get(sessionId)?.workspace).toBe(scratch)

    expect(await fx.call('sessions.setWorkspace', { sessionId: 'no-such-session', path: scratch })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    // For a conversation not started yet: checked and made, nothing stored.
    expect(await fx.ok('sessions.setWorkspace', { sessionId: null, path: join(scratch, 'later') })).toEqual({ path: join(scratch, 'later') })
    expect(existsSync(join(scratch, 'later'))).toBe(true)
  })

  it('moves a live conversation from its next turn on; a turn already running finishes where it started', async () => {
    fx = await appFixture()
    const first = join(scratch, 'first')
    const second = join(scratch, 'second')
    mkdirSync(second)
    fx.server.enqueue(writeFile('a.txt', 'A'), { text: 'Wrote a.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'write a', workspace: first })
    const pending = (await fx.waitFor('chat.event', (e) => e.type === 'approval_needed')) as Approval

    // Changed while the turn waits for approval: the change is stored at once, the turn stays where it was.
    expect(await fx.ok('sessions.setWorkspace', { sessionId, path: second })).toEqual({ path: second })
    expect((await fx.ok('sessions.get', { sessionId })).session.workspace).toBe(second)
    expect(fx.events.some((e) => e.name === 'sessions.changed')).toBe(true)
    const before = ended(fx, sessionId)
    await fx.ok('chat.approve', { sessionId, requestId: pending.requestId, allow: true })
    await until(() => ended(fx!, sessionId) > before, 'the first turn to end')
    expect(readFileSync(join(first, 'a.txt'), 'utf8')).toBe('A')

    fx.server.enqueue(writeFile('b.txt', 'B'), { text: 'Wrote b.' })
    await turn(fx, { sessionId, text: 'write b' })
    expect(readFileSync(join(second, 'b.txt'), 'utf8')).toBe('B')
    expect(existsSync(join(first, 'b.txt'))).toBe(false)
    const system = (fx.server.lastChatRequest()!.body.messages as Array<{ role: string; content: string }>)[0]
    expect(system.content).toContain(`Workspace folder: ${second}`)
    expect(system.content).not.toContain(first)
    // The conversation itself went on: both turns are in it.
    const { messages } = await fx.ok('sessions.get', { sessionId })
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['write a', 'write b'])
  })

  it('has no folder picker in browser mode: the page types the path instead', async () => {
    fx = await appFixture()
    expect(await fx.call('window.pickFolder', {})).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } })
  })

  it('leaves choosing a folder to the main window: the quick prompt starts in the default one', async () => {
    fx = await appFixture()
    const quick = (route: string, input: unknown) => dispatch(fx!.app.handlers, route, input, { sender: 'quick' })
    expect(await quick('chat.send', { sessionId: null, text: 'hi', workspace: scratch })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    expect(await quick('sessions.setWorkspace', { sessionId: null, path: scratch })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    expect(await quick('window.pickFolder', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    expect(fx.core.sessions.list()).toEqual([])
  })
})
