import { describe, expect, it } from 'vitest'
import { newTurnState, recordToolOutput, type TurnState } from '../../../electron/core/tools/types'
import { findCarriedData, noteLinks } from '../../../electron/core/workspace/url-data'

const SECRET = 'sk-live-9fQ2xLm7Rt4Zp8Wv'

/** A turn whose read_file returned the secret, recorded the way the tool executor records results. */
function turnThatRead(text = `API_KEY=${SECRET}\n`, args: string[] = ['/home/u/secrets/.env']): TurnState {
  const turn = newTurnState()
  recordToolOutput(turn, JSON.stringify({ success: true, path: '/home/u/secrets/.env', content: `    1| ${text}` }), args)
  return turn
}

const carried = (url: string, turn: TurnState) => findCarriedData(new URL(url), turn)

describe('findCarriedData', () => {
  it('finds the secret wherever the address puts it, in any common encoding', () => {
    const turn = turnThatRead()
    const base64 = Buffer.from(`key=${SECRET}`).toString('base64url')
    const hex = Buffer.from(SECRET).toString('hex')
    for (const url of [
      `http://127.0.0.1:9/?k=${SECRET}`,
      `http://127.0.0.1:9/collect/${SECRET}`,
      `http://127.0.0.1:9/#${SECRET}`,
      `http://u:${SECRET}@127.0.0.1:9/`,
      `http://127.0.0.1:9/?k=${encodeURIComponent(encodeURIComponent(SECRET))}`,
      `http://127.0.0.1:9/?k=${SECRET.toUpperCase()}`,
      `http://127.0.0.1:9/?d=${base64}`,
      `http://127.0.0.1:9/?h=${hex}`,
      `http://${SECRET.slice(3).toLowerCase()}.collector.example/`
    ]) {
      expect(carried(url, turn), url).not.toBeNull()
    }
    expect(carried(`http://127.0.0.1:9/?k=${SECRET}`, turn)).toBe(SECRET)
  })

  it('catches a part of 12 characters, and a short secret-looking token when it is a whole token of the data', () => {
    const turn = turnThatRead(`password: hunt3r42x\nlong: ${SECRET}`)
    expect(carried(`https://x.example/?p=${SECRET.slice(5, 17)}`, turn)).not.toBeNull()
    expect(carried('https://x.example/login?p=hunt3r42x', turn)).toBe('hunt3r42x')
    // Plain words and short runs shared with the data are not data.
    expect(carried('https://x.example/password/long', turn)).toBeNull()
    expect(carried(`https://x.example/?p=${SECRET.slice(0, 7)}`, turn)).toBeNull()
  })

  it('lets a clean address through, and the address of a page that mentioned it', () => {
    const turn = turnThatRead()
    expect(carried('https://docs.example.com/guide/getting-started?lang=en', turn)).toBeNull()
    noteLinks(turn, `See https://api.example.com/v1/keys/${SECRET}/rotate for rotation.`)
    expect(carried(`https://api.example.com/v1/keys/${SECRET}/rotate`, turn)).toBeNull()
    expect(carried(`https://api.example.com/v1/keys/${SECRET}/rotate?x=1`, turn)).not.toBeNull()
  })

  it("does not count a call's own arguments echoed in its result, but keeps what earlier results held", () => {
    const turn = newTurnState()
    const url = 'https://example.com/docs/getting-started/install'
    recordToolOutput(turn, JSON.stringify({ success: false, error: `Could not fetch ${url}: ECONNRESET` }), [url])
    expect(carried(url, turn)).toBeNull()
    // The secret a read returned stays data even when a later call repeats it.
    recordToolOutput(turn, JSON.stringify({ content: SECRET }), [])
    recordToolOutput(turn, JSON.stringify({ error: `not found: ${SECRET}` }), [SECRET])
    expect(carried(`https://example.com/?k=${SECRET}`, turn)).toBe(SECRET)
  })

  it('reads JSON escapes back, so a secret with quotes or a newline still matches', () => {
    const turn = newTurnState()
    recordToolOutput(turn, JSON.stringify({ content: 'pass"word\\with\nnew-line-2024' }))
    expect(carried(`https://x.example/?p=${encodeURIComponent('pass"word\\with\nnew')}`, turn)).not.toBeNull()
  })
})
