import { describe, expect, it } from 'vitest'
import { suggestTitle } from '../../electron/core/agent/conversation-title'
import type { ChatProvider } from '../../electron/core/provider/provider'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { DEMO_PROMPTS, respond } from '../../scripts/demo-story'

/** The demo's provider behind the real title request (what `suggestTitle` sends is what the demo reads). */
const demoProvider = {
  async chat({ messages }: { messages: RecordedChatRequest['body']['messages'] }) {
    const reply = (await respond({ body: { model: 'scripted', messages } } as RecordedChatRequest)) as ScriptedReply & { text?: string }
    return { content: reply.text ?? '' }
  }
} as unknown as ChatProvider

describe('the demo story', () => {
  it('titles its two conversations apart: the first answered with npm, the one after the review with pnpm', async () => {
    const first = await suggestTitle(demoProvider, { user: DEMO_PROMPTS[0], answer: '1. `npm init -y`\n2. `npm install --save-dev typescript vitest`' })
    const second = await suggestTitle(demoProvider, { user: DEMO_PROMPTS[0], answer: 'You use pnpm, so:\n\n1. `pnpm init`' })
    const offTopic = await suggestTitle(demoProvider, { user: 'What can you do?', answer: "I am the demo's scripted model" })
    expect(first).toBe('New Node project, first try with npm')
    expect(second).toBe('New Node project, pnpm remembered')
    expect(new Set([first, second, offTopic]).size).toBe(3)
  })
})
