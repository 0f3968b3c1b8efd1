import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildShell, REPO_ROOT, type ShellBuild } from './build-shell'
import { installElectronStub, stubState, type ElectronStub } from './electron-stub'

let build: ShellBuild
let stub: ElectronStub
let bridge: { request(route: unknown, input?: unknown): Promise<any>; on(name: unknown, callback: unknown): () => void }

/** What main would push on the event channel. */
function pushEvent(name: unknown, payload: unknown): void {
  for (const listener of stubState.rendererListeners.get('cairn:event') ?? []) listener({ sender: 'ipc-internals' }, name, payload)
}

beforeAll(async () => {
  build = await buildShell()
  stub = installElectronStub({ userData: mkdtempSync(join(tmpdir(), 'cairn-')), appPath: REPO_ROOT })
  createRequire(__filename)(build.preloadEntry)
  bridge = stubState.exposed[0]?.api as typeof bridge
}, 120_000)

afterAll(() => stub?.restore())

describe('the built preload', () => {
  it('is one CJS file that requires nothing but electron', () => {
    const code = readFileSync(build.preloadEntry, 'utf8')
    const required = [...code.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1])
    expect([...new Set(required)]).toEqual(['electron'])
    expect(code).not.toMatch(/^\s*(import|export)\s/m)
  })

  it('exposes exactly window.cairn with request and on, nothing else', () => {
    expect(stubState.exposed.map((exposure) => exposure.key)).toEqual(['cairn'])
    expect(Object.keys(stubState.exposed[0].api).sort()).toEqual(['on', 'request'])
  })

  it('sends requests on the one request channel and returns main’s envelope', async () => {
    await expect(bridge.request('sessions.list', { limit: 5 })).resolves.toEqual({ ok: true, data: { echoed: ['sessions.list', { limit: 5 }] } })
    expect(stubState.rendererInvokes.at(-1)).toEqual({ channel: 'cairn:request', args: ['sessions.list', { limit: 5 }] })
  })

  it('answers a non-string route with an error envelope instead of sending it', async () => {
    const sent = stubState.rendererInvokes.length
    await expect(bridge.request({ toString: () => 'app.info' })).resolves.toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(stubState.rendererInvokes).toHaveLength(sent)
  })

  it('turns a failed invoke into an INTERNAL envelope (the UI never sees a raw rejection)', async () => {
    const ipcRenderer = stub.module.ipcRenderer as { invoke: (...args: unknown[]) => Promise<unknown> }
    const original = ipcRenderer.invoke
    ipcRenderer.invoke = async () => {
      throw new Error('An object could not be cloned.')
    }
    try {
      await expect(bridge.request('app.info', { fn: 'x' })).resolves.toEqual({ ok: false, error: { code: 'INTERNAL', message: 'An object could not be cloned.' } })
    } finally {
      ipcRenderer.invoke = original
    }
  })

  it('delivers only the named event’s payload (never the IPC event) until unsubscribed', () => {
    const received: unknown[] = []
    const stop = bridge.on('chat.event', (payload: unknown) => received.push(payload))
    pushEvent('chat.event', { type: 'token', text: 'hi' })
    pushEvent('ledger.changed', { entry: { id: 1 } })
    stop()
    pushEvent('chat.event', { type: 'token', text: 'after' })
    expect(received).toEqual([{ type: 'token', text: 'hi' }])
  })

  it('keeps other listeners running when one throws', () => {
    const received: unknown[] = []
    const stopBroken = bridge.on('memory.changed', () => {
      throw new Error('broken listener')
    })
    const stopGood = bridge.on('memory.changed', (payload: unknown) => received.push(payload))
    const logged: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => void logged.push(args)
    try {
      pushEvent('memory.changed', {})
    } finally {
      console.error = original
    }
    stopBroken()
    stopGood()
    expect(received).toEqual([{}])
    expect(String(logged[0]?.[0])).toContain('a listener for memory.changed failed')
  })

  it('rejects a subscription without a string name or a function', () => {
    expect(() => bridge.on(42, () => {})).toThrow(TypeError)
    expect(() => bridge.on('chat.event', 'not a function')).toThrow(TypeError)
  })
})
