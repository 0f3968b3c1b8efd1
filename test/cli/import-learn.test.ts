import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { importCommand } from '../../electron/cli/commands/import'
import { importLearn } from '../../electron/cli/commands/import-learn'
import type { CliContext } from '../../electron/cli/commands/types'
import { CairnCore } from '../../electron/core/cairn'
import { importChatExport } from '../../electron/core/import'
import { startScriptedServer, type RecordedChatRequest, type ScriptedReply, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest, reviewUserText } from '../helpers/review-fixture'

const CHATGPT_EXPORT = join(__dirname, '..', 'fixtures', 'chatgpt-export', 'conversations.json')

let home: string | undefined
let core: CairnCore | undefined
let server: ScriptedServer | undefined
afterEach(async () => {
  await core?.close()
  await server?.close()
  if (home) rmSync(home, { recursive: true, force: true })
  core = server = home = undefined
})

function reviewer(request: RecordedChatRequest): ScriptedReply | undefined {
  if (!isReviewRequest(request)) return undefined
  if (request.body.messages.at(-1)?.role === 'tool') return { text: 'Saved.' }
  const fact = reviewUserText(request).includes('levain') ? 'User keeps a sourdough starter' : 'User watches the birds at their feeder'
  return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: fact } }] }
}

async function context(): Promise<{ ctx: CliContext; out: string[]; err: string[] }> {
  home = mkdtempSync(join(tmpdir(), 'cairn-import-learn-'))
  server = await startScriptedServer({ strict: true, respond: reviewer })
  const opened = await CairnCore.open({ home })
  core = opened
  await importChatExport(opened, { app: 'chatgpt', path: CHATGPT_EXPORT })
  const out: string[] = []
  const err: string[] = []
  const env = { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' }
  const ctx: CliContext = {
    io: { out: (text) => void out.push(text), err: (text) => void err.push(text), isTTY: false },
    env,
    processEnv: env,
    home,
    core: async () => opened
  }
  return { ctx, out, err }
}

describe('cairn import learn', () => {
  it('reviews each imported conversation in the foreground with a line per conversation, then says nothing is left', async () => {
    const { ctx, out, err } = await context()
    expect(await importLearn(ctx, [], false)).toBe(0)
    expect(err.join('')).toMatch(/\[1\/2\] reviewing "Reviving a sourdough starter"/)
    expect(err.join('')).toMatch(/\[2\/2\] reviewing "Bird on the feeder"/)
    expect(out.join('')).toBe('Done. 2 of 2 reviewed: 2 changes made, 0 proposed, 0 failed.\n')
    expect(core!.memory.read('user').entries).toEqual(['User keeps a sourdough starter', 'User watches the birds at their feeder'])

    out.length = 0
    expect(await importLearn(ctx, [], false)).toBe(0)
    expect(out.join('')).toBe('There are no imported conversations left to learn from.\n')
  })

  it('is reached as `cairn import learn [ID] --json` and named in the import usage', async () => {
    const { ctx, out } = await context()
    expect(importCommand.usage).toContain('import learn [ID]')
    await expect(importCommand.run(ctx, ['learn', '99'])).rejects.toThrow('There is no import #99')
    expect(await importCommand.run(ctx, ['learn', '1', '--json'])).toBe(0)
    const lines = out.join('').trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string })
    expect(lines.filter((line) => line.type === 'review_finished')).toHaveLength(2)
    expect(lines.at(-1)).toMatchObject({ type: 'import_learn_finished', importId: 1, total: 2, done: 2, changes: 2, failed: 0 })
  })

  it('refuses with learning off, an unknown import or a bad id', async () => {
    const { ctx } = await context()
    await expect(importLearn(ctx, ['99'], false)).rejects.toThrow('There is no import #99')
    await expect(importLearn(ctx, ['x'], false)).rejects.toThrow('"x" is not an import id')
    await core!.config.update({ learning: { mode: 'off' } })
    await expect(importLearn(ctx, [], false)).rejects.toThrow('Learning is turned off')
  })
})
