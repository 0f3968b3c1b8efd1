/**
 * Issue 9 §3: one authenticated WebSocket frame used to kill `cairn serve`. Each malformed frame goes
 * to a live server in its own process; afterwards the process is still running, a new connection is
 * answered, and a connection opened before the attack (with a turn running on it) carries on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { AgentEvent } from '../../shared/agent-events'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { startLiveServe, type LiveServe } from './live-serve'
import { buildFrame, OPCODE, openRawSocket, type FrameSpec } from './raw-ws'

let provider: ScriptedServer
let serve: LiveServe
/** Every model request waits for this, so a turn can be held running while the attacks happen. */
let releaseModel: () => void

beforeEach(async () => {
  const modelReleased = new Promise<void>((resolve) => (releaseModel = resolve))
  provider = await startScriptedServer({
    respond: async () => {
      await modelReleased
      return { text: 'Still here.' }
    }
  })
  serve = await startLiveServe(provider.url)
})
afterEach(async () => {
  releaseModel()
  await serve.close()
  await provider.close()
})

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${serve.port}/ws?token=${serve.token}`)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

interface ResponseFrame {
  type: 'response'
  id: number | null
  result: { ok: boolean; data?: unknown; error?: { code: string; message: string } }
}

/** The next response frame on `ws`; fails at once if the connection closes first. */
function nextResponse(ws: WebSocket): Promise<ResponseFrame> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data)) as ResponseFrame
      if (frame.type !== 'response') return
      ws.off('message', onMessage).off('close', onClose)
      resolve(frame)
    }
    const onClose = (code: number) => reject(new Error(`the connection closed (${code}) before an answer came:\n${serve.output()}`))
    ws.on('message', onMessage).once('close', onClose)
  })
}

async function request(ws: WebSocket, id: number, route: string, input?: unknown): Promise<ResponseFrame['result']> {
  const answer = nextResponse(ws)
  ws.send(JSON.stringify({ type: 'request', id, route, input }))
  const frame = await answer
  expect(frame.id).toBe(id)
  return frame.result
}

function turnFinished(ws: WebSocket, sessionId: string): Promise<Extract<AgentEvent, { type: 'turn_finished' }>> {
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; name?: string; payload?: AgentEvent }
      if (frame.type === 'event' && frame.name === 'chat.event' && frame.payload?.type === 'turn_finished' && frame.payload.sessionId === sessionId) {
        resolve(frame.payload)
      }
    })
  })
}

async function expectServerAnswers(): Promise<void> {
  expect(serve.alive(), serve.output()).toBe(true)
  const fresh = await connect()
  expect(await request(fresh, 1, 'app.info')).toMatchObject({ ok: true, data: { mode: 'browser' } })
  fresh.close()
}

const text = (value: string) => Buffer.from(value, 'utf8')

/** Frames the protocol itself forbids: the server closes that socket with the RFC 6455 code for the fault. */
const protocolAttacks: Array<{ name: string; frame: FrameSpec; closeCode: number }> = [
  { name: 'an unmasked frame', frame: { opcode: OPCODE.text, payload: text('{"type":"request","id":1,"route":"app.info"}'), masked: false }, closeCode: 1002 },
  { name: 'invalid UTF-8 in a text frame', frame: { opcode: OPCODE.text, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }, closeCode: 1007 },
  { name: 'a frame over the size limit (attachments included)', frame: { opcode: OPCODE.text, declaredLength: 128 * 1024 * 1024 }, closeCode: 1009 },
  { name: 'a reserved opcode', frame: { opcode: OPCODE.reserved, payload: text('x') }, closeCode: 1002 },
  { name: 'RSV1 without a negotiated extension', frame: { opcode: OPCODE.text, payload: text('{}'), rsv1: true }, closeCode: 1002 },
  { name: 'a binary frame (the contract is JSON text)', frame: { opcode: OPCODE.binary, payload: text('{"type":"request","id":1,"route":"app.info"}') }, closeCode: 1003 }
]

describe('cairn serve and malformed WebSocket frames', () => {
  for (const attack of protocolAttacks) {
    it(`closes only the socket that sent ${attack.name} (code ${attack.closeCode})`, async () => {
      const bystander = await connect()
      const raw = await openRawSocket(serve.port, serve.token)
      raw.send(buildFrame(attack.frame))
      expect(await raw.closed).toBe(attack.closeCode)

      await expectServerAnswers()
      expect(await request(bystander, 7, 'app.info')).toMatchObject({ ok: true })
      bystander.close()
    })
  }

  it('answers JSON that is not a request frame with an error envelope and keeps the socket open', async () => {
    const ws = await connect()
    const bad: Array<{ frame: string; id: number | null; says: RegExp }> = [
      { frame: 'null', id: null, says: /must be a JSON object/ },
      { frame: '[]', id: null, says: /must be a JSON object/ },
      { frame: '42', id: null, says: /must be a JSON object/ },
      { frame: '"request"', id: null, says: /must be a JSON object/ },
      { frame: 'not json {', id: null, says: /not valid JSON/ },
      { frame: '{"type":"request"}', id: null, says: /id/ },
      { frame: '{"type":"subscribe","id":3}', id: 3, says: /type/ },
      { frame: '{"type":"request","id":4,"route":{"toString":1}}', id: 4, says: /route/ },
      { frame: '{"type":"request","id":1.5,"route":"app.info"}', id: null, says: /id/ }
    ]
    for (const { frame, id, says } of bad) {
      const answer = nextResponse(ws)
      ws.send(frame)
      const response = await answer
      expect(response, frame).toMatchObject({ id, result: { ok: false, error: { code: 'BAD_FRAME' } } })
      expect(response.result.error!.message, frame).toMatch(says)
    }
    // Nothing was lost: the same socket still answers a proper request.
    expect(await request(ws, 9, 'app.info')).toMatchObject({ ok: true })
    ws.close()
    await expectServerAnswers()
  })

  it('keeps a running turn going on another connection through every attack', async () => {
    const chatting = await connect()
    const started = await request(chatting, 1, 'chat.send', { sessionId: null, text: 'say something' })
    expect(started).toMatchObject({ ok: true })
    const { sessionId } = started.data as { sessionId: string }
    const finished = turnFinished(chatting, sessionId)
    // The turn is now waiting on the model: attack while it runs.
    await provider.waitForChatRequests(1)
    for (const attack of protocolAttacks) {
      const raw = await openRawSocket(serve.port, serve.token)
      raw.send(buildFrame(attack.frame))
      expect(await raw.closed, attack.name).toBe(attack.closeCode)
    }
    const nullFrame = await connect()
    const answer = nextResponse(nullFrame)
    nullFrame.send('null')
    expect((await answer).result).toMatchObject({ ok: false, error: { code: 'BAD_FRAME' } })
    nullFrame.close()

    releaseModel()
    expect(await finished).toMatchObject({ reason: 'completed', text: 'Still here.' })
    await expectServerAnswers()
    chatting.close()
  })
})
