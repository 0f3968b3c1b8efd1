import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { ONE_PIXEL_PNG, pdfWithText } from '../helpers/pdf-file'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-attach-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-attach-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-good' })
})
afterEach(async () => {
  await server.close()
})

function chat(args: string[]) {
  return runCairn(['--home', home, 'chat', ...args], {
    cwd: workspace,
    env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good' }
  })
}

type Part = { type: string; text?: string; image_url?: { url: string } }

describe('cairn chat --attach', () => {
  it('sends an image as an image part and a PDF as its text, files named from the folder cairn started in', async () => {
    writeFileSync(join(workspace, 'pixel.png'), ONE_PIXEL_PNG)
    writeFileSync(join(workspace, 'brief.pdf'), pdfWithText(['Launch the kayak line in May.']))
    server.enqueue({ text: 'A pixel and a plan.' })
    const run = await chat(['What are these?', '--attach', 'pixel.png', '--attach', 'brief.pdf'])
    expect(run.stderr).not.toContain('cairn:')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('A pixel and a plan.\n')
    const user = (server.chatRequests()[0].body.messages as Array<{ role: string; content: Part[] }>).at(-1)!
    expect(user.content).toEqual([
      { type: 'text', text: 'What are these?\n\n<attached_file name="brief.pdf" kind="pdf">\nLaunch the kayak line in May.\n</attached_file>' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${ONE_PIXEL_PNG.toString('base64')}` } }
    ])
    const sessionId = /session: (\S+)/.exec(run.stderr)![1]
    expect(readdirSync(join(home, 'attachments', sessionId)).sort()).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.pdf$/), expect.stringMatching(/^[0-9a-f]{64}\.png$/)])
  })

  it('stops before anything is sent or kept when a file is missing, too large or of an unknown kind', async () => {
    writeFileSync(join(workspace, 'tool.exe'), 'MZ')
    writeFileSync(join(workspace, 'huge.md'), Buffer.alloc(10 * 1024 * 1024 + 1, 'a'))
    const missing = await chat(['Read it', '--attach', 'nope.pdf'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe('cairn: Cannot attach nope.pdf: there is no such file.\n')
    const unknown = await chat(['Read it', '--attach', 'tool.exe'])
    expect(unknown.stderr).toBe('cairn: Cannot attach: "tool.exe" cannot be attached: Cairn reads images (PNG, JPEG, GIF, WebP), PDFs, and text or code files.\n')
    const large = await chat(['Read it', '--attach', 'huge.md'])
    expect(large.stderr).toBe('cairn: Cannot attach: "huge.md" is 10 MB; the limit for this kind of file is 10 MB.\n')
    expect(server.chatRequests()).toEqual([])
    const listed = await runCairn(['--home', home, 'sessions', '--json'])
    expect(JSON.parse(listed.stdout)).toEqual([])
  })

  it('after a failed first turn with files, says to continue with --session, since the same command would start another', async () => {
    writeFileSync(join(workspace, 'notes.md'), 'Kayaks in May.')
    const failed = await runCairn(['--home', home, 'chat', 'Read it', '--attach', 'notes.md'], {
      cwd: workspace,
      env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-bad' }
    })
    expect(failed.code).toBe(1)
    const sessionId = /session: (\S+)/.exec(failed.stderr)![1]
    expect(failed.stderr).toContain(`The conversation is kept (session ${sessionId}): once fixed, continue it with cairn chat "<your message>" --session ${sessionId}`)
    expect(failed.stderr).not.toContain('run the same command again')
  })

  it('needs a prompt to attach to', async () => {
    const run = await chat(['--attach', 'notes.md'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--attach needs a prompt')
  })
})
