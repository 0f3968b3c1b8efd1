import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { estimateTokens, serialisePrompt, type RecordedChatRequest } from '../scripted-provider'
import { agentFixture } from './agent-fixture'

/** What a one-line message costs in a fresh data home, by the scripted provider's estimate (1 token ≈ 4 characters). */
export interface PromptSize {
  /** The system prompt alone. */
  systemTokens: number
  /** The tool definitions as sent (JSON). */
  toolsTokens: number
  tools: number
  /** The whole first request of a one-line message: tools + system prompt + the message. */
  oneLineTokens: number
  /** The second request of a turn that made one tool call (the call and its result added). */
  afterToolCallTokens: number
  /** Both requests of that turn together: what the turn was billed for. */
  turnWithToolCallTokens: number
  /** The largest tool definitions, heaviest first. */
  heaviestTools: Array<{ name: string; tokens: number }>
}

const ONE_LINE = 'What time zone is Tokyo in?'

function tokensOf(request: RecordedChatRequest): number {
  return estimateTokens(serialisePrompt(request.body).length)
}

/** Runs a fresh home's agent against the scripted server: one plain turn, then one turn with a tool call. */
export async function measurePromptSize(): Promise<PromptSize> {
  const fixture = await agentFixture()
  try {
    writeFileSync(join(fixture.workspace, 'notes.txt'), 'Tokyo is on JST (UTC+9).\n')
    fixture.server.enqueue({ text: 'Japan Standard Time (UTC+9).' })
    await fixture.open().session.runTurn(ONE_LINE).done
    const [plain] = fixture.server.chatRequests()
    fixture.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'JST, UTC+9.' })
    await fixture.open().session.runTurn(ONE_LINE).done
    const [first, second] = fixture.server.chatRequests().slice(1)
    const tools = (plain.body.tools ?? []) as Array<{ function: { name: string } }>
    const system = plain.body.messages.find((message) => message.role === 'system')
    return {
      systemTokens: estimateTokens(JSON.stringify(system?.content ?? '').length),
      toolsTokens: estimateTokens(JSON.stringify(tools).length),
      tools: tools.length,
      oneLineTokens: tokensOf(plain),
      afterToolCallTokens: tokensOf(second),
      turnWithToolCallTokens: tokensOf(first) + tokensOf(second),
      heaviestTools: tools
        .map((tool) => ({ name: tool.function.name, tokens: estimateTokens(JSON.stringify(tool).length) }))
        .sort((a, b) => b.tokens - a.tokens)
    }
  } finally {
    await fixture.close()
  }
}
