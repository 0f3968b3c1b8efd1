import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createFetchUrlTool } from '../../../electron/core/workspace/fetch-url'
import { htmlToText } from '../../../electron/core/workspace/html-text'

type Result = Record<string, any>

const tool = createFetchUrlTool() as ToolDef
let server: Server
let base: string
let slowRequestSeen: () => void = () => {}

const page = `<!doctype html><html><head><title>Cairn &amp; Friends</title><style>body { color: red }</style>
<script>window.secret = "do not show"</script></head>
<body><h1>Welcome</h1><p>Fish &amp; chips &mdash; &#8364;5 &lt;cheap&gt;</p><!-- hidden comment -->
<ul><li>first</li><li>second</li></ul><p>Caf&eacute;?   spaced     out</p><noscript>enable js</noscript></body></html>`

/** Fetches with every host approved (asking is covered in fetch-approval.test.ts). */
async function fetchUrl(args: unknown, extra: Partial<ToolContext> = {}): Promise<Result> {
  return (await runTool(tool, args, { write: { source: 'agent' }, turn: newTurnState(), approve: async () => true, ...extra })) as Result
}

beforeAll(async () => {
  server = createServer((request, response) => {
    switch (request.url) {
      case '/text':
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello text\n')
        return
      case '/page':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
        return
      case '/data.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, items: [1, 2] }))
        return
      case '/long':
        response.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(100_000))
        return
      case '/huge': {
        response.writeHead(200, { 'content-type': 'text/plain' })
        const chunk = 'z'.repeat(64 * 1024)
        let sent = 0
        const pump = () => {
          while (sent < 6 * 1024 * 1024 && !response.destroyed) {
            sent += chunk.length
            if (!response.write(chunk)) return void response.once('drain', pump)
          }
          response.end()
        }
        pump()
        return
      }
      case '/image.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]))
        return
      case '/redirect':
        response.writeHead(302, { location: '/text' }).end()
        return
      case '/slow':
        slowRequestSeen()
        return
      default:
        response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page here')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('fetch_url', () => {
  it('returns plain text with its status and type', async () => {
    const result = await fetchUrl({ url: `${base}/text` })
    expect(result).toMatchObject({ success: true, status: 200, content: 'hello text\n', truncated: false, final_url: `${base}/text` })
    expect(result.content_type).toContain('text/plain')
  })

  it('reduces HTML to readable text without scripts, styles or tags', async () => {
    const result = await fetchUrl({ url: `${base}/page` })
    expect(result.success).toBe(true)
    expect(result.title).toBe('Cairn & Friends')
    expect(result.content).toBe('# Welcome\n\nFish & chips — €5 <cheap>\n\n- first\n- second\n\nCafé? spaced out')
    for (const hidden of ['secret', 'color: red', 'hidden comment', 'enable js', '<p>']) expect(result.content).not.toContain(hidden)
  })

  it('returns JSON as text', async () => {
    const result = await fetchUrl({ url: `${base}/data.json` })
    expect(JSON.parse(result.content)).toEqual({ ok: true, items: [1, 2] })
  })

  it('cuts the text at max_chars and says how to see more', async () => {
    const result = await fetchUrl({ url: `${base}/long`, max_chars: 1_000 })
    expect(result.content).toHaveLength(1_000)
    expect(result.truncated).toBe(true)
    expect(result.note).toContain('raise max_chars')
  })

  it('downloads at most 2 MiB of a huge body', async () => {
    const result = await fetchUrl({ url: `${base}/huge`, max_chars: 200_000 })
    expect(result).toMatchObject({ success: true, truncated: true })
    expect(result.content).toHaveLength(200_000)
    expect(result.note).toContain('Only the first 2,097,152 bytes')
  })

  it('follows redirects and reports the final address', async () => {
    const result = await fetchUrl({ url: `${base}/redirect` })
    expect(result).toMatchObject({ success: true, final_url: `${base}/text`, content: 'hello text\n' })
  })

  it('reports a 404 with its status and the start of the body', async () => {
    const result = await fetchUrl({ url: `${base}/gone` })
    expect(result).toMatchObject({ success: false, status: 404, content: 'no such page here' })
    expect(result.error).toContain('HTTP 404 Not Found')
  })

  it('refuses binary content types, naming the type', async () => {
    const result = await fetchUrl({ url: `${base}/image.png` })
    expect(result.success).toBe(false)
    expect(result.error).toContain('image/png')
  })

  it('refuses schemes other than http and https', async () => {
    for (const url of ['file:///etc/passwd', 'data:text/plain,hi', 'ftp://example.com/x']) {
      const result = await fetchUrl({ url })
      expect(result.success).toBe(false)
      expect(result.error).toContain('Only http:// and https://')
    }
    expect((await fetchUrl({ url: 'example.com/page' })).error).toContain('https://example.com/page')
  })

  it('explains an unreachable server', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const result = await fetchUrl({ url: `http://127.0.0.1:${port}/` })
    expect(result.success).toBe(false)
    expect(result.error).toContain('ECONNREFUSED')
  })

  it('stops when the turn is aborted', async () => {
    const controller = new AbortController()
    const seen = new Promise<void>((resolve) => (slowRequestSeen = resolve))
    const pending = fetchUrl({ url: `${base}/slow` }, { signal: controller.signal })
    await seen
    controller.abort()
    expect(await pending).toEqual({ success: false, error: 'fetch_url was cancelled.' })
  })
})

describe('htmlToText', () => {
  it('decodes numeric entities and keeps unknown ones', () => {
    expect(htmlToText('<p>&#x41;&#66; &bogus; &amp;amp; &Uuml;ber &ccedil;a &szlig;</p>')).toBe('AB &bogus; &amp; Über ça ß')
  })
})
