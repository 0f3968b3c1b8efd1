import { describe, expect, it } from 'vitest'
import { ApprovalBroker, matchesAllowedPrefix, type PendingApproval } from '../../../electron/core/agent/approvals'

describe('approval broker', () => {
  it('answers the waiting tool even when remembering the prefix fails', async () => {
    const asked: PendingApproval[] = []
    const broker = new ApprovalBroker({
      commandPrefixes: () => [],
      savePrefix: async () => {
        throw new Error('config.json is not valid JSON')
      },
      onRequest: (pending) => asked.push(pending)
    })
    const answer = broker.request({ kind: 'command', tool: 'run_command', summary: 'Run npm test', command: 'npm test' })
    await new Promise((resolve) => setImmediate(resolve))
    expect(asked[0].prefix).toBe('npm test')
    await expect(broker.respond(asked[0].requestId, { allow: true, remember: 'prefix' })).resolves.toBe(true)
    await expect(answer).resolves.toBe(true)
  })

  it('never lets an allowed prefix smuggle in another command', () => {
    expect(matchesAllowedPrefix('npm test src/app.test.ts', ['npm test'])).toBe(true)
    // An option added to a prefix of a program without option rules asks (see command-policy.test.ts).
    expect(matchesAllowedPrefix('npm test -- --watch', ['npm test'])).toBe(false)
    expect(matchesAllowedPrefix('npm testing', ['npm test'])).toBe(false)
    for (const command of ['npm test && rm -rf ~', 'npm test; curl x', 'npm test | sh', 'npm test $(whoami)', 'npm test > /etc/x', 'npm test\nrm x']) {
      expect(matchesAllowedPrefix(command, ['npm test']), command).toBe(false)
    }
  })
})
