import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type RecordedChatRequest, type ScriptedReply, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { runBuiltCairn } from '../helpers/run-cli'
import { startPty } from './pty-terminal'

const root = join(__dirname, '..', '..')
// The bundle the `cairn` command is (with its markdown renderer beside it), built fresh into out/<temp>,
// two levels below the checkout as out/cli is.
let outdir: string
let bundle: string
beforeAll(() => {
  outdir = mkdtempSync(join(root, 'out', 'cli-pty-'))
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), outdir])
  bundle = join(outdir, 'cairn.js')
})
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

let home: string
let workspace: string
let server: ScriptedServer
let chat: ScriptedReply[]
let review: ScriptedReply[]
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-pty-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-pty-ws-'))
  chat = []
  review = []
  server = await startScriptedServer({
    strict: true,
    apiKey: 'sk-good',
    models: ['scripted', 'scripted-large'],
    respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? review.shift() : chat.shift())
  })
})
afterEach(async () => {
  await server.close()
})

const env = (extra: NodeJS.ProcessEnv = {}) => ({
  PATH: process.env.PATH,
  HOME: home,
  TERM: 'xterm-256color',
  CAIRN_BASE_URL: server.url,
  CAIRN_MODEL: 'scripted',
  CAIRN_API_KEY: 'sk-good',
  ...extra
})
const repl = (extra: NodeJS.ProcessEnv = {}) => startPty(bundle, ['--home', home, 'chat'], { cwd: workspace, env: env(extra) })
const chatRequests = () => server.requests.filter((request) => request.path.endsWith('/chat/completions') && !isReviewRequest(request as RecordedChatRequest))
const lastUserText = (request: { body: unknown }) => (request.body as { messages: Array<{ role: string; content: unknown }> }).messages.filter((m) => m.role === 'user').at(-1)?.content

const MARKDOWN_ANSWER = 'Here is **bold** text.\n\n- first item\n- second item\n\n```\nnpm test\n```\n\nDone.'
const BOLD = '\x1b[1m'

describe('cairn chat on a terminal (through a pseudo-terminal)', () => {
  it('renders answers as markdown, and /model, /inbox, /new and ↑ history work', async () => {
    chat.push({ text: MARKDOWN_ANSWER }, { text: 'Now from the large one.' }, { text: 'A new conversation.' })
    const term = repl()
    await term.waitFor(/\/help lists the commands/)

    term.type('Show me some markdown\r')
    const answer = await term.waitFor(/Done\./)
    expect(answer).toContain(`${BOLD}bold`)
    expect(answer).not.toContain('**bold**')
    expect(answer).not.toContain('```')
    expect(term.text()).toMatch(/\* first item\r?\n\s+\* second item/)
    expect(term.text()).toContain('npm test')

    term.type('/help\r')
    await term.waitFor(/\/inbox +the changes learning proposed/)

    term.type('/model\r')
    const report = stripped(await term.waitFor(/Switch with: \/model NAME/))
    expect(report).toContain('Model: scripted')
    expect(report).toMatch(/\* scripted\r?\n\s+scripted-large/)

    term.type('/model scripted-large\r')
    await term.waitFor(/answers with scripted-large from its next turn\./)
    term.type('And now?\r')
    await term.waitFor(/Now from the large one\./)
    expect(chatRequests().at(-1)?.body).toMatchObject({ model: 'scripted-large' })

    term.type('/inbox\r')
    await term.waitFor(/Nothing waits in the Inbox\./)

    term.type('/new\r')
    await term.waitFor(/New conversation\./)
    // ↑ three times: back past "/new" and "/inbox" to the prompt typed before them.
    term.type('\x1b[A\x1b[A\x1b[A\r')
    await term.waitFor(/A new conversation\./)
    expect(lastUserText(chatRequests().at(-1)!)).toContain('And now?')

    term.type('\x04')
    expect(await term.exited).toBe(0)
    const sessions = JSON.parse((await runBuiltCairn(bundle, ['--home', home, 'sessions', '--json'], { env: env() })).stdout) as Array<{ model: string | null }>
    expect(sessions.map((session) => session.model).sort()).toEqual(['scripted', 'scripted-large'])
    const history = readFileSync(join(home, 'cli-history'), 'utf8').split('\n')
    expect(history.slice(0, 3)).toEqual(['Show me some markdown', '/help', '/model'])
    expect(history).toContain('And now?')
  })

  it('keeps ↑ history across runs; Ctrl+C stops a slow answer and the session goes on; a tool call shows one line; Ctrl+D exits 0', async () => {
    writeFileSync(join(home, 'cli-history'), 'an old question\n')
    chat.push({ fault: { type: 'hang' } }, { text: 'Short answer.' }, { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] }, { text: 'The folder is empty.' })
    chat.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] }, { text: 'It said hi.' })
    const term = repl()
    await term.waitFor(/\/help lists the commands/)
    term.type('\x1b[A\r')
    await server.waitForChatRequests(1, 20_000)
    expect(lastUserText(chatRequests()[0])).toContain('an old question')
    term.type('\x03')
    await term.waitFor(/cairn: cancelled\./)
    term.type('A short one.\r')
    await term.waitFor(/Short answer\./)
    term.type('What is in this folder?\r')
    const listed = await term.waitFor(/The folder is empty\./)
    expect(stripped(listed)).toMatch(/→ list_dir \{"path":"\."\}\r?\n\s+✓ list_dir \(\d+ ms\): 0 entries\r?\n/)
    term.type('Say hi in the shell.\r')
    await term.waitFor(/Allow\? \[y\]es/)
    term.type('y\r')
    await term.waitFor(/It said hi\./)
    expect(term.text()).toMatch(/✓ run_command \(\d+ ms\): exit 0/)
    term.type('\x04')
    expect(await term.exited).toBe(0)
    // Typed prompts are kept, oldest first; the approval's "y" is not one.
    expect(readFileSync(join(home, 'cli-history'), 'utf8')).toBe('an old question\nA short one.\nWhat is in this folder?\nSay hi in the shell.\n')
  })

  it('/inbox says how many changes wait, lists them and how to decide', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ learning: { mode: 'ask' }, skills: { extraDirs: [] } }))
    chat.push({ text: 'Noted.' })
    review.push({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers green tea.' } }] }, { text: 'Proposed one.' })
    const first = await runBuiltCairn(bundle, ['--home', home, 'chat', 'I prefer green tea.', '--wait'], { env: env(), cwd: workspace })
    expect(first.code).toBe(0)
    const term = repl()
    await term.waitFor(/\/help lists the commands/)
    term.type('/inbox\r')
    const shown = stripped(await term.waitFor(/Decide: cairn inbox approve <id>/))
    expect(shown).toContain('1 change waits in the Inbox')
    expect(shown).toMatch(/#1 +just now +Profile: add "Prefers green tea\." +ask mode/)
    term.type('\x04')
    expect(await term.exited).toBe(0)
  })

  it('NO_COLOR keeps the answer as the model wrote it', async () => {
    chat.push({ text: MARKDOWN_ANSWER })
    const term = repl({ NO_COLOR: '1' })
    await term.waitFor(/\/help lists the commands/)
    term.type('Show me some markdown\r')
    const answer = await term.waitFor(/Done\./)
    expect(answer.replace(/\r\n/g, '\n')).toContain(MARKDOWN_ANSWER)
    term.type('\x04')
    expect(await term.exited).toBe(0)
  })
})

describe('cairn chat into a pipe', () => {
  it('prints the markdown byte for byte', async () => {
    chat.push({ text: MARKDOWN_ANSWER })
    const run = await runBuiltCairn(bundle, ['--home', home, 'chat', 'Show me some markdown'], { env: env(), cwd: workspace })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`${MARKDOWN_ANSWER}\n`)
  })
})

function stripped(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
}
