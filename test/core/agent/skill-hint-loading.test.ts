import { afterEach, describe, expect, it } from 'vitest'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import type { RecordedChatRequest, ScriptedReply } from '../../scripted-provider'

const SKILL = `---
name: deploy-service
description: Use when deploying a service to the cluster.
---
# Deploy a service

1. Build the image with \`make image\`.
2. Roll it out with \`helm upgrade --install\`.
`

const FIRM = /Before you start, load the one for this task with skill_view \(e\.g\. skill_view\(name="([a-z0-9-]+)"\)\)/

/**
 * A chat model at its worst about skills: it loads one only when told plainly to, by name, before it
 * starts ("may help … if it fits" is ignored), one call per response, and then answers.
 */
function firmOnlyModel(request: RecordedChatRequest): ScriptedReply {
  const last = request.body.messages.at(-1)
  if (last?.role === 'tool') return { text: 'Done: built the image and rolled it out with helm.' }
  const told = FIRM.exec(String(last?.content ?? ''))
  if (told) return { toolCalls: [{ name: 'skill_view', arguments: { name: told[1] } }] }
  return { text: 'I will just run kubectl apply.' }
}

let fixture: AgentFixture | null = null
afterEach(async () => {
  await fixture?.close()
  fixture = null
})

async function turnWithSkill(message: string, options: Parameters<typeof agentFixture>[0] = {}): Promise<AgentFixture> {
  fixture = await agentFixture({ ...options, server: { ...options.server, respond: firmOnlyModel } })
  expect((await fixture.core.skills.create({ name: 'deploy-service', category: 'devops', content: SKILL }, { source: 'agent' })).success).toBe(true)
  await fixture.open().session.runTurn(message).done
  return fixture
}

function firstUserMessage(f: AgentFixture): string {
  const sent = f.server.chatRequests()[0].body.messages.filter((m) => m.role === 'user')
  return String(sent.at(-1)?.content ?? '')
}

describe('a hinted skill is loaded: the hint tells the model firmly', () => {
  it('by words: a paraphrase gets the hint, the model loads the skill and its use is recorded', async () => {
    const f = await turnWithSkill('Can you deploy the web app to staging?')
    const sent = firstUserMessage(f)
    expect(sent).toContain('[Cairn: skills that may help with this: deploy-service (Use when deploying a service to the cluster.)')
    expect(sent).toMatch(FIRM)
    expect(f.server.chatRequests()).toHaveLength(2) // the model did load it: skill_view, then the answer
    expect(f.core.skills.getUsage('deploy-service')?.viewCount).toBe(1)
    expect(f.server.chatRequests()[0].body.messages[0].content).not.toContain('[Cairn: skills') // never in the system prompt
  })

  it('by meaning: with an embedding model set, a request sharing no word with the skill gets the hint', async () => {
    const f = await turnWithSkill('ship the web app to staging', {
      config: { search: { embeddingModel: 'embed-scripted' } },
      server: { embeddings: { concepts: { ship: 'deploy', deploying: 'deploy', app: 'service', staging: 'cluster' } } }
    })
    expect(f.server.embeddingRequests().length).toBeGreaterThan(0)
    expect(firstUserMessage(f)).toMatch(FIRM)
    expect(f.core.skills.getUsage('deploy-service')?.viewCount).toBe(1)
  })
})
