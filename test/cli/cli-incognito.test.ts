import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../electron/core/cairn'
import { openStateDb } from '../../electron/core/db/state-db'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { snapshotHome, type HomeSnapshot } from '../helpers/home-snapshot'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer

const SKILL = `---
name: rotate-logs
description: Rotate and compress the app's log files without losing lines.
---
# Rotate logs
1. Run logrotate with the app's config.
`

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-incognito-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-incognito-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-good' })
  // A home that has learned something, and a loop that would review after every turn.
  const core = await CairnCore.open({ home })
  await core.config.update({ learning: { memoryNudgeInterval: 1, skillNudgeInterval: 1 }, skills: { extraDirs: [] } })
  await core.memory.add('memory', 'The NAS is at 10.0.0.7 (okapiwharf)', { write: { source: 'user' } })
  await core.skills.create({ name: 'rotate-logs', category: 'ops', content: SKILL }, { source: 'user' })
  await core.close()
})
afterEach(async () => {
  await server.close()
})

function chat(args: string[], input?: string) {
  return runCairn(['--home', home, 'chat', ...args], { cwd: workspace, input, env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good' } })
}

function snapshot(): HomeSnapshot {
  const db = openStateDb(join(home, 'state.db'), { readonly: true })
  try {
    return snapshotHome(home, db)
  } finally {
    db.close()
  }
}

const NOTICE = 'Incognito: this chat is not saved and Cairn will not learn from it.'

describe('cairn chat --incognito', () => {
  it('answers with the workspace tools only and leaves the data home as it was (one-shot, with an attachment and a tool call)', async () => {
    writeFileSync(join(workspace, 'brief.txt'), 'The brief mentions velvetcrane.')
    const before = snapshot()
    server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Project quokkafern' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'quokkafern\n' } }] },
      { text: 'Wrote notes.txt.' }
    )
    const run = await chat(['Note quokkafern down', '--incognito', '--attach', 'brief.txt', '--yes'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr.split('\n')[0]).toBe(NOTICE)
    expect(run.stderr).not.toMatch(/^session: /m)
    expect(run.stdout).toContain('Wrote notes.txt.')

    const requests = server.chatRequests()
    expect(requests.filter(isReviewRequest)).toEqual([])
    expect(requests).toHaveLength(3)
    const system = String(requests[0].body.messages[0].content)
    for (const leaked of ['okapiwharf', 'rotate-logs', '## Memory', '## Skills']) expect(system).not.toContain(leaked)
    expect(JSON.stringify(requests[0].body.messages.at(-1))).toContain('velvetcrane')
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('quokkafern\n')
    expect(snapshot()).toEqual(before)
  })

  it('keeps every conversation of the interactive session in memory only (/new starts another incognito one)', async () => {
    const before = snapshot()
    server.enqueue({ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' })
    const run = await chat(['--incognito'], 'first question\nsecond question\n/new\nthird question\n/exit\n')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr.split(NOTICE)).toHaveLength(3)
    // The second turn saw the first (one conversation); /new started another with nothing before it.
    expect(server.chatRequests().map((r) => r.body.messages.length)).toEqual([2, 4, 2])
    expect(server.chatRequests().filter(isReviewRequest)).toEqual([])
    expect(existsSync(join(home, 'cli-history'))).toBe(false)
    expect(snapshot()).toEqual(before)
  })

  it('cannot continue a saved conversation or wait for reviews it never gets', async () => {
    for (const args of [['hi', '--incognito', '--continue'], ['hi', '--incognito', '--session', 'x'], ['hi', '--incognito', '--wait']]) {
      const run = await chat(args)
      expect(run.code).toBe(2)
      expect(run.stderr).toContain('--incognito')
    }
    expect(server.chatRequests()).toEqual([])
  })
})
