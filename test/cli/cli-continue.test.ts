import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type RecordedChatRequest, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-continue-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-continue-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-good' })
})
afterEach(async () => {
  await server.close()
})

function cairn(args: string[], env: NodeJS.ProcessEnv = { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good' }) {
  return runCairn(['--home', home, ...args], { cwd: workspace, env })
}

const sessionIdOf = (stderr: string) => /^session: (\S+)$/m.exec(stderr)?.[1]

async function sessionList(): Promise<Array<{ id: string; messageCount: number }>> {
  return JSON.parse((await cairn(['sessions', '--json'])).stdout)
}

describe('cairn chat --continue', () => {
  it('resumes the latest conversation, with what was said in it', async () => {
    server.enqueue({ text: 'Old one.' }, { text: 'Newest.' }, { text: 'Your last question was about Lisbon.' })
    await cairn(['chat', 'Tell me about Porto.'])
    const latest = await cairn(['chat', 'Tell me about Lisbon.'])
    const resumed = await cairn(['chat', 'What did I just ask?', '--continue'])
    expect(resumed.code).toBe(0)
    expect(resumed.stdout).toBe('Your last question was about Lisbon.\n')
    expect(sessionIdOf(resumed.stderr)).toBe(sessionIdOf(latest.stderr))
    // The resumed chat's request (a review a chat leaves running at exit may come later).
    const chats = server.chatRequests().filter((request: RecordedChatRequest) => !isReviewRequest(request))
    const sent = chats.find((request) => request.body.messages.some((m) => m.content === 'What did I just ask?'))!.body.messages.map((m) => m.content)
    expect(sent).toContain('Tell me about Lisbon.')
    expect(sent).toContain('Newest.')
    expect(sent).not.toContain('Tell me about Porto.')
    const sessions = await sessionList()
    expect(sessions).toHaveLength(2)
    expect(sessions[0]).toMatchObject({ id: sessionIdOf(latest.stderr), messageCount: 4 })
  })

  it('says there is nothing to continue on an empty data home', async () => {
    const run = await cairn(['chat', 'hello', '--continue'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('There is no conversation to continue yet. Start one with: cairn chat "hello"')
    expect(await sessionList()).toEqual([])
  })

  it('refuses --continue together with --session', async () => {
    const run = await cairn(['chat', 'hello', '--continue', '--session', 'x'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Give --session ID or --continue, not both.')
  })
})

// Issue 29 part A: as in the app, a failed first turn keeps its conversation (the prompt is not lost),
// marked not answered; the same prompt run again answers that conversation instead of adding another.
describe('a failed first turn', () => {
  it('keeps its conversation, marked not answered, when no model is chosen, and says how to fix it', async () => {
    const run = await cairn(['chat', 'hello'], { CAIRN_BASE_URL: server.url, CAIRN_API_KEY: 'sk-good' })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('No model is chosen.')
    expect(run.stderr).toContain('Or set provider.model in config.json, or CAIRN_MODEL.')
    expect(run.stderr).toContain(`Nothing was answered. The conversation is kept (session ${sessionIdOf(run.stderr)})`)
    expect(await sessionList()).toMatchObject([{ id: sessionIdOf(run.stderr), messageCount: 1, title: 'hello' }])
    expect((await cairn(['sessions'])).stdout).toMatch(/1 msgs {2}hello {2}\[Not answered\]\n/)
  })

  it('when the key is refused, names the fix, and the same prompt run again answers that conversation', async () => {
    const failed = await cairn(['chat', 'hello'], { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-bad' })
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain(`cairn: The provider at ${server.url} rejected the API key.\n`)
    expect(failed.stderr).toContain('To fix: export CAIRN_API_KEY=<your key> (or OPENAI_API_KEY), then send it again.')
    server.enqueue({ text: 'Hi.' }, { text: 'Still here.' })
    const first = await cairn(['chat', 'hello'])
    expect(first.code).toBe(0)
    expect(first.stdout).toBe('Hi.\n')
    expect(sessionIdOf(first.stderr)).toBe(sessionIdOf(failed.stderr))
    expect(await sessionList()).toMatchObject([{ id: sessionIdOf(failed.stderr), messageCount: 2 }])
    const resumed = await cairn(['chat', 'again', '--continue'])
    expect(sessionIdOf(resumed.stderr)).toBe(sessionIdOf(first.stderr))
  })

  it('is answered only from the folder it was asked in', async () => {
    const failed = await cairn(['chat', 'hello'], { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-bad' })
    expect(failed.code).toBe(1)
    server.enqueue({ text: 'Hi from elsewhere.' }, { text: 'Hi here.' })
    const other = mkdtempSync(join(tmpdir(), 'cairn-continue-other-'))
    const elsewhere = await runCairn(['--home', home, 'chat', 'hello'], { cwd: other, env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good' } })
    expect(elsewhere.code).toBe(0)
    expect(sessionIdOf(elsewhere.stderr)).not.toBe(sessionIdOf(failed.stderr))
    const here = await cairn(['chat', 'hello'])
    expect(here.stdout).toBe('Hi here.\n')
    expect(sessionIdOf(here.stderr)).toBe(sessionIdOf(failed.stderr))
  })

  it('on a model the provider lacks is answered on the model set before the same prompt runs again', async () => {
    await server.close()
    server = await startScriptedServer({ strict: true, apiKey: 'sk-good', models: ['good'] })
    const failed = await cairn(['chat', 'hello'], { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'bad', CAIRN_API_KEY: 'sk-good' })
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('"bad"')
    server.enqueue({ text: 'Hi on good.' })
    const again = await cairn(['chat', 'hello'], { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'good', CAIRN_API_KEY: 'sk-good' })
    expect(again.code).toBe(0)
    expect(again.stdout).toBe('Hi on good.\n')
    expect(sessionIdOf(again.stderr)).toBe(sessionIdOf(failed.stderr))
    const chats = server.chatRequests().filter((request: RecordedChatRequest) => !isReviewRequest(request))
    expect(chats.at(-1)!.body.model).toBe('good')
  })

  it('of a resumed conversation keeps the conversation', async () => {
    server.enqueue({ text: 'Hi.' })
    await cairn(['chat', 'hello'])
    const failed = await cairn(['chat', 'again', '--continue'], { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-bad' })
    expect(failed.code).toBe(1)
    expect(failed.stderr).not.toContain('Nothing was answered')
    expect(await sessionList()).toMatchObject([{ messageCount: 3 }])
  })
})
