import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createClient, IpcRequestError } from '../../../renderer/src/ipc/client'
import { pickTransport, tokenFromHash } from '../../../renderer/src/ipc/pick-transport'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import { wsTransport, type SocketLike } from '../../../renderer/src/ipc/ws-transport'
import { FakeBridge, FakeFailure } from '../helpers/fake-transport'

/** A WebSocket the test drives: open, close, answer frames. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = []
  readyState = 0
  sent: Array<{ type: string; id: number; route: string; input: unknown }> = []
  onopen: ((event: unknown) => void) | null = null
  onclose: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onerror: ((event: unknown) => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data))
  }
  close(): void {
    this.drop()
  }
  open(): void {
    this.readyState = 1
    this.onopen?.({})
  }
  drop(): void {
    this.readyState = 3
    this.onclose?.({})
  }
  receive(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) })
  }
}

describe('typed client', () => {
  it('unwraps answers and throws errors that carry the code and message', async () => {
    const bridge = new FakeBridge({
      'sessions.list': [],
      'sessions.delete': () => {
        throw new FakeFailure('BUSY', 'Stop the reply first.')
      }
    })
    const client = createClient(preloadTransport(bridge))
    await expect(client.request('sessions.list', {})).resolves.toEqual({ sessions: [], nextCursor: null })
    const failure = await client.request('sessions.delete', { sessionId: 's1' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(IpcRequestError)
    expect(failure).toMatchObject({ code: 'BUSY', message: 'Stop the reply first.', route: 'sessions.delete' })
  })

  it('delivers events by name', () => {
    const bridge = new FakeBridge()
    const client = createClient(preloadTransport(bridge))
    const seen: unknown[] = []
    const off = client.on('sessions.changed', (payload) => seen.push(payload))
    bridge.emit('sessions.changed', { sessionId: 's1' })
    off()
    bridge.emit('sessions.changed', { sessionId: 's2' })
    expect(seen).toEqual([{ sessionId: 's1' }])
  })
})

describe('pickTransport', () => {
  const fakeWindow = (hash: string, cairn?: unknown) =>
    ({ cairn, location: { hash, host: '127.0.0.1:4280', protocol: 'http:' } }) as unknown as Window

  beforeEach(() => {
    FakeSocket.all = []
    vi.stubGlobal('WebSocket', FakeSocket)
  })
  afterEach(() => vi.unstubAllGlobals())

  it('uses the preload bridge when there is one', () => {
    const choice = pickTransport(fakeWindow('', new FakeBridge()), 'main')
    expect(choice.kind === 'ready' && choice.transport.mode).toBe('desktop')
    expect(FakeSocket.all).toHaveLength(0)
  })

  it('needs the token in browser mode', () => {
    expect(pickTransport(fakeWindow(''), 'main')).toEqual({ kind: 'missing-token' })
    expect(tokenFromHash('#token=abc-123')).toBe('abc-123')
    expect(tokenFromHash('#other=1')).toBeNull()
  })

  it('connects the socket to /ws with the token, and marks the quick window', () => {
    const choice = pickTransport(fakeWindow('#token=s3cr3t_-x'), 'quick')
    expect(choice.kind === 'ready' && choice.transport.mode).toBe('browser')
    expect(FakeSocket.all[0].url).toBe('ws://127.0.0.1:4280/ws?token=s3cr3t_-x&window=quick')
    if (choice.kind === 'ready') choice.transport.close()
  })
})

describe('WebSocket transport', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  const make = (waitTimeoutMs = 5000) => {
    const sockets: FakeSocket[] = []
    const transport = wsTransport({ url: 'ws://x/ws?token=t', createSocket: (url) => sockets[sockets.push(new FakeSocket(url)) - 1], waitTimeoutMs, backoffMs: (n) => 1000 * (n + 1) })
    return { transport, sockets }
  }

  it('holds requests made before the socket opens, then sends them and matches answers by id', async () => {
    const { transport, sockets } = make()
    const first = transport.request('sessions.list', { limit: 5 })
    const second = transport.request('app.info', undefined)
    expect(sockets[0].sent).toEqual([])
    sockets[0].open()
    expect(sockets[0].sent.map((f) => f.route)).toEqual(['sessions.list', 'app.info'])
    const [a, b] = sockets[0].sent
    sockets[0].receive({ type: 'response', id: b.id, result: { ok: true, data: 'info' } })
    sockets[0].receive({ type: 'response', id: a.id, result: { ok: true, data: [] } })
    await expect(first).resolves.toEqual({ ok: true, data: [] })
    await expect(second).resolves.toEqual({ ok: true, data: 'info' })
    expect(a).toMatchObject({ type: 'request', input: { limit: 5 } })
  })

  it('reconnects with backoff after a drop, reporting its status, and fails the answers the drop lost', async () => {
    const { transport, sockets } = make()
    const statuses: string[] = []
    transport.onStatus((status) => statuses.push(status))
    sockets[0].open()
    const lost = transport.request('sessions.list', {})
    sockets[0].drop()
    await expect(lost).resolves.toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } })
    expect(transport.status()).toBe('reconnecting')

    const waiting = transport.request('app.info', undefined)
    vi.advanceTimersByTime(999)
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(2)
    sockets[1].drop()
    vi.advanceTimersByTime(2000)
    expect(sockets).toHaveLength(3)
    sockets[2].open()
    expect(statuses).toEqual(['open', 'reconnecting', 'open'])
    const frame = sockets[2].sent[0]
    expect(frame.route).toBe('app.info')
    sockets[2].receive({ type: 'response', id: frame.id, result: { ok: true, data: 1 } })
    await expect(waiting).resolves.toEqual({ ok: true, data: 1 })
    transport.close()
  })

  it('gives up on a request that waited too long for the connection', async () => {
    const { transport, sockets } = make(3000)
    const request = transport.request('app.info', undefined)
    vi.advanceTimersByTime(3000)
    await expect(request).resolves.toMatchObject({ ok: false, error: { code: 'TIMEOUT' } })
    sockets[0].open()
    expect(sockets[0].sent).toEqual([])
    transport.close()
  })

  it('passes pushed events to their listeners', () => {
    const { transport, sockets } = make()
    const seen: unknown[] = []
    transport.on('memory.changed', (payload) => seen.push(payload))
    sockets[0].open()
    sockets[0].receive({ type: 'event', name: 'memory.changed', payload: {} })
    sockets[0].receive({ type: 'event', name: 'other', payload: 1 })
    expect(seen).toEqual([{}])
    transport.close()
  })
})
