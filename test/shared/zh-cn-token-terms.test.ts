import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * zh-CN has two words for two meanings of "token" (issue 29): 令牌 for an access token (a credential:
 * the sync token, an MCP server's token, the browser-mode link's), and "token" for the units a model
 * counts (usage, context). Each string is read from every zh-CN dictionary by its key.
 */
const dir = join(__dirname, '../../shared/i18n')
const entries: Array<[string, string]> = readdirSync(dir)
  .filter((name) => /^zh-CN.*\.ts$/.test(name))
  .flatMap((name) => [...readFileSync(join(dir, name), 'utf8').matchAll(/^\s*'([^']+)':\s*(['"`])((?:\\.|(?!\2).)*)\2/gm)].map((match): [string, string] => [match[1], match[3]]))

/** The strings about counted model tokens; every other string that says token means a credential. */
const COUNTED = /^(tokens\.|timeline\.tokens$|learned\.usage$|chat\.compressed$|chat\.answerFacts\.)/
/** Names a user types or reads as they are: flags, variables, URL fragments. */
const CODE = /--token[\w-]*|#token=|[A-Z_]*TOKEN[A-Z_]*|\$\{[^}]*\}/g

describe('zh-CN: one word per meaning of "token"', () => {
  it('reads the dictionaries', () => {
    expect(entries.length).toBeGreaterThan(500)
    expect(entries.some(([key]) => key === 'tokens.short')).toBe(true)
  })

  it('counted model tokens are "token", never 令牌', () => {
    const counted = entries.filter(([key]) => COUNTED.test(key))
    expect(counted.length).toBeGreaterThanOrEqual(4)
    expect(counted.filter(([, text]) => text.includes('令牌'))).toEqual([])
  })

  it('access tokens are 令牌, never "token"', () => {
    const credentials = entries.filter(([key]) => !COUNTED.test(key)).filter(([, text]) => /token/i.test(text.replace(CODE, '')))
    expect(credentials).toEqual([])
  })
})
