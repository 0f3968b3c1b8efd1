import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { REVIEW_PROTOCOL, REVIEW_PROTOCOL_VERSION, type HostMessage } from '../../../../shared/review-protocol'
import { CairnCore } from '../../../../electron/core/cairn'
import { ReviewHost, reviewHostDepsOf } from '../../../../electron/core/learning/host/review-host'
import type { WorkerHandle } from '../../../../electron/core/learning/host/spawn-worker'

let core: CairnCore
beforeEach(async () => {
  core = await CairnCore.open({ home: mkdtempSync(join(tmpdir(), 'cairn-start-')) })
})
afterEach(async () => {
  await core.close()
})

/** A worker that only says `ready`, hands over what it is sent and exits when told to (no process needed to check the frame). */
function recordingWorker(onSent: (message: HostMessage) => void): WorkerHandle {
  let onMessage: (m: unknown) => void = () => {}
  let onExit: (code: number | null, signal: string | null) => void = () => {}
  const handle: WorkerHandle = {
    pid: 4242,
    send: (message) => {
      onSent(message)
      if (message.type === 'shutdown') onExit(0, null)
    },
    onMessage: (cb) => {
      onMessage = cb
      queueMicrotask(() => onMessage({ protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION, reviewId: '', type: 'ready', pid: 4242 }))
    },
    onExit: (cb) => (onExit = cb),
    kill: () => onExit(null, 'SIGKILL')
  }
  return handle
}

describe('the start message', () => {
  it('carries the key, the detached flag and the SQLite binary, and nothing secret goes elsewhere', async () => {
    let gotStart: (message: HostMessage) => void = () => {}
    const started = new Promise<HostMessage>((resolve) => (gotStart = resolve))
    const host = new ReviewHost({
      ...reviewHostDepsOf(core),
      spawn: () => recordingWorker((message) => message.type === 'start' && gotStart(message)),
      provider: () => ({ preset: 'custom', baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKey: 'sk-start', requestTimeoutMs: 1000, maxRetries: 0 }),
      detached: true,
      nativeBinding: '/opt/cairn/better_sqlite3.node'
    })
    host.enqueue({ sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: [], skillsUsed: [] })
    expect(await started).toMatchObject({
      type: 'start',
      home: core.paths.root,
      provider: { apiKey: 'sk-start' },
      detached: true,
      nativeBinding: '/opt/cairn/better_sqlite3.node'
    })
    await host.close()
  })
})
