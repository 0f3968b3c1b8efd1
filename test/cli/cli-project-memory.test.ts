import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../electron/core/cairn'
import { projectKeyFor } from '../../electron/core/memory/project-key'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-project-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-cli-project-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-good' })
  const core = await CairnCore.open({ home })
  await core.memory.forWorkspace(workspace).add('project', 'Deploy with make ship', { write: { source: 'user' } })
  await core.close()
})
afterEach(async () => {
  await server.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(workspace, { recursive: true, force: true })
})

describe('cairn memory and project memory', () => {
  it('lists a workspace\'s project memory with --workspace, and every project with "projects"', async () => {
    const shown = await runCairn(['--home', home, 'memory', '--workspace', workspace])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('PROJECT.md (project of ')
    expect(shown.stdout).toContain('Deploy with make ship')
    const plain = await runCairn(['--home', home, 'memory'])
    expect(plain.stdout).not.toContain('PROJECT.md')
    const listed = await runCairn(['--home', home, 'memory', 'projects', '--json'])
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ key: projectKeyFor(workspace), entries: 1, workspace: expect.stringContaining('cairn-cli-project-ws-') })])
  })

  it('refuses the project target without a workspace, in words', async () => {
    const refused = await runCairn(['--home', home, 'memory', 'history', 'project'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/Project memory needs a workspace/)
  })

  it('names the instruction files a chat read, in one line at its start', async () => {
    writeFileSync(join(workspace, 'AGENTS.md'), 'Use tabs in Go files.\n')
    server.enqueue({ text: 'Hello.' })
    const chat = await runCairn(['--home', home, 'chat', '--workspace', workspace, 'hi'], {
      env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good' }
    })
    expect(chat.code).toBe(0)
    expect(chat.stderr).toContain('Project instructions: AGENTS.md')
  })
})
