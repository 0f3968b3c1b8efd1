import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'

/**
 * A WebSocket client by hand, over a bare TCP socket: it sends frames the `ws` library will not
 * produce (unmasked, invalid UTF-8, a length over the limit, reserved bits and opcodes).
 */

export const OPCODE = { text: 0x1, binary: 0x2, reserved: 0x3, close: 0x8 } as const

export interface FrameSpec {
  opcode: number
  payload?: Buffer
  /** Clients must mask every frame (RFC 6455 §5.1); false sends it bare. Default true. */
  masked?: boolean
  /** The length the header claims, when it should differ from the payload's (a frame over the limit). */
  declaredLength?: number
  /** Sets RSV1, which means a compression extension nobody negotiated. */
  rsv1?: boolean
}

export function buildFrame(spec: FrameSpec): Buffer {
  const payload = spec.payload ?? Buffer.alloc(0)
  const masked = spec.masked ?? true
  const length = spec.declaredLength ?? payload.length
  const first = 0x80 | (spec.rsv1 ? 0x40 : 0) | spec.opcode
  const maskBit = masked ? 0x80 : 0
  let header: Buffer
  if (length < 126) {
    header = Buffer.from([first, maskBit | length])
  } else if (length < 65_536) {
    header = Buffer.alloc(4)
    header.writeUInt16BE(length, 2)
    header[1] = maskBit | 126
  } else {
    header = Buffer.alloc(10)
    header.writeBigUInt64BE(BigInt(length), 2)
    header[1] = maskBit | 127
  }
  header[0] = first
  if (!masked) return Buffer.concat([header, payload])
  const mask = randomBytes(4)
  const body = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]))
  return Buffer.concat([header, mask, body])
}

export interface RawSocket {
  send(frame: Buffer): void
  /** The close code of the server's close frame (null when the connection ended without one). */
  closed: Promise<number | null>
  destroy(): void
}

/** Opens `/ws?token=…` with a hand-written upgrade request and resolves once the server said 101. */
export function openRawSocket(port: number, token: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let upgraded = false
    let resolveClosed!: (code: number | null) => void
    const closed = new Promise<number | null>((done) => (resolveClosed = done))

    const closeCodeIn = (frames: Buffer): number | null => {
      // Server frames are unmasked; the server sends nothing but its close frame here.
      if (frames.length < 4 || (frames[0] & 0x0f) !== OPCODE.close) return null
      return frames.readUInt16BE(2)
    }
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      if (upgraded) {
        // The server's close frame is the answer; a server that closed first waits for ours, so hang up.
        if (closeCodeIn(received) !== null) socket.destroy()
        return
      }
      const end = received.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = received.subarray(0, end).toString('latin1')
      received = received.subarray(end + 4)
      if (!head.startsWith('HTTP/1.1 101')) {
        socket.destroy()
        reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`))
        return
      }
      upgraded = true
      resolve({ send: (frame) => socket.write(frame), closed, destroy: () => socket.destroy() })
    })
    socket.on('error', (error) => (upgraded ? undefined : reject(error)))
    socket.on('close', () => resolveClosed(closeCodeIn(received)))
    socket.on('connect', () => {
      socket.write(
        [
          `GET /ws?token=${encodeURIComponent(token)} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          ''
        ].join('\r\n')
      )
    })
  })
}
