import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { hermeticEnv } from '../../../../electron/core/learning/host/spawn-worker'
import { createWorkerChannel } from '../../../../electron/core/learning/worker/worker-channel'

describe('createWorkerChannel', () => {
  it('uses Electron’s parentPort when present: payload in event.data, replies by postMessage', async () => {
    const port = Object.assign(new EventEmitter(), { posted: [] as unknown[], postMessage(message: unknown) { this.posted.push(message) } })
    const fakeProcess = Object.assign(new EventEmitter(), { parentPort: port, send: () => { throw new Error('must not use process.send') } })
    const channel = createWorkerChannel(fakeProcess as unknown as NodeJS.Process)
    const received: unknown[] = []
    channel.onMessage((message) => received.push(message))
    port.emit('message', { data: { hello: 2 }, ports: [] })
    await channel.send({ echo: { hello: 2 } })
    expect(received).toEqual([{ hello: 2 }])
    expect(port.posted).toEqual([{ echo: { hello: 2 } }])
  })

  it('falls back to process.send / message events in a forked Node child', async () => {
    const sent: unknown[] = []
    const fakeProcess = Object.assign(new EventEmitter(), {
      send(message: unknown, _handle: unknown, _options: unknown, callback: (error: Error | null) => void) {
        sent.push(message)
        callback(null)
        return true
      }
    })
    const channel = createWorkerChannel(fakeProcess as unknown as NodeJS.Process)
    const received: unknown[] = []
    let disconnected = false
    channel.onMessage((message) => received.push(message))
    channel.onDisconnect(() => (disconnected = true))
    fakeProcess.emit('message', { hello: 1 })
    fakeProcess.emit('disconnect')
    await channel.send({ echo: 1 })
    expect(received).toEqual([{ hello: 1 }])
    expect(sent).toEqual([{ echo: 1 }])
    expect(disconnected).toBe(true)
  })

  it('refuses to run outside a child process with a message that says why', () => {
    expect(() => createWorkerChannel(new EventEmitter() as unknown as NodeJS.Process)).toThrow(/must be started by Cairn/)
  })
})

describe('hermeticEnv', () => {
  it('passes only what a process needs to run, never keys, tokens or proxies', () => {
    const env = hermeticEnv({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'en_US.UTF-8',
      TZ: 'UTC',
      TMPDIR: '/tmp',
      SystemRoot: 'C:\\Windows',
      CAIRN_API_KEY: 'sk-1',
      OPENAI_API_KEY: 'sk-2',
      GITHUB_TOKEN: 'ghp',
      HTTPS_PROXY: 'http://proxy',
      NODE_OPTIONS: '--require evil.js'
    })
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'en_US.UTF-8', TZ: 'UTC', TMPDIR: '/tmp', SYSTEMROOT: 'C:\\Windows' })
  })
})
