import { describe, expect, it } from 'vitest'
import { measurePromptSize } from '../../helpers/prompt-size'

/**
 * A one-line message in a fresh data home: the system prompt and every chat tool's definition as sent,
 * by the scripted provider's estimate (`npm run bench:prompt` prints the same figures). Small local
 * models pay for every token of it on every request; it was about 4,600 before issue 27.
 */
describe('prompt size', () => {
  it('keeps a one-line message in a fresh home under 3,000 tokens', async () => {
    const size = await measurePromptSize()
    expect(size.tools).toBeGreaterThanOrEqual(12) // the whole chat tool set was measured, not a part of it
    expect(size.oneLineTokens).toBeLessThan(3000)
    expect(size.afterToolCallTokens).toBeLessThan(3200)
  })
})
