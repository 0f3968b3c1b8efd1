import { afterEach, describe, expect, it, vi } from 'vitest'
import type { McpServerInfo } from '../../../shared/mcp'
import { runTool } from '../../../electron/core/tools/run-tool'
import { allowAll, everythingStdio, fastTimers, isAlive, managerRig, toolNamed, type ManagerRig } from './mcp-fixture'

const rigs: ManagerRig[] = []
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.close()))
})

function rig(...args: Parameters<typeof managerRig>): ManagerRig {
  const made = managerRig(...args)
  rigs.push(made)
  return made
}

const LONG = 'mcp__everything__trigger-long-running-operation'
const ECHO = 'mcp__everything__echo'

describe('McpManager lifecycle', () => {
  it('gives up on a slow tool after timeoutMs, saying so with the seconds, and the server stays usable', async () => {
    const { manager } = rig({ everything: everythingStdio({ timeoutMs: 1000 }) })
    manager.start()
    await manager.whenSettled(30_000)
    const tools = manager.conversationTools()
    const slow = (await runTool(toolNamed(tools, LONG), { duration: 5, steps: 5 }, allowAll())) as { success: boolean; error: string }
    expect(slow.success).toBe(false)
    expect(slow.error).toMatch(/did not answer trigger-long-running-operation within 1 s/)
    await expect(runTool(toolNamed(tools, ECHO), { message: 'still here' }, allowAll())).resolves.toBe('Echo: still here')
    expect(manager.list()[0].status).toBe('ready')
  })

  it('answers a call in flight at once when the server dies, restarts it, and the next call works', async () => {
    const { manager } = rig({ everything: everythingStdio() }, { timers: fastTimers })
    manager.start()
    await manager.whenSettled(30_000)
    const tools = manager.conversationTools()
    const firstPid = manager.pidOf('everything')!
    expect(isAlive(firstPid)).toBe(true)
    const started = Date.now()
    let approved!: () => void
    const sent = new Promise<void>((resolve) => (approved = resolve))
    const ctx = { ...allowAll(), approve: async () => (approved(), true) }
    const pending = runTool(toolNamed(tools, LONG), { duration: 30, steps: 30 }, ctx)
    // Once approved the request goes out on the next turn of the event loop: the kill lands mid-call.
    await sent
    await new Promise((resolve) => setImmediate(resolve))
    process.kill(firstPid, 'SIGKILL')
    const result = (await pending) as { success: boolean; error: string }
    expect(Date.now() - started).toBeLessThan(10_000)
    // `server_failed` names the server, so the chat links the failure to its settings (issue 29).
    expect(result).toEqual({ success: false, error: 'The MCP server everything stopped during the call; it is being restarted.', server_failed: 'everything' })

    await vi.waitFor(() => expect(manager.list()[0]).toMatchObject({ status: 'ready', restarts: 1 }), { timeout: 20_000, interval: 50 })
    expect(manager.pidOf('everything')).not.toBe(firstPid)
    expect(manager.readLog('everything')).toMatch(/stopped unexpectedly[\s\S]*restarting in 1 s[\s\S]*starting \(restart 1\)[\s\S]*ready with/)
    // The conversation's snapshot still works: its tools reach the server by name, not by connection.
    await expect(runTool(toolNamed(tools, ECHO), { message: 'after the restart' }, allowAll())).resolves.toBe('Echo: after the restart')
  })

  it('shows the crash and when the restart is due, backs off after repeated crashes, and starts over after a healthy minute', async () => {
    let skipped = 0
    const timers = { ...fastTimers, now: () => Date.now() + skipped, setTimeout: (run: () => void, ms: number) => setTimeout(run, ms / 20) }
    const { manager } = rig({ everything: everythingStdio() }, { timers })
    const seen: McpServerInfo[] = []
    manager.onChange(() => seen.push(manager.list()[0]))
    manager.start()
    await manager.whenSettled(30_000)
    process.kill(manager.pidOf('everything')!, 'SIGKILL')
    await vi.waitFor(() => expect(seen.some((info) => info.status === 'failed')).toBe(true), { timeout: 10_000, interval: 20 })
    const crashed = seen.find((info) => info.status === 'failed')!
    expect(crashed.error?.code).toBe('crashed')
    expect(crashed.nextRestartAt! - timers.now()).toBeGreaterThan(0)
    expect(crashed.nextRestartAt! - timers.now()).toBeLessThanOrEqual(1000)
    await vi.waitFor(() => expect(manager.list()[0]).toMatchObject({ status: 'ready', restarts: 1 }), { timeout: 30_000, interval: 50 })
    process.kill(manager.pidOf('everything')!, 'SIGKILL')
    await vi.waitFor(() => expect(manager.readLog('everything')).toMatch(/restarting in 2 s/), { timeout: 10_000, interval: 20 })
    await vi.waitFor(() => expect(manager.list()[0]).toMatchObject({ status: 'ready', restarts: 2 }), { timeout: 30_000, interval: 50 })
    // Up for a minute (the clock skips it): the next crash is retried after 1 s again, not 4 s.
    skipped += 61_000
    process.kill(manager.pidOf('everything')!, 'SIGKILL')
    await vi.waitFor(() => expect(manager.readLog('everything').match(/restarting in \d+ s/g)).toEqual(['restarting in 1 s', 'restarting in 2 s', 'restarting in 1 s']), {
      timeout: 10_000,
      interval: 20
    })
  })

  it('close() stops every stdio child: no process is left running', async () => {
    const { manager } = rig({ one: everythingStdio(), two: everythingStdio() })
    manager.start()
    await manager.whenSettled(30_000)
    const pids = [manager.pidOf('one'), manager.pidOf('two')]
    expect(pids.every((pid) => pid !== null && isAlive(pid))).toBe(true)
    await manager.close()
    await vi.waitFor(() => expect(pids.filter((pid) => isAlive(pid!))).toEqual([]), { timeout: 10_000, interval: 50 })
    expect(manager.list().map((s) => s.status)).toEqual(['stopped', 'stopped'])
    manager.start()
    expect(manager.list().map((s) => s.status)).toEqual(['stopped', 'stopped'])
  })

  it('resolves ${secret:NAME} into the server env and never writes the value to the log', async () => {
    const secret = 'sk-live-4c41r-n0t-4-l0g'
    const { manager } = rig(
      {
        everything: everythingStdio({ env: { API_TOKEN: '${secret:everything-token}' } }),
        leaky: { command: process.execPath, args: ['-e', 'console.error("token=" + process.env.API_TOKEN); process.exit(1)'], env: { API_TOKEN: '${secret:everything-token}' } },
        missing: everythingStdio({ env: { API_TOKEN: '${secret:not-saved}' } })
      },
      { resolveSecret: (name) => (name === 'everything-token' ? secret : null) }
    )
    manager.start()
    await manager.whenSettled(30_000)
    const [everything, leaky, missing] = manager.list()
    expect(everything.status).toBe('ready')
    const env = await runTool(toolNamed(manager.conversationTools(), 'mcp__everything__get-env'), {}, allowAll())
    // The server got the value; what it sends back has the value replaced, as everywhere else.
    expect(String(env)).toContain('"API_TOKEN": "[secret]"')
    expect(String(env)).not.toContain(secret)
    expect(missing).toMatchObject({ status: 'failed', error: { code: 'secret_missing' } })
    expect(missing.error?.message).toContain('not-saved')
    await vi.waitFor(() => expect(manager.readLog('leaky')).toContain('token=[secret]'), { timeout: 5000 })
    for (const name of ['everything', 'leaky', 'missing']) expect(manager.readLog(name)).not.toContain(secret)
    expect(JSON.stringify(manager.list())).not.toContain(secret)
  })

  it('reload starts new servers, stops removed ones and restarts changed ones; test() reconnects one now', async () => {
    const rigged = rig({ a: everythingStdio() })
    const { manager, servers } = rigged
    manager.start()
    await manager.whenSettled(30_000)
    const firstA = manager.pidOf('a')!
    servers.b = everythingStdio()
    await manager.reload()
    await manager.whenSettled(30_000)
    expect(manager.list().map((s) => [s.name, s.status])).toEqual([['a', 'ready'], ['b', 'ready']])
    expect(manager.pidOf('a')).toBe(firstA)
    servers.a = everythingStdio({ timeoutMs: 30_000 })
    delete servers.b
    const b = manager.pidOf('b')!
    await manager.reload()
    await manager.whenSettled(30_000)
    expect(manager.list().map((s) => [s.name, s.status])).toEqual([['a', 'ready']])
    expect(manager.pidOf('a')).not.toBe(firstA)
    await vi.waitFor(() => expect(isAlive(b)).toBe(false), { timeout: 10_000 })
    const before = manager.pidOf('a')
    const tested = await manager.test('a')
    expect(tested.status).toBe('ready')
    expect(manager.pidOf('a')).not.toBe(before)
    await expect(manager.test('nope')).rejects.toThrow(/no MCP server named "nope"/)
  })
})
