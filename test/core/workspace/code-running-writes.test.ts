import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import { agentFixture, type AgentFixture, type Recorded } from '../../helpers/agent-fixture'
import { skillText } from '../../helpers/skill-env'
import { newTurnState } from '../../../electron/core/tools/types'

type ApprovalNeeded = Extract<AgentEvent, { type: 'approval_needed' }>

/** Files whose content other programs run when an ordinary command (npm test, make, pytest, git) meets them. */
const RUNNERS = ['package.json', 'Makefile', 'conftest.py', '.envrc', '.vscode/tasks.json', 'pyproject.toml', 'vitest.config.ts', '.git/config', '.husky/pre-commit']

let fx: AgentFixture
beforeEach(async () => {
  fx = await agentFixture()
})
afterEach(async () => {
  await fx.close()
})

const write = (path: string, content = 'x') => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] })

/** Answers every approval with `allow` for this conversation, and keeps what was asked. */
function answerSession(recorded: Recorded): ApprovalNeeded[] {
  const asked: ApprovalNeeded[] = []
  recorded.session.events.on((event) => {
    if (event.type !== 'approval_needed') return
    asked.push(event)
    setImmediate(() => void recorded.session.respondToApproval(event.requestId, { allow: true, remember: 'session' }))
  })
  return asked
}

describe('writes to files that make other programs run code', () => {
  it('are asked every time, whatever was allowed for the conversation before, and offer only "once"', async () => {
    mkdirSync(join(fx.workspace, '.git'), { recursive: true })
    fx.server.enqueue(write('notes.md'), write('more-notes.md'), ...RUNNERS.map((path) => write(path, `# ${path}\n`)), { text: 'Written.' })
    const recorded = fx.open()
    const asked = answerSession(recorded)
    await recorded.session.runTurn('Write the files').done
    // notes.md asked once and granted for the conversation; more-notes.md then went ahead unasked.
    expect(asked.map((event) => event.path?.slice(fx.workspace.length + 1) ?? '')).toEqual(['notes.md', ...RUNNERS.map((path) => join(...path.split('/')))].map((path) => expect.stringContaining(path)))
    for (const event of asked.slice(1)) {
      expect(event.runsCode, event.path).toBeTruthy()
      expect(event.scopes).toEqual(['once'])
      expect(event.summary).toMatch(/so this is asked every time\)$/)
    }
    expect(asked.find((event) => event.path?.endsWith('package.json'))!.summary).toContain('package.json: npm, pnpm and yarn run its scripts')
    expect(existsSync(join(fx.workspace, 'more-notes.md'))).toBe(true)
  })

  it('are asked even with --yes, and without a terminal nothing is written', async () => {
    fx.server.enqueue(write('notes.md'), write('Makefile', 'all:\n\ttouch pwned\n'), { text: 'Done.' })
    const recorded = fx.open({ autoApprove: true })
    const asked: ApprovalNeeded[] = []
    recorded.session.events.on((event) => {
      if (event.type !== 'approval_needed') return
      asked.push(event)
      setImmediate(() => void recorded.session.respondToApproval(event.requestId, { allow: false }))
    })
    await recorded.session.runTurn('Write them').done
    expect(asked.map((event) => event.path?.split('/').at(-1))).toEqual(['Makefile'])
    expect(existsSync(join(fx.workspace, 'notes.md'))).toBe(true)
    expect(existsSync(join(fx.workspace, 'Makefile'))).toBe(false)
  })
})

describe('a skill\'s supporting files', () => {
  it('may not be dot-files or files other programs run, wherever the data home lies', async () => {
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: skillText('deploy') }, { source: 'agent' })
    const manage = fx.core.learningTools().find((tool) => tool.name === 'skill_manage')!
    const ctx = { write: { source: 'agent' as const, sessionId: null }, turn: newTurnState() }
    for (const file of ['scripts/package.json', 'scripts/.git/config', 'references/conftest.py', 'assets/.envrc', 'scripts/Makefile', 'templates/.vscode/tasks.json', 'scripts/jest.config.js', 'scripts/test_evil.py', 'scripts/evil.test.js', 'references/confteſt.py', 'scripts/node_modules/x/index.js']) {
      const result = (await manage.run({ action: 'write_file', name: 'deploy', file_path: file, file_content: '{"scripts":{"test":"touch pwned"}}' }, ctx)) as { success: boolean; error?: string }
      expect({ file, success: result.success }).toEqual({ file, success: false })
      expect(result.error).toMatch(/cannot be (a supporting file|dot-files)/)
      expect(existsSync(join(fx.core.skills.get('deploy')!.path, '..', file))).toBe(false)
    }
    const fine = (await manage.run({ action: 'write_file', name: 'deploy', file_path: 'scripts/deploy.sh', file_content: 'echo deploy\n' }, ctx)) as { success: boolean }
    expect(fine.success).toBe(true)
    expect(readFileSync(join(fx.core.skills.get('deploy')!.path, '..', 'scripts', 'deploy.sh'), 'utf8')).toBe('echo deploy\n')
  })
})
