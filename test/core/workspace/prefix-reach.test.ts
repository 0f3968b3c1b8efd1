import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

/**
 * A saved "always allow" for `cat`, `grep` and `ls` grants reading the workspace: the words are checked
 * by the prefix, and where the arguments lead by the real path. A link, `..` or an absolute path out of
 * the workspace, or a glob the shell would expand, is asked about every time.
 */

let fx: AgentFixture
let secrets: string
beforeEach(async () => {
  fx = await agentFixture()
  secrets = mkdtempSync(join(tmpdir(), 'cairn-ssh-'))
  writeFileSync(join(secrets, 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-key-material\n')
  mkdirSync(join(fx.workspace, 'docs'))
  writeFileSync(join(fx.workspace, 'docs', 'readme.txt'), 'plain notes\n')
  symlinkSync(join(secrets, 'id_ed25519'), join(fx.workspace, 'docs', 'notes.txt'))
  symlinkSync(secrets, join(fx.workspace, 'keys'))
  await fx.core.config.update({ agent: { allowedCommandPrefixes: ['cat', 'grep', 'ls'] } })
})
afterEach(async () => {
  await fx.close()
  rmSync(secrets, { recursive: true, force: true })
})

describe.runIf(process.platform !== 'win32')('saved read prefixes and where their arguments lead', () => {
  it('ask for a link, a folder link, .. and an absolute path out of the workspace, and for a glob; plain files still run unasked', async () => {
    symlinkSync(join(secrets, 'id_ed25519'), join(fx.workspace, '-k'))
    const leaving = ['cat docs/notes.txt', 'grep -r secret keys', 'grep -R secret .', 'cat -- -k', 'cat ../' + secrets.split('/').pop() + '/id_ed25519', `cat ${join(secrets, 'id_ed25519')}`, 'grep --file=docs/notes.txt x docs/readme.txt', 'cat docs/*']
    const commands = ['cat docs/readme.txt', 'ls docs', ...leaving]
    fx.server.enqueue(...commands.map((command) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] })), { text: 'Done.' })
    const recorded = fx.open()
    recorded.session.events.on((event) => {
      if (event.type === 'approval_needed') setImmediate(() => void recorded.session.respondToApproval(event.requestId, { allow: false }))
    })
    await recorded.session.runTurn('Read the docs').done
    const asked = recorded.ofType('approval_needed')
    expect(asked.map((event) => event.command)).toEqual(leaving)
    for (const event of asked) expect(event.scopes, event.command).toEqual(['once'])
    expect(asked[0].summary).toContain(`; docs/notes.txt leads to ${join(secrets, 'id_ed25519')}, outside the workspace`)
    expect(asked.at(-1)!.summary).toContain('; the shell would expand docs/*')
    const results = (fx.server.chatRequests().at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((message) => message.role === 'tool').map((message) => message.content)
    expect(results.join('\n')).not.toContain('secret-key-material')
    expect(results[0]).toContain('plain notes')
  })
})
