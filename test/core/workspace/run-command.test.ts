import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { beforeEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ApprovalRequest, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createRunCommandTool } from '../../../electron/core/workspace/run-command'
import { CAIRN_SECRET_ENV, isCairnSecretEnv } from '../../../electron/core/security/secret-env'

type Result = Record<string, any>

const posix = process.platform !== 'win32'
let workspace: string
let requests: ApprovalRequest[]
const tool = createRunCommandTool({}, { killGraceMs: 300 }) as ToolDef

function ctx(extra: Partial<ToolContext> = {}): ToolContext {
  return {
    write: { source: 'agent' },
    turn: newTurnState(),
    workspace,
    approve: async (request) => {
      requests.push(request)
      return true
    },
    ...extra
  }
}

async function run(args: unknown, extra: Partial<ToolContext> = {}): Promise<Result> {
  return (await runTool(tool, args, ctx(extra))) as Result
}

/** Processes of a group that are still running (zombies are dead, just not yet reaped by their new parent). */
function livingInGroup(pgid: number): number[] {
  const living: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') living.push(Number(name))
  }
  return living
}

/**
 * A killed process closes its pipes a moment before it leaves the process table, so poll briefly; the
 * commands under test sleep for 30 s, so anything still there after this was never killed.
 */
async function survivorsOf(pgid: number): Promise<number[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (livingInGroup(pgid).length === 0) return []
    await sleep(50)
  }
  return livingInGroup(pgid)
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-'))
  requests = []
})

describe.runIf(posix)('run_command', () => {
  it('asks for approval, then returns exit code, stdout and stderr', async () => {
    const result = await run({ command: 'echo hello; echo oops >&2' })
    expect(result).toMatchObject({ success: true, exit_code: 0, signal: null, timed_out: false, stdout: 'hello\n', stderr: 'oops\n' })
    expect(typeof result.duration_ms).toBe('number')
    expect(requests).toEqual([
      expect.objectContaining({ kind: 'command', tool: 'run_command', command: 'echo hello; echo oops >&2', cwd: workspace, preview: 'echo hello; echo oops >&2' })
    ])
    expect(requests[0].summary).toContain('echo hello')
  })

  it("never passes Cairn's keys, tokens or named secrets to the command", async () => {
    const secrets = [...CAIRN_SECRET_ENV, 'CAIRN_SECRET_SYNC_SHARED_TEAM_TOKEN', 'CAIRN_SECRET_MCP_GITHUB_ENV_TOKEN', 'cairn_secret_lower']
    const saved = Object.fromEntries(secrets.map((name) => [name, process.env[name]]))
    secrets.forEach((name, index) => (process.env[name] = `leaked-value-${index}`))
    process.env.CAIRN_HOME_NOT_SECRET_PROBE = 'kept'
    try {
      const result = await run({ command: 'printenv; env' })
      expect(result.stdout).not.toContain('leaked-value')
      expect(result.stdout).toContain('CAIRN_HOME_NOT_SECRET_PROBE=kept')
      expect(result.stdout).toContain('PATH=')
    } finally {
      delete process.env.CAIRN_HOME_NOT_SECRET_PROBE
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  })

  it('every CAIRN_ variable the code reads is either a listed secret or known not to be one', () => {
    // Settings and paths (the last three are constants in the code, not variables).
    const notSecret = new Set(['CAIRN_HOME', 'CAIRN_BASE_URL', 'CAIRN_MODEL', 'CAIRN_CHECK_OUTPUTS', 'CAIRN_DESKTOP_ROOT', 'CAIRN_ELECTRON_HEADERS_URL', 'CAIRN_FAULT', 'CAIRN_FAULT_MARK', 'CAIRN_LOCK_STALE_MS', 'CAIRN_NATIVE_ROOT', 'CAIRN_SQLITE_BINDING', 'CAIRN_CHROMIUM', 'CAIRN_ROOT', 'CAIRN_TEMP', 'CAIRN_SOURCES'])
    const read = new Set<string>()
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (/\.(ts|tsx|mjs)$/.test(entry.name)) for (const match of readFileSync(path, 'utf8').matchAll(/\bCAIRN_[A-Z0-9_]*[A-Z0-9]\b/g)) read.add(match[0])
      }
    }
    const root = join(__dirname, '..', '..', '..')
    for (const dir of ['electron', 'shared', 'scripts']) walk(join(root, dir))
    const unlisted = [...read].filter((name) => !notSecret.has(name) && !isCairnSecretEnv(name))
    expect(unlisted).toEqual([])
  })

  it('reports a non-zero exit as a successful run', async () => {
    const result = await run({ command: 'echo partial; exit 2' })
    expect(result).toMatchObject({ success: true, exit_code: 2, stdout: 'partial\n' })
  })

  it('runs in cwd, resolved against the workspace', async () => {
    mkdirSync(join(workspace, 'sub'))
    const result = await run({ command: 'pwd', cwd: 'sub' })
    expect(realpathSync(result.stdout.trim())).toBe(realpathSync(join(workspace, 'sub')))
    expect((await run({ command: 'pwd', cwd: 'nope' })).error).toContain('Folder not found: nope')
  })

  it('marks a cwd outside the workspace (also through a symlink) by its real folder, and offers only "once" there', async () => {
    // With `grep` always allowed, `grep -r "" .` in an outside cwd printed a secret with no approval at all.
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-outside-')))
    symlinkSync(outside, join(workspace, 'link'))
    mkdirSync(join(workspace, 'sub'))
    for (const cwd of ['sub', outside, 'link', '..']) await run({ command: 'pwd', cwd })
    expect(requests[0]).toMatchObject({ cwd: join(workspace, 'sub') })
    expect(requests[0].outsideWorkspace).toBeUndefined()
    expect(requests[0].scopes).toBeUndefined()
    expect(requests.slice(1).map((request) => [request.cwd, request.outsideWorkspace, request.scopes])).toEqual([
      [outside, true, ['once']],
      [outside, true, ['once']],
      [dirname(realpathSync(workspace)), true, ['once']]
    ])
    expect(requests[2].summary).toBe(`Run \`pwd\` in ${outside} (outside the workspace ${realpathSync(workspace)}, reached through the symlink link)`)
    rmSync(outside, { recursive: true, force: true })
  })

  it('keeps the head and tail of huge output with a marker', async () => {
    const result = await run({ command: 'echo FIRST; yes filler-line | head -n 100000; echo LAST; yes err | head -n 50000 >&2' })
    expect(result.exit_code).toBe(0)
    expect(result.stdout.startsWith('FIRST\n')).toBe(true)
    expect(result.stdout.endsWith('LAST\n')).toBe(true)
    const marker = /\n…\[([\d,]+) chars cut\]…\n/.exec(result.stdout)!
    // Kept plus cut is all the command printed: 'FIRST\n', 100,000 filler lines of 12 chars and 'LAST\n'.
    expect(result.stdout.length - marker[0].length + Number(marker[1].replace(/,/g, ''))).toBe(6 + 1_200_000 + 5)
    expect(result.stdout.length + result.stderr.length).toBeLessThanOrEqual(20_000)
    expect(result.stderr).toMatch(/…\[[\d,]+ chars cut\]…/)
  })

  it('kills the whole process group on timeout, including children that ignore SIGTERM', async () => {
    const result = await run({ command: `echo $$; trap '' TERM; sh -c 'sleep 30 & sleep 30'`, timeout_ms: 500 })
    expect(result).toMatchObject({ success: true, timed_out: true, exit_code: null })
    expect(result.note).toContain('timeout')
    const pgid = Number(result.stdout.trim())
    expect(pgid).toBeGreaterThan(1)
    expect(await survivorsOf(pgid)).toEqual([])
  })

  it('stops the command and its children when the turn is aborted', async () => {
    const controller = new AbortController()
    const pending = run({ command: 'echo $$ > pid.txt; sleep 30 & sleep 30' }, { signal: controller.signal })
    const pidFile = join(workspace, 'pid.txt')
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await sleep(20)
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({ success: false, cancelled: true, timed_out: false })
    expect(await survivorsOf(Number(readFileSync(pidFile, 'utf8')))).toEqual([])
  })

  it('does not start when the turn is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const result = await run({ command: 'touch ran.txt' }, { signal: controller.signal })
    expect(result).toMatchObject({ success: false, cancelled: true })
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(false)
  })

  it('returns when the shell exits even if a background child keeps the output open', async () => {
    const result = await run({ command: 'echo $$; (sleep 20; echo late) &' })
    expect(result).toMatchObject({ success: true, exit_code: 0 })
    expect(result.note).toContain('background processes')
    process.kill(-Number(result.stdout.trim()), 'SIGKILL')
  })

  it('does not run when the user declines', async () => {
    const result = await run({ command: 'touch ran.txt' }, { approve: async () => false })
    expect(result).toMatchObject({ success: false, denied: true })
    expect(result.error).toContain('The user declined')
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(false)
  })

  it('refuses when nobody can approve', async () => {
    const result = await run({ command: 'touch ran.txt' }, { approve: undefined })
    expect(result.success).toBe(false)
    expect(result.denied).toBeUndefined()
    expect(result.error).toContain('nobody can approve')
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(false)
  })

  it('rejects an empty command and a timeout over 10 minutes', async () => {
    expect((await run({ command: '   ' })).error).toContain('command')
    expect((await run({ command: 'true', timeout_ms: 700_000 })).error).toContain('timeout_ms')
    expect(requests).toEqual([])
  })
})
