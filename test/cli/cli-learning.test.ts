import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { runCairn } from '../helpers/run-cli'

let home: string

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-'))
})

const cairn = (...args: string[]) => runCairn(['--home', home, ...args])

const SKILL = `---
name: deploy-static-site
description: Deploy a static site to the team's server with rsync and a cache purge.
---
# Deploy a static site
1. Build with \`npm run build\`.
2. rsync the dist folder to the server.
3. Purge the CDN cache.
`

describe('cairn tool', () => {
  it('runs a tool and prints its JSON result', async () => {
    const run = await cairn('tool', 'memory', JSON.stringify({ action: 'add', target: 'user', content: 'Prefers metric units' }))
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ success: true, target: 'user' })
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('Prefers metric units')
  })

  it('exits 0 with success:false when the tool ran but refused', async () => {
    const run = await cairn('tool', 'memory', JSON.stringify({ action: 'add', target: 'user' }))
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ success: false })
  })

  it('exits 2 with a clear message on bad usage', async () => {
    const unknown = await cairn('tool', 'teleport', '{}')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/Unknown tool "teleport".*memory/)
    const badJson = await cairn('tool', 'memory', '{not json')
    expect(badJson.code).toBe(2)
    expect(badJson.stderr).toMatch(/not valid JSON/)
    const badArgs = await cairn('tool', 'memory', JSON.stringify({ action: 'add', target: 'everyone' }))
    expect(badArgs.code).toBe(2)
    expect(badArgs.stderr).toMatch(/target/)
    const noCommand = await cairn('frobnicate')
    expect(noCommand.code).toBe(2)
    expect(noCommand.stderr).toMatch(/Unknown command "frobnicate"/)
  })
})

describe('timeline and revert', () => {
  it('shows learned changes newest first and reverts one', async () => {
    await cairn('tool', 'memory', JSON.stringify({ action: 'add', target: 'memory', content: 'Build server is ci-01' }))
    await cairn('tool', 'skill_manage', JSON.stringify({ action: 'create', name: 'deploy-static-site', category: 'devops', content: SKILL }))
    const timeline = await cairn('timeline', '--json')
    expect(timeline.code).toBe(0)
    const rows = JSON.parse(timeline.stdout)
    expect(rows.map((r: { kind: string }) => r.kind)).toEqual(['skill.create', 'memory.add'])
    expect(Object.keys(rows[1])).toEqual(expect.arrayContaining(['id', 'at', 'kind', 'target', 'source', 'sessionId', 'before', 'after']))
    expect(rows[1]).toMatchObject({ target: 'memories/MEMORY.md', source: 'user', before: null, after: 'Build server is ci-01' })
    expect(rows[0]).toMatchObject({ target: 'skills/devops/deploy-static-site/SKILL.md', after: SKILL })

    const human = await cairn('timeline')
    expect(human.stdout).toMatch(/#2 .*skill\.create .*skills\/devops\/deploy-static-site\/SKILL\.md/)
    expect(human.stdout).toMatch(/\+ Build server is ci-01/)

    const revert = await cairn('revert', String(rows[1].id))
    expect(revert.code).toBe(0)
    expect(revert.stdout).toMatch(/Reverted #1/)
    expect(readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8')).toBe('')

    const again = await cairn('revert', String(rows[1].id))
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already reverted by #3/)
    // --json gives the refusal's code, which the app words in the UI language.
    const json = await cairn('revert', String(rows[1].id), '--json')
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, code: 'already_reverted' })
    const missing = await cairn('revert', '99', '--json')
    expect(JSON.parse(missing.stdout)).toEqual({ ok: false, code: 'not_found', error: 'There is no timeline entry #99.' })
  })

  it('refuses a revert whose target changed since, showing both texts', async () => {
    await cairn('tool', 'memory', JSON.stringify({ action: 'add', target: 'user', content: 'Works at Acme' }))
    await cairn('tool', 'memory', JSON.stringify({ action: 'replace', target: 'user', old_text: 'Acme', content: 'Works at Globex' }))
    const run = await cairn('revert', '1')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/Expected \(what #1 wrote\):\s+Works at Acme/)
    expect(run.stderr).toMatch(/Found now:\s+Works at Globex/)
    const json = await cairn('revert', '1', '--json')
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, code: 'conflict', conflict: { expected: 'Works at Acme', actual: 'Works at Globex' } })
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('Works at Globex')
  })

  it('words a revert refusal by its key in the language of ui.language', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ui: { language: 'zh-CN' } }))
    await cairn('tool', 'memory', JSON.stringify({ action: 'add', target: 'user', content: 'Works at Acme' }))
    await cairn('tool', 'memory', JSON.stringify({ action: 'replace', target: 'user', old_text: 'Acme', content: 'Works at Globex' }))
    const run = await cairn('revert', '1')
    expect(run.stderr).toMatch(/无法撤销条目 #1：USER\.md 中已没有这次更改写入的条目/)
    const json = JSON.parse((await cairn('revert', '1', '--json')).stdout)
    expect(json).toMatchObject({ key: 'revert.memory_entry_changed', params: { id: 1, file: 'USER.md' } })
    expect(json.error).toMatch(/^Cannot revert entry #1: USER\.md no longer holds/)
  })
})

describe('skills and search', () => {
  it('lists skills by category with usage, as text and JSON', async () => {
    await cairn('tool', 'skill_manage', JSON.stringify({ action: 'create', name: 'deploy-static-site', category: 'devops', content: SKILL }))
    await cairn('tool', 'skill_view', JSON.stringify({ name: 'deploy-static-site' }))
    const text = await cairn('skills')
    expect(text.stdout).toMatch(/^devops\n  deploy-static-site +Deploy a static site/m)
    expect(text.stdout).toMatch(/viewed 1×/)
    const json = JSON.parse((await cairn('skills', '--json')).stdout)
    expect(json.skills[0]).toMatchObject({ name: 'deploy-static-site', category: 'devops', readOnly: false })
    expect(json.skills[0].stats).toMatchObject({ viewCount: 1, useCount: 0, successRate: null, stale: false })
  })

  it('says so when nothing matches a search', async () => {
    const run = await cairn('search', 'kubernetes rollout')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/No past conversation matches/)
  })
})

describe('data home and settings', () => {
  it('prefers --home over CAIRN_HOME', async () => {
    const other = mkdtempSync(join(tmpdir(), 'cairn-env-'))
    await runCairn(['--home', home, 'tool', 'memory', JSON.stringify({ action: 'add', target: 'user', content: 'A' })], { env: { CAIRN_HOME: other } })
    await runCairn(['tool', 'memory', JSON.stringify({ action: 'add', target: 'user', content: 'B' })], { env: { CAIRN_HOME: other } })
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('A')
    expect(readFileSync(join(other, 'memories', 'USER.md'), 'utf8')).toBe('B')
  })

  it('reports a malformed config.json and leaves it alone', async () => {
    writeFileSync(join(home, 'config.json'), '{ "memory": ')
    const run = await cairn('skills')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/config\.json is not valid JSON/)
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe('{ "memory": ')
  })
})
