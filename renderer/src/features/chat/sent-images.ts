import { useEffect, useState } from 'react'
import type { AttachmentView } from '../../../../shared/ipc/domain'
import { useApp } from '../../app/context'

/** What one sent image shows as: its data: URL once loaded, or that it is gone. */
export type SentImage = { src: string } | { unavailable: true }

/**
 * Data URLs of sent images, remembered for the most recent ones up to a budget of characters, so a row
 * scrolled out of the virtualised list and back (or a viewer opened again) does not ask main again.
 */
const BUDGET_CHARS = 96 * 1024 * 1024
const known = new Map<string, string>()
let knownChars = 0

function remember(key: string, url: string): void {
  if (url.length > BUDGET_CHARS) return
  for (const [oldest, value] of known) {
    if (knownChars + url.length <= BUDGET_CHARS) break
    known.delete(oldest)
    knownChars -= value.length
  }
  known.set(key, url)
  knownChars += url.length
}

const keyOf = (sessionId: string, messageId: number, index: number) => `${sessionId}:${messageId}:${index}`

/**
 * The images of a sent message by their place in its attachments, loaded over `attachments.image` once
 * the message is stored (a message still being sent has no id, so its images wait). Other files are
 * left out.
 */
export function useSentImages(sessionId: string | null, messageId: number | null, files: AttachmentView[]): Record<number, SentImage> {
  const { client } = useApp()
  const wanted = files.flatMap((file, index) => (file.kind === 'image' ? [index] : []))
  const wantedKey = wanted.join(',')
  const cached = (): Record<number, SentImage> => {
    const found: Record<number, SentImage> = {}
    if (sessionId === null || messageId === null) return found
    for (const index of wanted) {
      const url = known.get(keyOf(sessionId, messageId, index))
      if (url) found[index] = { src: url }
    }
    return found
  }
  const [images, setImages] = useState(cached)

  useEffect(() => {
    if (sessionId === null || messageId === null) return
    let current = true
    setImages(cached())
    for (const index of wantedKey ? wantedKey.split(',').map(Number) : []) {
      const key = keyOf(sessionId, messageId, index)
      if (known.has(key)) continue
      client.request('attachments.image', { sessionId, messageId, index }).then(
        ({ mime, data }) => {
          const url = `data:${mime};base64,${data}`
          remember(key, url)
          if (current) setImages((shown) => ({ ...shown, [index]: { src: url } }))
        },
        () => {
          if (current) setImages((shown) => ({ ...shown, [index]: { unavailable: true } }))
        }
      )
    }
    return () => {
      current = false
    }
    // `cached` and `wanted` read the same values as the dependencies.
  }, [client, sessionId, messageId, wantedKey])
  return images
}

/** Forgets every remembered image (tests). */
export function forgetSentImages(): void {
  known.clear()
  knownChars = 0
}
