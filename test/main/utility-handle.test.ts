import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { REVIEW_PROTOCOL, REVIEW_PROTOCOL_VERSION } from '../../shared/review-protocol'
import { utilityWorkerHandle, type UtilityProcessLike } from '../../electron/main/review/utility-handle'

/** Behaves like Electron's UtilityProcess: pid known after spawn, `exit` with a code only. */
class FakeUtility extends EventEmitter implements UtilityProcessLike {
  pid: number | undefined = undefined
  readonly stdout = new PassThrough()
  readonly stderr = new PassThrough()
  readonly posted: unknown[] = []
  kills = 0

  postMessage(message: unknown): void {
    this.posted.push(message)
  }
  kill(): boolean {
    this.kills++
    return true
  }
}

const shutdown = { protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION, type: 'shutdown' } as const

describe('utility process as a review worker handle', () => {
  it('posts host frames, passes worker messages through, and reads the pid once spawned', () => {
    const child = new FakeUtility()
    const handle = utilityWorkerHandle(child)
    const received: unknown[] = []
    handle.onMessage((message) => received.push(message))
    expect(handle.pid).toBeUndefined()
    child.pid = 4242
    expect(handle.pid).toBe(4242)
    handle.send(shutdown)
    child.emit('message', { type: 'ready', pid: 4242 })
    expect(child.posted).toEqual([shutdown])
    expect(received).toEqual([{ type: 'ready', pid: 4242 }])
  })

  it('reports the exit once, also to late listeners, and stops sending and killing after it', () => {
    const child = new FakeUtility()
    const handle = utilityWorkerHandle(child)
    const exits: Array<[number | null, string | null]> = []
    handle.onExit((code, signal) => exits.push([code, signal]))
    child.emit('exit', 73)
    child.emit('exit', 73)
    handle.onExit((code, signal) => exits.push([code, signal]))
    handle.send(shutdown)
    handle.kill()
    expect(exits).toEqual([
      [73, null],
      [73, null]
    ])
    expect(child.posted).toEqual([])
    expect(child.kills).toBe(0)
  })

  it('keeps the tail of the worker’s output for the crash message', () => {
    const child = new FakeUtility()
    const handle = utilityWorkerHandle(child)
    child.stdout.write('x'.repeat(20_000))
    child.stderr.write('TypeError: boom\n')
    child.emit('error', 'FatalError', 'v8::Isolate')
    const output = handle.output!()
    expect(output.length).toBeLessThanOrEqual(8 * 1024)
    expect(output).toContain('TypeError: boom')
    expect(output).toContain('utility process error: FatalError at v8::Isolate')
  })

  it('a frame that cannot be posted is noted in the output instead of throwing', () => {
    const child = new FakeUtility()
    child.postMessage = () => {
      throw new Error('could not clone')
    }
    const handle = utilityWorkerHandle(child)
    expect(() => handle.send(shutdown)).not.toThrow()
    expect(handle.output!()).toContain('could not send shutdown to the worker: could not clone')
  })
})
