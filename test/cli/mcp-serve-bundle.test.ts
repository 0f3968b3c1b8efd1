import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = join(__dirname, '..', '..')

// Built fresh into out/<temp> (two levels below the checkout, as out/cli is).
let outdir: string
let home: string
beforeAll(() => {
  outdir = mkdtempSync(join(root, 'out', 'cli-mcp-test-'))
  home = mkdtempSync(join(tmpdir(), 'cairn-mcp-bundle-'))
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), outdir])
})
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

describe('the bundled cairn command', () => {
  it('serves MCP over stdio with the server SDK bundled in', async () => {
    const transport = new StdioClientTransport({
      command: join(outdir, 'cairn.js'),
      args: ['--home', home, 'mcp', 'serve'],
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stderr: 'ignore'
    })
    const client = new Client({ name: 'Claude Code', version: '2.0.0' })
    await client.connect(transport)
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'cairn' })
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('learning_propose')
      const result = await client.callTool({ name: 'memory_add', arguments: { target: 'user', content: 'Name: Ada' } })
      expect(result.isError).not.toBe(true)
      expect((result.content as Array<{ text: string }>)[0].text).toMatch(/"proposed": true/)
    } finally {
      await client.close()
    }
  })
})
