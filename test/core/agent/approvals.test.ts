import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigStore } from '../../../electron/core/config/config-store'
import type { AgentEvent, ApprovalDecision } from '../../../shared/agent-events'
import { agentFixture, type AgentFixture, type Recorded } from '../../helpers/agent-fixture'

type ApprovalNeeded = Extract<AgentEvent, { type: 'approval_needed' }>

let fx: AgentFixture

beforeEach(async () => {
  fx = await agentFixture()
  // A stand-in for `npm test`: records every run (with its arguments) in ran.log.
  writeFileSync(join(fx.workspace, 'check.sh'), 'echo "ran $*" >> ran.log\n')
})
afterEach(async () => {
  await fx.close()
})

/** Answers every approval request the way `decide` says, a moment later (as a person clicking would). */
function answerApprovals(recorded: Recorded, decide: (event: ApprovalNeeded) => ApprovalDecision | 'cancel'): void {
  recorded.session.events.on((event) => {
    if (event.type !== 'approval_needed') return
    setImmediate(() => {
      const decision = decide(event)
      if (decision === 'cancel') recorded.session.cancel()
      else void recorded.session.respondToApproval(event.requestId, decision)
    })
  })
}

const ranLog = () => (existsSync(join(fx.workspace, 'ran.log')) ? readFileSync(join(fx.workspace, 'ran.log'), 'utf8') : '')

function runCommand(command: string) {
  return { toolCalls: [{ name: 'run_command', arguments: { command } }] }
}

function lastToolResult(): string {
  const messages = fx.server.lastChatRequest()!.body.messages as Array<{ role: string; content: string }>
  return messages.filter((m) => m.role === 'tool').at(-1)!.content
}

describe('approvals', () => {
  it('asks before a command runs; a decline runs nothing and tells the model', async () => {
    fx.server.enqueue(runCommand('sh check.sh --all'), { text: 'Understood, I will not run it.' })
    const recorded = fx.open()
    answerApprovals(recorded, () => ({ allow: false }))
    const summary = await recorded.session.runTurn('run the checks').done

    const [asked] = recorded.ofType('approval_needed')
    expect(asked).toMatchObject({
      kind: 'command',
      tool: 'run_command',
      command: 'sh check.sh --all',
      cwd: fx.workspace,
      prefix: 'sh check.sh',
      preview: 'sh check.sh --all'
    })
    expect(asked.summary).toBe(`Run \`sh check.sh --all\` in ${fx.workspace}`)
    expect(asked.callId).toBe(recorded.ofType('tool_call_started')[0].callId)
    expect(recorded.ofType('approval_resolved')).toEqual([expect.objectContaining({ requestId: asked.requestId, allowed: false, remembered: 'once' })])
    expect(ranLog()).toBe('')
    expect(summary.toolCalls).toEqual([expect.objectContaining({ name: 'run_command', ok: false })])
    expect(JSON.parse(lastToolResult())).toMatchObject({ success: false, denied: true, error: expect.stringMatching(/^The user declined: run_command did not run `sh check.sh --all`/) })
    // Answering again is refused: the request is settled.
    expect(await recorded.session.respondToApproval(asked.requestId, { allow: true })).toBe(false)
  })

  it('shows a diff for a write and writes nothing when declined', async () => {
    const notes = join(fx.workspace, 'notes.md')
    writeFileSync(notes, 'line one\nline two\n')
    fx.server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'line one\nline 2\n' } }] },
      { text: 'Left it as it is.' }
    )
    const recorded = fx.open()
    answerApprovals(recorded, () => ({ allow: false }))
    await recorded.session.runTurn('fix the notes').done

    const [asked] = recorded.ofType('approval_needed')
    expect(asked).toMatchObject({ kind: 'write', tool: 'write_file', path: notes, summary: 'Overwrite notes.md (+1 −1 lines)' })
    expect(asked.prefix).toBeUndefined()
    expect(asked.preview).toContain('--- a/notes.md\n+++ b/notes.md')
    expect(asked.preview).toContain('-line two\n+line 2')
    expect(readFileSync(notes, 'utf8')).toBe('line one\nline two\n')
    expect(lastToolResult()).toMatch(/The user declined: write_file did not write notes.md\. Nothing was changed/)
  })

  it('runs a call allowed once, and asks again for the next one', async () => {
    fx.server.enqueue(runCommand('sh check.sh first'), runCommand('sh check.sh second'), { text: 'Both ran.' })
    const recorded = fx.open()
    answerApprovals(recorded, () => ({ allow: true }))
    await recorded.session.runTurn('run the checks twice').done
    expect(recorded.ofType('approval_needed').map((e) => e.command)).toEqual(['sh check.sh first', 'sh check.sh second'])
    expect(ranLog()).toBe('ran first\nran second\n')
    expect(JSON.parse(lastToolResult())).toMatchObject({ success: true, exit_code: 0 })
    expect(fx.core.config.get().agent.allowedCommandPrefixes).toEqual([])
  })

  it("remembers 'session' for the rest of the session only", async () => {
    fx.server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'B' } }] },
      { text: 'Wrote both.' }
    )
    const recorded = fx.open()
    answerApprovals(recorded, () => ({ allow: true, remember: 'session' }))
    await recorded.session.runTurn('write a and b').done
    fx.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'c.txt', content: 'C' } }] }, { text: 'Wrote c.' })
    await recorded.session.runTurn('and c').done
    expect(recorded.ofType('approval_needed').map((e) => e.path)).toEqual([join(fx.workspace, 'a.txt')])
    expect(recorded.ofType('approval_resolved')[0].remembered).toBe('session')
    for (const [file, text] of [['a.txt', 'A'], ['b.txt', 'B'], ['c.txt', 'C']]) expect(readFileSync(join(fx.workspace, file), 'utf8')).toBe(text)

    // A new session asks again.
    fx.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'd.txt', content: 'D' } }] }, { text: 'Not written.' })
    const next = fx.open()
    answerApprovals(next, () => ({ allow: false }))
    await next.session.runTurn('write d').done
    expect(next.ofType('approval_needed')).toHaveLength(1)
    expect(existsSync(join(fx.workspace, 'd.txt'))).toBe(false)
  })

  it("remembers a command's 'session' answer as its prefix only: another command still asks", async () => {
    fx.server.enqueue(
      runCommand('sh check.sh once'),
      runCommand('sh check.sh again'),
      runCommand('echo pwned > pwned.txt'),
      runCommand('cat ~/.ssh/id_rsa; sh check.sh x'),
      runCommand('$(printf sh) check.sh y'),
      { text: 'The others were declined.' }
    )
    const recorded = fx.open()
    answerApprovals(recorded, (event) => (event.command === 'sh check.sh once' ? { allow: true, remember: 'session' } : { allow: false }))
    await recorded.session.runTurn('run the checks, then look around').done
    const asked = recorded.ofType('approval_needed')
    expect(asked.map((e) => e.command)).toEqual(['sh check.sh once', 'echo pwned > pwned.txt', 'cat ~/.ssh/id_rsa; sh check.sh x', '$(printf sh) check.sh y'])
    expect(asked[0]).toMatchObject({ prefix: 'sh check.sh', scopes: ['once', 'session', 'prefix'] })
    // No prefix can be read from it: "this conversation" is not offered.
    expect(asked[3]).toMatchObject({ scopes: ['once'] })
    expect(ranLog()).toBe('ran once\nran again\n')
    expect(existsSync(join(fx.workspace, 'pwned.txt'))).toBe(false)
    // Nothing was saved for later conversations.
    expect(fx.core.config.get().agent.allowedCommandPrefixes).toEqual([])
  })

  it("remembers a command prefix in the settings, for later sessions, but not for chained commands", async () => {
    mkdirSync(join(fx.workspace, 'x'))
    fx.server.enqueue(runCommand('sh check.sh once'), { text: 'Done.' })
    const first = fx.open()
    answerApprovals(first, (event) => ({ allow: true, remember: 'prefix', prefix: event.prefix }))
    await first.session.runTurn('run the checks').done
    expect(first.ofType('approval_resolved')[0]).toMatchObject({ allowed: true, remembered: 'prefix' })
    expect(fx.core.config.get().agent.allowedCommandPrefixes).toEqual(['sh check.sh'])
    // Saved in config.json, where another Cairn process reads it.
    expect(new ConfigStore(join(fx.home, 'config.json')).get().agent.allowedCommandPrefixes).toEqual(['sh check.sh'])

    // More plain arguments run unasked; an option added to the script, or a chained command, asks.
    fx.server.enqueue(runCommand('sh check.sh watch'), runCommand('sh check.sh --watch'), runCommand('sh check.sh && rm -rf x'), { text: 'The others were declined.' })
    const later = fx.open()
    answerApprovals(later, () => ({ allow: false }))
    await later.session.runTurn('run the checks in watch mode, then clean up').done
    expect(later.ofType('approval_needed').map((e) => e.command)).toEqual(['sh check.sh --watch', 'sh check.sh && rm -rf x'])
    expect(ranLog()).toBe('ran once\nran watch\n')
    expect(existsSync(join(fx.workspace, 'x'))).toBe(true)
  })

  it("allows a write approved with remember 'prefix' just once (only commands have prefixes)", async () => {
    fx.server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'B' } }] },
      { text: 'Done.' }
    )
    const recorded = fx.open()
    answerApprovals(recorded, () => ({ allow: true, remember: 'prefix' }))
    await recorded.session.runTurn('write a and b').done
    expect(recorded.ofType('approval_needed')).toHaveLength(2)
    expect(recorded.ofType('approval_resolved').map((e) => e.remembered)).toEqual(['once', 'once'])
    expect(fx.core.config.get().agent.allowedCommandPrefixes).toEqual([])
    expect(readFileSync(join(fx.workspace, 'b.txt'), 'utf8')).toBe('B')
  })

  it('denies a pending approval when the turn is cancelled and ends the turn', async () => {
    fx.server.enqueue(runCommand('sh check.sh slow'), { text: 'never sent' })
    const recorded = fx.open()
    answerApprovals(recorded, () => 'cancel')
    const summary = await recorded.session.runTurn('run the checks').done

    expect(summary.reason).toBe('cancelled')
    expect(recorded.ofType('approval_resolved')).toEqual([expect.objectContaining({ allowed: false })])
    expect(recorded.session.approvals.pendingRequests()).toEqual([])
    expect(ranLog()).toBe('')
    expect(fx.server.chatRequests()).toHaveLength(1) // the model was not called again
    const stored = fx.core.sessions.messages(recorded.session.id)
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(JSON.parse(stored[2].content!)).toMatchObject({ success: false, denied: true })
    expect(recorded.events.at(-1)).toMatchObject({ type: 'turn_finished', reason: 'cancelled' })
    expect(recorded.session.isRunning).toBe(false)
  })

  it('never asks with autoApprove', async () => {
    fx.server.enqueue(
      runCommand('sh check.sh auto'),
      { toolCalls: [{ name: 'write_file', arguments: { path: 'auto.txt', content: 'written' } }] },
      { text: 'All done.' }
    )
    const recorded = fx.open({ autoApprove: true })
    const summary = await recorded.session.runTurn('do it all').done
    expect(summary.toolCalls.map((c) => c.ok)).toEqual([true, true])
    expect(recorded.ofType('approval_needed')).toEqual([])
    expect(ranLog()).toBe('ran auto\n')
    expect(readFileSync(join(fx.workspace, 'auto.txt'), 'utf8')).toBe('written')
  })
})

describe('always-allowed prefixes and the options of the program', () => {
  beforeEach(async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: fx.workspace, stdio: 'ignore' })
    git('init', '-q')
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '--allow-empty', '-m', 'first')
    await fx.core.config.update({ agent: { allowedCommandPrefixes: ['git log', 'find'] } })
  })

  /** Runs each command in its own model step, declining whatever asks; returns the commands that asked. */
  async function runAll(commands: string[]): Promise<string[]> {
    fx.server.enqueue(...commands.map(runCommand), { text: 'Done.' })
    const recorded = fx.open()
    answerApprovals(recorded, () => ({ allow: false }))
    await recorded.session.runTurn('look at the history').done
    return recorded.ofType('approval_needed').map((event) => event.command!)
  }

  it('asks before `git log --output=FILE` writes a chosen file, however the option is quoted', async () => {
    const escapes = ['git log --output=pwned.txt --format=format:owned', "git log '--output=pwned.txt' --format=format:owned", 'git log --oneline --output pwned.txt']
    const asked = await runAll(['git log --oneline -1', ...escapes])
    expect(asked).toEqual(escapes)
    expect(existsSync(join(fx.workspace, 'pwned.txt'))).toBe(false)
    // The plain read still ran without asking.
    const afterFirst = fx.server.chatRequests()[1].body.messages as Array<{ role: string; content: string }>
    expect(JSON.parse(afterFirst.at(-1)!.content)).toMatchObject({ success: true, stdout: expect.stringContaining('first') })
  })

  it('asks before `find … -exec` runs a program', async () => {
    const escapes = ['find . -maxdepth 0 -exec touch pwned-find {} +', 'find . -maxdepth 0 "-exec" touch pwned-find {} +', 'find . -maxdepth 0 -delete', 'find . -fprint pwned-find']
    const asked = await runAll(['find . -maxdepth 0', ...escapes])
    expect(asked).toEqual(escapes)
    expect(existsSync(join(fx.workspace, 'pwned-find'))).toBe(false)
  })
})

describe('commands run outside the workspace', () => {
  const SECRET = 'sk-live-CWD-7Qp2Zx9Lm4Rt'
  let secretDir: string
  beforeEach(async () => {
    secretDir = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-secret-')))
    writeFileSync(join(secretDir, 'credentials.env'), `API_KEY=${SECRET}\n`)
    writeFileSync(join(secretDir, 'check.sh'), 'echo "ran $*" >> ran.log\n')
    symlinkSync(secretDir, join(fx.workspace, 'vault'))
    await fx.core.config.update({ agent: { allowedCommandPrefixes: ['grep'] } })
  })
  afterEach(() => rmSync(secretDir, { recursive: true, force: true }))

  it('asks every time, whatever prefix is saved or allowed for the conversation, and shows the real folder', async () => {
    const grep = (cwd?: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command: 'grep -r "" .', ...(cwd ? { cwd } : {}) } }] })
    fx.server.enqueue(grep(), runCommand('sh check.sh once'), grep(secretDir), grep('vault'), { toolCalls: [{ name: 'run_command', arguments: { command: 'sh check.sh twice', cwd: secretDir } }] }, { text: 'Declined.' })
    const recorded = fx.open()
    answerApprovals(recorded, (event) => (event.command === 'sh check.sh once' ? { allow: true, remember: 'session' } : { allow: false }))
    await recorded.session.runTurn('find the keys').done
    const asked = recorded.ofType('approval_needed')
    expect(asked.map((e) => [e.command, e.cwd])).toEqual([
      ['sh check.sh once', fx.workspace],
      ['grep -r "" .', secretDir],
      ['grep -r "" .', secretDir],
      ['sh check.sh twice', secretDir]
    ])
    for (const event of asked.slice(1)) expect(event).toMatchObject({ outsideWorkspace: true, scopes: ['once'] })
    expect(asked[3].summary).toBe(`Run \`sh check.sh twice\` in ${secretDir} (outside the workspace ${realpathSync(fx.workspace)})`)
    expect(asked[2].summary).toContain('reached through the symlink vault')
    const tools = (fx.server.lastChatRequest()!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool')
    // The grep inside the workspace ran unasked (vault is a link out, which grep -r does not follow); none outside did.
    expect(JSON.parse(tools[0].content)).toMatchObject({ success: true })
    for (const tool of tools) expect(tool.content).not.toContain(SECRET)
    expect(existsSync(join(secretDir, 'ran.log'))).toBe(false)
  })
})
