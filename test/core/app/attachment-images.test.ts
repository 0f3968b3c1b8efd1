import { mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../../shared/attachments'
import { ONE_PIXEL_PNG } from '../../helpers/pdf-file'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const png = { name: 'pixel.png', mime: 'image/png', data: ONE_PIXEL_PNG.toString('base64') }
const note = { name: 'note.txt', mime: 'text/plain', data: Buffer.from('hello').toString('base64') }

async function sendWithFiles(app: AppFixture, incognito = false): Promise<{ sessionId: string; messageId: number }> {
  app.server.enqueue({ text: 'A red pixel.' })
  const { sessionId } = await app.ok('chat.send', { sessionId: null, text: 'What is this?', attachments: [note, png], ...(incognito ? { incognito } : {}) })
  await app.waitFor('chat.status', (status) => status.sessionId === sessionId && !status.running)
  const { messages } = await app.ok('sessions.get', { sessionId })
  return { sessionId, messageId: messages.find((m) => m.role === 'user')!.id }
}

describe('attachments.image: a sent image shown again', () => {
  it('gives the stored bytes of an image, and refuses what is not an image or not that message', async () => {
    fx = await appFixture()
    const { sessionId, messageId } = await sendWithFiles(fx)
    expect(await fx.ok('attachments.image', { sessionId, messageId, index: 1 })).toEqual({ mime: 'image/png', data: png.data })

    const notImage = await fx.call('attachments.image', { sessionId, messageId, index: 0 })
    expect(notImage).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', key: 'attachments.image_unavailable', params: { name: 'note.txt' } } })
    expect(await fx.call('attachments.image', { sessionId: 'another', messageId, index: 1 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await fx.call('attachments.image', { sessionId, messageId: messageId + 1, index: 1 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await fx.call('attachments.image', { sessionId, messageId, index: 99 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })

  it('says the image is gone when its stored copy was removed', async () => {
    fx = await appFixture()
    const { sessionId, messageId } = await sendWithFiles(fx)
    const folder = join(fx.home, 'attachments', sessionId)
    for (const file of readdirSync(folder)) rmSync(join(folder, file))
    // A fresh app: the one that sent it remembers the bytes it gave the model.
    ;(fx.core.attachments as unknown as { images: Map<string, string> }).images.clear()
    expect(await fx.call('attachments.image', { sessionId, messageId, index: 1 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', key: 'attachments.image_unavailable', params: { name: 'pixel.png' } }
    })
  })

  it('refuses a symbolic link or an oversized file in place of the stored copy, whatever its record says', async () => {
    fx = await appFixture()
    const { sessionId, messageId } = await sendWithFiles(fx)
    const images = (fx.core.attachments as unknown as { images: Map<string, string> }).images
    const folder = join(fx.home, 'attachments', sessionId)
    const stored = join(folder, readdirSync(folder).find((name) => name.endsWith('.png'))!)
    const elsewhere = mkdtempSync(join(tmpdir(), 'cairn-elsewhere-'))
    try {
      // A link, as a restored backup could bring, to a file outside the data home: never followed.
      const outside = join(elsewhere, 'private.png')
      writeFileSync(outside, ONE_PIXEL_PNG)
      rmSync(stored)
      symlinkSync(outside, stored)
      images.clear()
      const unavailable = { ok: false, error: { code: 'NOT_FOUND', key: 'attachments.image_unavailable', params: { name: 'pixel.png' } } }
      expect(await fx.call('attachments.image', { sessionId, messageId, index: 1 })).toMatchObject(unavailable)

      // A plain file larger than any image may be (its record still says 1 pixel's worth): not read.
      rmSync(stored)
      writeFileSync(stored, ONE_PIXEL_PNG)
      truncateSync(stored, MAX_IMAGE_BYTES + 1)
      images.clear()
      expect(await fx.call('attachments.image', { sessionId, messageId, index: 1 })).toMatchObject(unavailable)
    } finally {
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })

  it('reads an incognito conversation’s image from its memory', async () => {
    fx = await appFixture()
    const { sessionId, messageId } = await sendWithFiles(fx, true)
    expect(await fx.ok('attachments.image', { sessionId, messageId, index: 1 })).toEqual({ mime: 'image/png', data: png.data })
    await fx.ok('chat.discard', { sessionId })
    expect(await fx.call('attachments.image', { sessionId, messageId, index: 1 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })
})
