import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AttachmentStore, readAttachments } from '../../../electron/core/attachments'
import { toChatMessages } from '../../../electron/core/agent/history'
import { toReviewMessages } from '../../../electron/core/learning/host/review-snapshot'
import { toDisplayMessage } from '../../../electron/core/app/handlers/sessions'
import { searchSessions } from '../../../electron/core/sessions'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { ONE_PIXEL_PNG, pdfWithText } from '../../helpers/pdf-file'

let fx: AgentFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

type SentMessage = { role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }

async function sendWithFiles(fixture: AgentFixture, text: string, files: Array<{ name: string; mime?: string; bytes: Uint8Array }>, sessionId?: string) {
  const prepared = await readAttachments(files)
  const { session } = fixture.open({ sessionId })
  const saved = fixture.core.attachments.save(session.id, prepared)
  await session.runTurn(text, { attachments: saved }).done
  return session
}

describe('a message with attachments', () => {
  it('sends an image as an image part and a PDF as a delimited text block, the same bytes on every call', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'A red pixel and a budget.' }, { text: 'Yes, 12%.' })
    const pdf = pdfWithText(['The aardvark budget grew 12%.'])
    const session = await sendWithFiles(fx, 'What are these?', [
      { name: 'pixel.png', mime: 'image/png', bytes: ONE_PIXEL_PNG },
      { name: 'report.pdf', bytes: pdf }
    ])
    await session.runTurn('And the growth?').done

    const [first, second] = fx.server.chatRequests().map((r) => r.body.messages as SentMessage[])
    const user = first.at(-1)!
    expect(user.role).toBe('user')
    expect(user.content).toEqual([
      {
        type: 'text',
        text: 'What are these?\n\n<attached_file name="report.pdf" kind="pdf">\nThe aardvark budget grew 12%.\n</attached_file>'
      },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${ONE_PIXEL_PNG.toString('base64')}` } }
    ])
    // The next call repeats the earlier turn byte for byte (the provider's prefix cache keeps hitting).
    expect(JSON.stringify(second.slice(0, first.length))).toBe(JSON.stringify(first))
  })

  it('is stored under the data home with its message and shown as the user sent it', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'Noted.' })
    const session = await sendWithFiles(fx, 'Keep this', [{ name: 'plan.md', bytes: new TextEncoder().encode('Ship on Friday') }, { name: 'pixel.png', bytes: ONE_PIXEL_PNG }])
    const [user] = fx.core.sessions.messages(session.id).filter((m) => m.role === 'user')
    const metas = user.meta?.attachments as Array<Record<string, unknown>>
    expect(metas).toEqual([
      { name: 'plan.md', kind: 'text', mime: 'text/plain', size: 14, path: expect.stringMatching(new RegExp(`^attachments/${session.id}/[0-9a-f]{64}\\.md$`)), textChars: 14 },
      { name: 'pixel.png', kind: 'image', mime: 'image/png', size: ONE_PIXEL_PNG.length, path: expect.stringMatching(/\.png$/) }
    ])
    expect(readFileSync(join(fx.home, metas[0].path as string), 'utf8')).toBe('Ship on Friday')
    expect(readFileSync(join(fx.home, metas[1].path as string))).toEqual(ONE_PIXEL_PNG)
    const shown = toDisplayMessage(user)
    expect(shown.content).toBe('Keep this')
    expect(shown.attachments).toEqual([
      { name: 'plan.md', kind: 'text', mime: 'text/plain', size: 14, textChars: 14, truncated: false },
      { name: 'pixel.png', kind: 'image', mime: 'image/png', size: ONE_PIXEL_PNG.length, textChars: null, truncated: false }
    ])
  })

  it('makes the conversation findable by words inside the attached PDF and by the file name', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'Read it.' }, { text: 'Fine.' })
    const withPdf = await sendWithFiles(fx, 'Please file this', [{ name: 'invoice.pdf', bytes: pdfWithText(['Invoice for the zeppelin repair']) }])
    const other = fx.open().session
    await other.runTurn('Unrelated chat about tea').done

    const hits = searchSessions(fx.core.db, 'zeppelin repair')
    expect(hits.sessions.map((s) => s.sessionId)).toEqual([withPdf.id])
    expect(hits.sessions[0].snippet).toContain('>>>zeppelin<<<')
    expect(searchSessions(fx.core.db, 'invoice.pdf').sessions.map((s) => s.sessionId)).toEqual([withPdf.id])
    // Deleting the conversation's messages drops its attachment text from search too.
    fx.core.sessions.delete(withPdf.id)
    expect(searchSessions(fx.core.db, 'zeppelin').sessions).toEqual([])
  })

  it('tells the model when a stored copy has gone missing instead of failing the turn', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'Seen.' })
    const session = await sendWithFiles(fx, 'Look', [{ name: 'pixel.png', bytes: ONE_PIXEL_PNG }])
    rmSync(join(fx.home, 'attachments'), { recursive: true, force: true })
    // A later start of the app: nothing is cached any more.
    const messages = toChatMessages(fx.core.sessions.messages(session.id), new AttachmentStore(fx.home, fx.core.db))
    expect(messages[0]).toEqual({ role: 'user', content: 'Look\n\n[Attached image "pixel.png": its stored copy is missing, so its contents are not available.]' })
  })

  it('ends with a clear error when the model refuses images', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ fault: { type: 'http', status: 400, body: { error: { message: 'Invalid content type. image_url is only supported by certain models.', type: 'invalid_request_error' } } } })
    const prepared = await readAttachments([{ name: 'pixel.png', bytes: ONE_PIXEL_PNG }])
    const { session, ofType } = fx.open()
    await session.runTurn('What is this?', { attachments: fx.core.attachments.save(session.id, prepared) }).done
    expect(ofType('error')).toMatchObject([{ code: 'images_unsupported', retryable: false, message: expect.stringMatching(/^The model "scripted" at .+ does not take images \(400: Invalid content type/) }])
  })

  it('goes to the chat provider only: a review and a summary see the file names, never their contents', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'Read it.' })
    const session = await sendWithFiles(fx, 'Please file this', [{ name: 'invoice.pdf', bytes: pdfWithText(['Invoice for the zeppelin repair']) }])
    const stored = fx.core.sessions.messages(session.id)
    expect(JSON.stringify(toReviewMessages(stored))).not.toContain('zeppelin')
    // What a summariser reads (history without the files read back).
    expect(toChatMessages(stored)[0]).toEqual({ role: 'user', content: 'Please file this\n\n[Attached: invoice.pdf (PDF)]' })
  })
})

describe('editing a message with attachments', () => {
  it('sends the files again with the new words, and keeps the old message with its files as another version', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'It says 12%.' }, { text: 'It says aardvark.' })
    const session = await sendWithFiles(fx, 'What does it say about growth?', [{ name: 'report.pdf', bytes: pdfWithText(['The aardvark budget grew 12%.']) }])
    const [question] = fx.core.sessions.messages(session.id)
    await session.editAndResend(question.id, 'Which animal does it name?').done

    const resent = (fx.server.chatRequests()[1].body.messages as SentMessage[]).at(-1)!
    expect(JSON.stringify(resent.content)).toContain('Which animal does it name?')
    expect(JSON.stringify(resent.content)).toContain('The aardvark budget grew 12%.')
    const [edited] = fx.core.sessions.messages(session.id)
    expect(toDisplayMessage(edited).attachments?.map((file) => file.name)).toEqual(['report.pdf'])
    expect(fx.core.sessions.versions(session.id)).toHaveLength(1)
  })
})
