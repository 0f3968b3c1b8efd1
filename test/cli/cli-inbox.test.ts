import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type RecordedChatRequest, type ScriptedReply, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { runCairn } from '../helpers/run-cli'

let home: string
let server: ScriptedServer
let chat: ScriptedReply[]
let review: ScriptedReply[]

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-inbox-'))
  chat = []
  review = []
  server = await startScriptedServer({ strict: true, respond: (req: RecordedChatRequest) => (isReviewRequest(req) ? review.shift() : chat.shift()) })
})
afterEach(async () => {
  await server.close()
})

const env = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' })
const cairn = (...args: string[]) => runCairn(['--home', home, ...args], { env: env(), cwd: home })
const config = (learning: Record<string, unknown>) => writeFileSync(join(home, 'config.json'), JSON.stringify({ learning, skills: { extraDirs: [] } }))
const addUser = (content: string) => ({ name: 'memory', arguments: { action: 'add', target: 'user', content } })
const userFile = () => (existsSync(join(home, 'memories', 'USER.md')) ? readFileSync(join(home, 'memories', 'USER.md'), 'utf8') : '')

describe('cairn inbox', () => {
  it('a review under mode ask leaves its changes in the Inbox; list, show, approve and reject them', async () => {
    config({ mode: 'ask' })
    chat.push({ text: 'Noted: green tea, and you work late.' })
    review.push({ toolCalls: [addUser('Prefers green tea.')] }, { toolCalls: [addUser('Works late at night.')] }, { text: 'Proposed two preferences.' })
    const chatRun = await cairn('chat', 'I prefer green tea over coffee.', '--wait')
    expect(chatRun.code).toBe(0)
    expect(chatRun.stderr).toMatch(/📥 2 changes wait in the Inbox \(cairn inbox\)/)
    expect(userFile()).toBe('')

    const listed = await cairn('inbox')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^#1 +just now +Profile: add "Prefers green tea\." +ask mode$/m)
    expect(listed.stdout).toMatch(/^#2 +just now +Profile: add "Works late at night\." +ask mode$/m)
    expect(listed.stdout).toMatch(/2 waiting\. See one: cairn inbox show <id>/)
    const json = JSON.parse((await cairn('inbox', '--json')).stdout)
    expect(json).toMatchObject([
      { id: 1, kind: 'memory.add', target: 'memories/USER.md', after: 'Prefers green tea.', state: 'pending', stale: false, cause: 'ask_mode' },
      { id: 2, after: 'Works late at night.' }
    ])

    const shown = await cairn('inbox', 'show', '1')
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/^Proposal #1 \(pending\)$/m)
    expect(shown.stdout).toMatch(/^Reviewer: Proposed two preferences\.$/m)
    expect(shown.stdout).toContain('--- /dev/null\n+++ b/memories/USER.md\n@@ -0,0 +1,1 @@\n+Prefers green tea.')
    expect(shown.stdout).not.toContain('\u001b[') // not a terminal: no colour

    const approved = await cairn('inbox', 'approve', '1')
    expect(approved.code).toBe(0)
    expect(approved.stdout).toMatch(/^Approved #1: Profile: add "Prefers green tea\." \(timeline #\d+; undo with: cairn revert \d+\)$/m)
    expect(userFile()).toBe('Prefers green tea.')
    const rejected = await cairn('inbox', 'reject', '#2')
    expect(rejected).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Rejected #2: .*Later reviews will not propose it again\.$/m) })
    expect(userFile()).toBe('Prefers green tea.')
    expect((await cairn('inbox')).stdout).toBe('Nothing waits in the Inbox.\n')

    const again = await cairn('inbox', 'approve', '1')
    expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/Proposal #1 was already decided \(approved\)/) })
    const unknown = await cairn('inbox', 'reject', '99')
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/There is no proposal #99/) })
    expect((await cairn('inbox', 'approve', 'first')).code).toBe(2)
  })

  it("a proposed patch of the user's own skill goes stale when the file changes: listed STALE, refused, left as the user wrote it", async () => {
    config({ mode: 'auto' })
    const dir = join(home, 'skills', 'deploy')
    mkdirSync(dir, { recursive: true })
    const skill = ['---', 'name: deploy', 'description: Deploy the site.', '---', '# Deploy', '1. Copy with rsync.', ''].join('\n')
    writeFileSync(join(dir, 'SKILL.md'), skill)
    chat.push({ text: 'Done.' })
    expect((await cairn('chat', 'Deploy the site.')).code).toBe(0)
    review.push(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: 'deploy', old_string: '1. Copy with rsync.', new_string: '1. Copy with `rsync -a --delete`.' } }] },
      { text: 'Improved the rsync step.' }
    )
    const reviewed = await cairn('review', '--wait')
    expect(reviewed.code).toBe(0)
    expect(reviewed.stderr).toMatch(/📥 1 change waits in the Inbox \(cairn inbox\)/)
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(skill)
    const shown = await cairn('inbox', 'show', '1')
    expect(shown.stdout).toMatch(/^Why: +your skill$/m)
    expect(shown.stdout).toContain('-1. Copy with rsync.\n+1. Copy with `rsync -a --delete`.')

    const mine = skill.replace('1. Copy with rsync.', '1. Copy with scp.')
    writeFileSync(join(dir, 'SKILL.md'), mine)
    expect((await cairn('inbox')).stdout).toMatch(/^#1 .*Skill "deploy": patch SKILL\.md +your skill +STALE \(changed since\)$/m)
    const refused = await cairn('inbox', 'approve', '--all')
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/Proposal #1 is stale: skills\/deploy\/SKILL\.md changed since it was proposed/) })
    expect(refused.stderr).toMatch(/1 of 1 was not applied and still waits in the Inbox/)
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(mine)
    // Reviewed again, the change is proposed for the file as the user left it.
    review.push(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: 'deploy', old_string: '1. Copy with scp.', new_string: '1. Copy with `rsync -a --delete`.' } }] },
      { text: 'Improved the copy step again.' }
    )
    const again = await cairn('inbox', 'rereview', '1', '--wait')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/^Set #1 aside; reviewing it again/m)
    const listed = await cairn('inbox')
    expect(listed.stdout).not.toMatch(/^#1 /m)
    expect(listed.stdout).toMatch(/^#2 .*Skill "deploy": patch SKILL\.md +your skill$/m)
    expect((await cairn('inbox', 'reject', '2')).code).toBe(0)
  })
})
