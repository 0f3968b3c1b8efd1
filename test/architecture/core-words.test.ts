import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const repo = join(__dirname, '..', '..')
const script = join(repo, 'scripts', 'check-core-words.mjs')
const run = promisify(execFile)

/** Runs the words lint over a tree (the repository by default) and returns its exit code and the lines it flagged. */
async function lint(root = repo): Promise<{ code: number; flagged: string[] }> {
  const result = await run(process.execPath, [script, root], { cwd: repo }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code?: number; stderr?: string }) => ({ code: error.code ?? 1, stderr: error.stderr ?? '' })
  )
  return { code: result.code, flagged: result.stderr.split('\n').filter(Boolean).map((line) => line.split(': an English sentence')[0]) }
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cairn-words-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('the lint that keeps English sentences for people out of electron/core', () => {
  it('passes on this repository', async () => {
    expect(await lint()).toEqual({ code: 0, flagged: [] })
  })

  it('fails on an IpcError that carries an English sentence, and on a hand-built error envelope', async () => {
    const root = tree({
      'electron/core/app/handlers/things.ts': [
        "import { IpcError } from '../../../../shared/ipc/define'",
        'export function get(id: string) {',
        '  if (!id) throw new IpcError(\'NOT_FOUND\', `There is no thing ${id}.`)',
        "  return { ok: false, error: { code: 'BUSY', message: 'Wait for the other thing to finish.' } }",
        '}'
      ].join('\n'),
      'electron/core/app/router.ts': "export const refuse = (why: string) => new Error(why ? 'Cairn refused it: ' + why : 'Nothing to do here.')\n"
    })
    expect(await lint(root)).toEqual({
      code: 1,
      flagged: ['electron/core/app/handlers/things.ts:3', 'electron/core/app/handlers/things.ts:4', 'electron/core/app/router.ts:1', 'electron/core/app/router.ts:1']
    })
  })

  it('fails on a sentence in sync/, backup/ or config/ too: every folder that is not model-facing words its errors by key', async () => {
    const root = tree({
      'electron/core/sync/sync-run.ts': "export const busy = () => new SyncError('busy', 'Another sync of this data home is running; try again later.')\n",
      'electron/core/backup/create-backup.ts': "export const none = (home: string) => new BackupError(`There is no data home at ${home} to back up.`)\n",
      'electron/core/config/config-store.ts': "export const keyed = (path: string) => new ConfigError('config.not_object', { path })\n"
    })
    expect(await lint(root)).toEqual({ code: 1, flagged: ['electron/core/backup/create-backup.ts:1', 'electron/core/sync/sync-run.ts:1'] })
  })

  it('fails on a sentence in learning/host or mcp/mcp-manager.ts: only the worker and the MCP tool-result files are model-facing', async () => {
    const root = tree({
      'electron/core/learning/host/review-host.ts': "export const busy = () => new Error('A review is already running for this conversation.')\n",
      'electron/core/learning/worker/review-runner.ts': "export const bad = () => new Error('The tool needs a path.')\n",
      'electron/core/mcp/mcp-manager.ts': 'export const gone = (name: string) => new McpError(`The MCP server "${name}" is not running.`)\n',
      'electron/core/mcp/mcp-tools.ts': 'export const off = (name: string) => new McpCallError(`The tool ${name} is turned off.`)\n',
      'electron/core/skills/skill-store.ts': "export const none = () => new Error('There is no such skill here.')\n",
      'electron/core/skills/skill-tools.ts': "export const none = () => new Error('There is no such skill here.')\n"
    })
    expect(await lint(root)).toEqual({
      code: 1,
      flagged: ['electron/core/learning/host/review-host.ts:1', 'electron/core/mcp/mcp-manager.ts:1', 'electron/core/skills/skill-store.ts:1']
    })
  })

  it('fails on the English error of a refusal without a code, and on a sentence that opens with a substitution', async () => {
    const root = tree({
      'electron/core/ledger/undo.ts': [
        'export function undo(id: number) {',
        '  if (!id) return { ok: false, error: `There is no timeline entry #${id}.` }',
        "  if (id < 0) return { ok: false, code: 'not_found', error: `There is no timeline entry #${id}.` }",
        '  if (id > 9) throw new Error(`${id} is past the end of the timeline; nothing was changed.`)',
        '  throw new Error(`${id} of the timeline`)',
        '}'
      ].join('\n')
    })
    expect(await lint(root)).toEqual({ code: 1, flagged: ['electron/core/ledger/undo.ts:2', 'electron/core/ledger/undo.ts:4'] })
  })

  it('checks the revert and restore refusals of memory/ and skills/ like any other', async () => {
    const refusal = 'export const refuse = (id: number) => ({ ok: false, error: `Timeline entry #${id} holds no entry text to restore.` })\n'
    const root = tree({ 'electron/core/memory/entry-history.ts': refusal, 'electron/core/skills/skill-revert.ts': refusal })
    expect(await lint(root)).toEqual({ code: 1, flagged: ['electron/core/memory/entry-history.ts:1', 'electron/core/skills/skill-revert.ts:1'] })
  })

  it('lets through errors worded by key, logs, internal errors, model-facing folders and a justified exception', async () => {
    const root = tree({
      'electron/core/app/handlers/things.ts': [
        "import { IpcError } from '../../../../shared/ipc/define'",
        'export function get(id: string) {',
        "  if (!id) throw IpcError.of('NOT_FOUND', 'conversation.missing', { id })",
        "  console.warn('Could not read the thing, trying again.')",
        '  if (id === "x") throw new Error(`the answer to ${id} broke the contract`)',
        '  // words-ok: the face words this by its code; the message is the detail.',
        "  return { code: 'not_configured', message: 'No embedding model is set.' }",
        '}'
      ].join('\n'),
      'electron/core/agent/prompt-thing.ts': "export const fail = () => new Error('The tool failed; try a smaller file.')\n"
    })
    expect(await lint(root)).toEqual({ code: 0, flagged: [] })
  })
})
