import { describe, expect, it } from 'vitest'
import { ApprovalBroker, type PendingApproval } from '../../../electron/core/agent/approvals'
import type { ApprovalRequest } from '../../../electron/core/tools/types'

/** The broker's read and fetch grants: only what was offered, only what the request named. */
describe('read folders and fetch hosts', () => {
  const saved = { folders: [] as string[], hosts: [] as string[] }
  const asked: PendingApproval[] = []
  const broker = new ApprovalBroker({
    commandPrefixes: () => [],
    readFolders: () => saved.folders,
    saveReadFolder: async (folder) => void saved.folders.push(folder),
    fetchHosts: () => saved.hosts,
    saveFetchHost: async (host) => void saved.hosts.push(host),
    onRequest: (pending) => asked.push(pending)
  })
  const read = (path: string, folder: string): ApprovalRequest => ({ kind: 'read', tool: 'read_file', summary: `Read ${path}`, path, folder, scopes: ['once', 'session', 'folder'] })
  const fetch = (host: string, carriedData?: string): ApprovalRequest => ({
    kind: 'fetch',
    tool: 'fetch_url',
    summary: `Fetch http://${host}/`,
    url: `http://${host}/`,
    host,
    carriedData,
    scopes: carriedData ? ['once'] : ['once', 'session', 'host']
  })
  /** Asks and answers at once; resolves to whether it was asked and what it returned. */
  async function ask(request: ApprovalRequest, decision: Parameters<ApprovalBroker['respond']>[1]): Promise<{ asked: boolean; allowed: boolean }> {
    const before = asked.length
    const answer = broker.request(request)
    await new Promise((resolve) => setImmediate(resolve))
    const wasAsked = asked.length > before
    if (wasAsked) await broker.respond(asked.at(-1)!.requestId, decision)
    return { asked: wasAsked, allowed: await answer }
  }

  it('"always" saves the folder the request named and grants it and below, nothing beside it', async () => {
    expect(await ask(read('/srv/data/a.txt', '/srv/data'), { allow: true, remember: 'folder', prefix: '/' })).toEqual({ asked: true, allowed: true })
    expect(saved.folders).toEqual(['/srv/data'])
    expect(await ask(read('/srv/data/deep/b.txt', '/srv/data/deep'), { allow: false })).toEqual({ asked: false, allowed: true })
    expect(await ask(read('/srv/database/c.txt', '/srv/database'), { allow: false })).toEqual({ asked: true, allowed: false })
    expect(await ask(read('/srv/d.txt', '/srv'), { allow: false })).toEqual({ asked: true, allowed: false })
  })

  it('a session grant of a read covers its folder, never the whole tool', async () => {
    expect(await ask(read('/opt/one/x', '/opt/one'), { allow: true, remember: 'session' })).toEqual({ asked: true, allowed: true })
    expect(await ask(read('/opt/one/y', '/opt/one'), { allow: false })).toEqual({ asked: false, allowed: true })
    expect(await ask(read('/opt/two/z', '/opt/two'), { allow: false })).toEqual({ asked: true, allowed: false })
  })

  it('"allow writes for this conversation" covers the workspace only: a write outside it is asked about every time', async () => {
    const inside: ApprovalRequest = { kind: 'write', tool: 'edit_file', summary: 'Edit notes.md', path: '/w/notes.md' }
    const outside: ApprovalRequest = { ...inside, summary: 'Edit /home/me/.bashrc', path: '/home/me/.bashrc', outsideWorkspace: true, scopes: ['once'] }
    expect(await ask(inside, { allow: true, remember: 'session' })).toEqual({ asked: true, allowed: true })
    expect(await ask({ ...inside, path: '/w/other.md' }, { allow: false })).toEqual({ asked: false, allowed: true })
    expect(await ask(outside, { allow: false })).toEqual({ asked: true, allowed: false })
    expect(asked.at(-1)!.scopes).toEqual(['once'])
    // Even a "session" answer to an outside write grants nothing further outside.
    expect(await ask(outside, { allow: true, remember: 'session' })).toEqual({ asked: true, allowed: true })
    expect(await ask(outside, { allow: false })).toEqual({ asked: true, allowed: false })
  })

  it('an answer the request did not offer is taken as "once"', async () => {
    await ask(read('/var/log/x', '/var/log'), { allow: true, remember: 'host' })
    await ask(fetch('a.example'), { allow: true, remember: 'folder' })
    await ask({ kind: 'write', tool: 'write_file', summary: 'Write x', path: '/w/x' }, { allow: true, remember: 'host' })
    expect(saved).toMatchObject({ hosts: [], folders: ['/srv/data'] })
    expect(await ask(read('/var/log/y', '/var/log'), { allow: false })).toEqual({ asked: true, allowed: false })
    expect(await ask(fetch('a.example'), { allow: false })).toEqual({ asked: true, allowed: false })
  })

  it('a host allowed always or for the session is never enough for an address that carries data', async () => {
    expect(await ask(fetch('api.example:8443'), { allow: true, remember: 'host' })).toEqual({ asked: true, allowed: true })
    expect(saved.hosts).toEqual(['api.example:8443'])
    expect(await ask(fetch('api.example:8443'), { allow: false })).toEqual({ asked: false, allowed: true })
    expect(await ask(fetch('api.example'), { allow: false })).toEqual({ asked: true, allowed: false })
    expect(await ask(fetch('api.example:8443', 'sk-live-secret'), { allow: false })).toEqual({ asked: true, allowed: false })
    expect(asked.at(-1)!.scopes).toEqual(['once'])
    expect(await ask(fetch('b.example'), { allow: true, remember: 'session' })).toEqual({ asked: true, allowed: true })
    expect(await ask(fetch('b.example', 'sk-live-secret'), { allow: false })).toEqual({ asked: true, allowed: false })
  })
})
