import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApprovalBroker, type PendingApproval } from '../../../electron/core/agent/approvals'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ApprovalRequest, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createWorkspaceTools } from '../../../electron/core/workspace'
import type { ApprovalDecision } from '../../../shared/agent-events'

type Result = Record<string, any>

const SECRET = 'sk-live-OUTSIDE-9fQ2xLm7Rt4Z'
let root: string
let workspace: string
let outside: string
let tools: ToolDef[]
let asked: ApprovalRequest[]
const originalHome = process.env.HOME

beforeEach(() => {
  // realpath: on macOS the temp folder is itself behind a symlink.
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-read-')))
  workspace = join(root, 'workspace')
  outside = join(root, 'private')
  mkdirSync(join(workspace, 'src'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(workspace, 'src', 'app.ts'), 'export const app = 1\n')
  writeFileSync(join(outside, 'secret.env'), `API_KEY=${SECRET}\n`)
  writeFileSync(join(outside, 'neighbour.txt'), 'next to the secret\n')
  tools = createWorkspaceTools({ workspace })
  asked = []
})
afterEach(() => {
  process.env.HOME = originalHome
  rmSync(root, { recursive: true, force: true })
})

/** A context whose user answers `answer` (undefined: nobody can approve, as in a review or a pipe). */
function ctx(answer?: boolean): ToolContext {
  const approve = answer === undefined ? undefined : async (request: ApprovalRequest) => (asked.push(request), answer)
  return { write: { source: 'agent' }, turn: newTurnState(), workspace, approve }
}

async function call(name: string, args: unknown, context: ToolContext): Promise<Result> {
  return (await runTool(tools.find((tool) => tool.name === name)!, args, context)) as Result
}

describe('reading inside the workspace', () => {
  it('is free for read_file, list_dir and search_files (nobody is asked)', async () => {
    symlinkSync(join(workspace, 'src', 'app.ts'), join(workspace, 'alias.ts'))
    const context = ctx(false)
    expect(await call('read_file', { path: 'src/app.ts' }, context)).toMatchObject({ success: true, content: '    1| export const app = 1' })
    expect(await call('read_file', { path: join(workspace, 'alias.ts') }, context)).toMatchObject({ success: true, path: 'alias.ts' })
    expect(await call('read_file', { path: 'src/../src/app.ts' }, context)).toMatchObject({ success: true })
    expect(await call('list_dir', { path: 'src' }, context)).toMatchObject({ success: true, entries: [{ path: 'app.ts', type: 'file', size: 21 }] })
    expect(await call('search_files', { content: 'app' }, context)).toMatchObject({ success: true, matches: ['src/app.ts:1: export const app = 1'] })
    expect(asked).toEqual([])
  })
})

const secretPath = () => join(outside, 'secret.env')

describe('reading outside the workspace', () => {

  it.each([
    ['../', () => '../private/secret.env'],
    ['an absolute path', () => join(outside, 'secret.env')],
    ['~', () => {
      process.env.HOME = root
      return '~/private/secret.env'
    }]
  ])('asks for %s, and with nobody to ask reads nothing', async (_, path) => {
    const refused = await call('read_file', { path: path() }, ctx())
    expect(refused).toMatchObject({ success: false, error: expect.stringContaining("needs the user's approval") })
    expect(JSON.stringify(refused)).not.toContain(SECRET)

    const declined = await call('read_file', { path: path() }, ctx(false))
    expect(declined).toMatchObject({ success: false, denied: true, error: expect.stringContaining('Nothing was read') })
    expect(JSON.stringify(declined)).not.toContain(SECRET)
    expect(asked).toEqual([
      expect.objectContaining({ kind: 'read', tool: 'read_file', path: secretPath(), folder: outside, scopes: ['once', 'session', 'folder'] })
    ])

    expect(await call('read_file', { path: path() }, ctx(true))).toMatchObject({ success: true, content: `    1| API_KEY=${SECRET}` })
  })

  it('asks before it even looks, so a refusal does not tell what exists there', async () => {
    const refused = await call('read_file', { path: join(outside, 'secret.en') }, ctx(false))
    expect(refused.error).not.toContain('secret.env')
    expect(asked[0]).toMatchObject({ kind: 'read', path: join(outside, 'secret.en'), folder: outside })
  })

  it('asks for list_dir and search_files too, naming the folder they would read', async () => {
    for (const [tool, args] of [
      ['list_dir', { path: outside }],
      ['search_files', { path: '..', content: 'API_KEY' }],
      ['search_files', { path: secretPath(), content: 'API_KEY' }]
    ] as const) {
      const result = await call(tool, args, ctx(false))
      expect(result, tool).toMatchObject({ success: false, denied: true })
      expect(JSON.stringify(result)).not.toContain(SECRET)
      expect(JSON.stringify(result)).not.toContain('neighbour')
    }
    expect(asked.map((request) => [request.tool, request.path, request.folder])).toEqual([
      ['list_dir', outside, outside],
      ['search_files', root, root],
      ['search_files', secretPath(), outside]
    ])
  })

  it('edit_file asks to read first, so a failed match cannot show the file unasked', async () => {
    // A near miss: without the read check, the "closest regions" of the error showed the secret line.
    const result = await call('edit_file', { path: secretPath(), old_string: `API_KEY=${SECRET.slice(0, -1)}Y`, new_string: 'x' }, ctx(false))
    expect(result).toMatchObject({ success: false, denied: true })
    expect(JSON.stringify(result)).not.toContain(SECRET)
    expect(asked).toEqual([expect.objectContaining({ kind: 'read', tool: 'edit_file', path: secretPath() })])
  })

  it('counts a symlink inside the workspace by where it really points', async () => {
    symlinkSync(secretPath(), join(workspace, 'config.env'))
    symlinkSync(outside, join(workspace, 'vault'))
    symlinkSync(join(outside, 'not-yet.txt'), join(workspace, 'dangling.txt'))
    for (const [tool, args, real] of [
      ['read_file', { path: 'config.env' }, secretPath()],
      ['read_file', { path: 'vault/secret.env' }, secretPath()],
      ['read_file', { path: 'dangling.txt' }, join(outside, 'not-yet.txt')],
      ['list_dir', { path: 'vault' }, outside],
      ['search_files', { path: 'vault', content: 'API_KEY' }, outside]
    ] as const) {
      const result = await call(tool, args, ctx(false))
      expect(result, `${tool} ${args.path}`).toMatchObject({ success: false, denied: true })
      expect(JSON.stringify(result)).not.toContain(SECRET)
      expect(asked.at(-1)).toMatchObject({ kind: 'read', tool, path: real })
    }
    // The request shows the real target, and says the path named inside led there.
    expect(asked[0].summary).toBe(`Read ${secretPath()} (outside the workspace ${workspace}, reached through the symlink config.env)`)
    // A search of the whole workspace never follows the link out either.
    const search = await call('search_files', { content: 'API_KEY' }, ctx(false))
    expect(search).toMatchObject({ success: true, count: 0 })
    expect(asked).toHaveLength(5)
  })

  it('reads through an approved symlink by its real path', async () => {
    symlinkSync(secretPath(), join(workspace, 'config.env'))
    const result = await call('read_file', { path: 'config.env' }, ctx(true))
    expect(result).toMatchObject({ success: true, path: 'config.env', content: `    1| API_KEY=${SECRET}` })
    expect(basename(asked[0].path!)).toBe('secret.env')
  })
})

describe('what a read grant covers', () => {
  let home: string
  beforeEach(() => {
    home = join(root, 'home')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    writeFileSync(join(home, '.bashrc'), 'alias ll="ls -l"\n')
    writeFileSync(join(home, '.ssh', 'id_rsa'), `-----BEGIN KEY----- ${SECRET}\n`)
    process.env.HOME = home
  })

  /** A context whose requests go through a real broker, answered by `answer` a moment later. */
  function brokered(answer: (pending: PendingApproval) => ApprovalDecision): ToolContext {
    const broker: ApprovalBroker = new ApprovalBroker({
      commandPrefixes: () => [],
      onRequest: (pending) => {
        asked.push(pending.request)
        setImmediate(() => void broker.respond(pending.requestId, answer(pending)))
      }
    })
    return { write: { source: 'agent' }, turn: newTurnState(), workspace, approve: (request) => broker.request(request) }
  }

  it('"this conversation" on ~/.bashrc covers that file only: ~/.ssh/id_rsa still asks', async () => {
    const context = brokered((pending) => (pending.request.path?.endsWith('.bashrc') ? { allow: true, remember: 'session' } : { allow: false }))
    expect(await call('read_file', { path: '~/.bashrc' }, context)).toMatchObject({ success: true, content: '    1| alias ll="ls -l"' })
    expect(await call('read_file', { path: '~/.bashrc' }, context)).toMatchObject({ success: true })
    const stolen = await call('read_file', { path: '~/.ssh/id_rsa' }, context)
    expect(stolen).toMatchObject({ success: false, denied: true })
    expect(JSON.stringify(stolen)).not.toContain(SECRET)
    expect(await call('list_dir', { path: '~' }, context)).toMatchObject({ success: false, denied: true })
    expect(asked.map((request) => request.path)).toEqual([join(home, '.bashrc'), join(home, '.ssh', 'id_rsa'), home])
  })

  it('a folder listed or searched "for this conversation" is covered with everything below it', async () => {
    const context = brokered((pending) => (pending.request.tool === 'list_dir' ? { allow: true, remember: 'session' } : { allow: false }))
    expect(await call('list_dir', { path: outside }, context)).toMatchObject({ success: true })
    expect(await call('read_file', { path: secretPath() }, context)).toMatchObject({ success: true })
    expect(await call('search_files', { path: outside, content: 'API_KEY' }, context)).toMatchObject({ success: true, count: 1 })
    expect(await call('read_file', { path: '~/.bashrc' }, context)).toMatchObject({ success: false, denied: true })
    expect(asked.map((request) => [request.tool, request.path, request.readsFolder])).toEqual([
      ['list_dir', outside, true],
      ['read_file', join(home, '.bashrc'), undefined]
    ])
  })

  it('never offers a folder grant for the home folder, a folder above it or a filesystem root', async () => {
    for (const [tool, args] of [
      ['read_file', { path: '~/.bashrc' }],
      ['list_dir', { path: '~' }],
      ['search_files', { path: root, content: 'x' }],
      ['list_dir', { path: '/' }],
      ['list_dir', { path: '~/.ssh' }],
      ['read_file', { path: '~/.ssh/id_rsa' }]
    ] as const) {
      expect(await call(tool, args, ctx(false)), `${tool} ${args.path}`).toMatchObject({ success: false, denied: true })
    }
    expect(asked.map((request) => [request.path, request.folder, request.scopes])).toEqual([
      // A file right in ~: "this conversation" covers that file, "always" is not offered.
      [join(home, '.bashrc'), undefined, ['once', 'session']],
      // A folder that holds the home folder: any grant would cover all of it.
      [home, undefined, ['once']],
      [root, undefined, ['once']],
      ['/', undefined, ['once']],
      [join(home, '.ssh'), join(home, '.ssh'), ['once', 'session', 'folder']],
      [join(home, '.ssh', 'id_rsa'), join(home, '.ssh'), ['once', 'session', 'folder']]
    ])
  })
})
