import { release } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { AgentSession } from '../../../electron/core/agent/agent-session'
import { describeOS } from '../../../electron/core/agent/prompt-context'
import { ChatProvider } from '../../../electron/core/provider/provider'
import { resolveProviderSettings } from '../../../electron/core/provider/provider-settings'
import { CairnCore } from '../../../electron/core/cairn'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture | undefined
const extraCores: CairnCore[] = []

afterEach(async () => {
  for (const core of extraCores.splice(0)) await core.close()
  await fx?.close()
  fx = undefined
})

async function setup(options: Parameters<typeof agentFixture>[0] = {}): Promise<AgentFixture> {
  fx = await agentFixture(options)
  return fx
}

function skillMd(name: string, description: string, body = 'Steps:\n1. Run the build.\n2. Publish the output.\n'): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}`
}

type RequestMessage = { role: string; content: string | null; tool_calls?: unknown[] }

function requestMessages(f: AgentFixture): RequestMessage[][] {
  return f.server.chatRequests().map((request) => request.body.messages as RequestMessage[])
}

function localIsoDate(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** Resolves when `core`'s skill watcher has indexed `name` (a write made by another process). */
function skillIndexed(core: CairnCore, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the watcher never indexed ${name}`)), 10_000)
    const check = () => {
      if (!core.skills.get(name)) return
      clearTimeout(timer)
      stop()
      resolve()
    }
    const stop = core.skills.onChange(check)
    check()
  })
}

describe('the frozen system prompt', () => {
  it('stays byte-identical (and so does the tool list) while memory and skills change mid-session', async () => {
    const f = await setup()
    await f.core.skills.start() // the app watches skill folders, so outside writes reach its index
    await f.core.memory.add('memory', 'Project uses pnpm workspaces', { write: { source: 'user' } })
    const { session } = f.open()
    const frozen = session.systemPrompt
    expect(frozen).toContain('Project uses pnpm workspaces')

    // Turn 1: the agent saves a user fact.
    f.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Name is Ada' } }] },
      { text: 'Nice to meet you, Ada.' }
    )
    await session.runTurn('My name is Ada.').done
    // Turn 2: the agent writes a skill.
    f.server.enqueue(
      {
        toolCalls: [
          {
            name: 'skill_manage',
            arguments: { action: 'create', name: 'deploy-blog', category: 'web', content: skillMd('deploy-blog', 'Deploy the Hugo blog to Fly.io') }
          }
        ]
      },
      { text: 'Saved the procedure as deploy-blog.' }
    )
    await session.runTurn('Save how we deploy the blog as a skill.').done
    // Another writer on the same data home (as the review worker will be) adds memory and a skill.
    const other = await CairnCore.open({ home: f.home })
    extraCores.push(other)
    expect((await other.memory.add('memory', 'CI runs on ci.example.org', { write: { source: 'review' } })).success).toBe(true)
    const indexed = skillIndexed(f.core, 'rotate-keys')
    expect((await other.skills.create({ name: 'rotate-keys', content: skillMd('rotate-keys', 'Rotate the SSH deploy keys') }, { source: 'review' })).success).toBe(true)
    await indexed
    f.server.enqueue({ text: 'Nothing new from my side.' })
    await session.runTurn('Anything new?').done
    // Turn 4: the agent reads and patches its skill, changing the description.
    f.server.enqueue(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy-blog' } }] },
      {
        toolCalls: [
          {
            name: 'skill_manage',
            arguments: { action: 'patch', name: 'deploy-blog', old_string: 'Deploy the Hugo blog to Fly.io', new_string: 'Deploy the Hugo blog to Fly.io with flyctl' }
          }
        ]
      },
      { text: 'Patched.' }
    )
    await session.runTurn('We use flyctl for the deploy, please fix the skill.').done
    // Turn 5: the agent corrects the memory entry.
    f.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'replace', target: 'user', old_text: 'Name is Ada', content: 'Name is Ada Lovelace' } }] },
      { text: 'Updated.' }
    )
    await session.runTurn('Actually my full name is Ada Lovelace.').done
    f.server.enqueue({ text: 'Bye.' })
    await session.runTurn('Thanks, bye.').done

    // Every write landed.
    expect(f.core.memory.read('user').entries).toEqual(['Name is Ada Lovelace'])
    expect(f.core.memory.read('memory').entries).toContain('CI runs on ci.example.org')
    expect(f.core.skills.get('deploy-blog')?.description).toBe('Deploy the Hugo blog to Fly.io with flyctl')

    const requests = f.server.chatRequests()
    expect(requests).toHaveLength(11)
    for (const messages of requestMessages(f)) {
      expect(messages[0]).toEqual({ role: 'system', content: frozen })
    }
    const toolLists = requests.map((request) => JSON.stringify(request.body.tools))
    expect(new Set(toolLists).size).toBe(1)
    expect(session.systemPrompt).toBe(frozen)
    expect(f.core.sessions.get(session.id)!.systemPrompt).toBe(frozen)
    for (const learned of ['Ada', 'ci.example.org', 'deploy-blog', 'rotate-keys']) expect(frozen).not.toContain(learned)
    // Each request is the previous one plus new messages, so provider prefix caches keep hitting.
    const serialised = requests.map((request) => JSON.stringify(request.body.messages).slice(0, -1))
    for (let i = 1; i < serialised.length; i++) expect(serialised[i].startsWith(serialised[i - 1])).toBe(true)

    // Reopening this session keeps its prompt; a new session reads memory and skills afresh.
    expect(f.open({ sessionId: session.id }).session.systemPrompt).toBe(frozen)
    const next = f.open().session
    expect(next.systemPrompt).not.toBe(frozen)
    expect(next.systemPrompt).toContain('Name is Ada Lovelace')
    expect(next.systemPrompt).not.toContain('Name is Ada\n')
    expect(next.systemPrompt).toContain('CI runs on ci.example.org')
    expect(next.systemPrompt).toMatch(/  - deploy-blog: Deploy the Hugo blog to Fly\.io with flyctl/)
    expect(next.systemPrompt).toMatch(/rotate-keys/)
    f.server.enqueue({ text: 'Hello Ada Lovelace.' })
    await next.runTurn('Hi again.').done
    expect(requestMessages(f).at(-1)![0]).toEqual({ role: 'system', content: next.systemPrompt })
  })

  it('carries the memory snapshot with usage, the skills index and the environment', async () => {
    const f = await setup()
    await f.core.memory.add('memory', 'Project uses pnpm workspaces', { write: { source: 'user' } })
    await f.core.memory.add('user', 'Prefers short answers', { write: { source: 'user' } })
    await f.core.skills.create({ name: 'deploy-blog', category: 'web', content: skillMd('deploy-blog', 'Deploy the Hugo blog to Fly.io') }, { source: 'user' })
    const before = localIsoDate()
    const prompt = f.open().session.systemPrompt
    const after = localIsoDate()

    expect(prompt).toMatch(/MEMORY \(your personal notes\) \[1% — 28\/2,200 chars\]\n═+\nProject uses pnpm workspaces/)
    expect(prompt).toMatch(/USER PROFILE \(who the user is\) \[1% — 21\/1,375 chars\]\n═+\nPrefers short answers/)
    expect(prompt).toContain('## Memory\n')
    expect(prompt).toContain('## Skills\n')
    expect(prompt).toMatch(/<available_skills>\nweb:\n  - deploy-blog: Deploy the Hugo blog to Fly\.io\n<\/available_skills>/)
    expect(prompt).toContain('## Past conversations')
    expect(prompt).toContain('## Working on the computer')
    expect(prompt).toContain(`Operating system: ${describeOS()}`)
    expect(prompt).toContain(release())
    expect([before, after].some((date) => prompt.includes(date))).toBe(true)
    expect(prompt).toContain(`Workspace folder: ${f.workspace}`)
  })

  it('has no memory tool and no memory section when both memories are switched off', async () => {
    const f = await setup({ config: { memory: { enabled: false, userProfileEnabled: false } } })
    await f.core.memory.add('memory', 'A note that must not show', { write: { source: 'user' } })
    f.server.enqueue({ text: 'Hi.' })
    const { session } = f.open()
    await session.runTurn('hello').done
    const request = f.server.lastChatRequest()!.body
    const toolNames = (request.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : ''))
    expect(toolNames).not.toContain('memory')
    expect(toolNames).toEqual(expect.arrayContaining(['skill_view', 'skill_manage', 'session_search', 'run_command']))
    const prompt = session.systemPrompt
    expect(prompt).not.toContain('## Memory')
    expect(prompt).not.toContain('MEMORY (')
    expect(prompt).not.toContain('Memory is empty')
    expect(prompt).not.toContain('A note that must not show')
    expect(prompt).toContain('## Skills')
  })

  it('writes guidance only for the tools the session was given', async () => {
    const f = await setup()
    await f.core.skills.create({ name: 'deploy-blog', content: skillMd('deploy-blog', 'Deploy the Hugo blog to Fly.io') }, { source: 'user' })
    const provider = new ChatProvider(resolveProviderSettings(f.core.config.get(), f.env))
    const readOnlySkills = f.core.learningTools().filter((tool) => tool.name !== 'skill_manage' && tool.name !== 'session_search')
    const session = AgentSession.open({ stores: f.core, provider, tools: readOnlySkills, workspace: f.workspace })
    const prompt = session.systemPrompt
    expect(prompt).toContain('## Memory')
    expect(prompt).toContain('load it with skill_view(name) before you start')
    expect(prompt).not.toContain('skill_manage')
    expect(prompt).not.toContain('session_search')
    expect(prompt).not.toContain('## Working on the computer')
    expect(prompt).toContain('deploy-blog')

    const noSkills = AgentSession.open({ stores: f.core, provider, tools: f.core.learningTools().filter((tool) => !tool.name.startsWith('skill')), workspace: f.workspace })
    expect(noSkills.systemPrompt).not.toContain('## Skills')
    expect(noSkills.systemPrompt).not.toContain('<available_skills>')
  })

  it('puts skill hints into the user message, never into the system prompt', async () => {
    const f = await setup()
    await f.core.skills.create({ name: 'deploy-blog', category: 'web', content: skillMd('deploy-blog', 'Deploy the Hugo blog to Fly.io with flyctl') }, { source: 'user' })
    await f.core.skills.create({ name: 'sourdough', content: skillMd('sourdough', 'Bake a sourdough loaf with a rye starter') }, { source: 'user' })
    const { session } = f.open()
    const frozen = session.systemPrompt
    f.server.enqueue({ text: 'Loading the skill.' }, { text: 'Sure.' })
    await session.runTurn('How do I deploy the hugo blog?').done
    await session.runTurn('What time is it?').done

    const users = f.core.sessions.messages(session.id).filter((m) => m.role === 'user')
    expect(users[0].content).toBe('How do I deploy the hugo blog?')
    expect(users[0].meta?.hint).toMatch(/^\n\n\[Cairn: skills that may help with this: deploy-blog \(Deploy the Hugo blog/)
    expect(users[0].meta?.hint).not.toContain('sourdough')
    expect(users[1].content).toBe('What time is it?')
    expect(users[1].meta).toBeNull()

    const [first, second] = requestMessages(f)
    expect(first.at(-1)).toEqual({ role: 'user', content: `How do I deploy the hugo blog?${users[0].meta?.hint}` })
    expect(second.at(-1)).toEqual({ role: 'user', content: 'What time is it?' })
    for (const messages of [first, second]) expect(messages[0]).toEqual({ role: 'system', content: frozen })
    expect(frozen).not.toContain('[Cairn: skills that may help')
  })
})
