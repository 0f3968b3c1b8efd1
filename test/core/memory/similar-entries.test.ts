import { describe, expect, it } from 'vitest'
import { compareEntries, findSimilarEntry } from '../../../electron/core/memory/similar-entries'

/** Realistic pairs: an entry already saved, a writer's new text, and what they are to each other. */
const pairs: Array<[existing: string, added: string, expected: 'near_duplicate' | 'contradiction' | null]> = [
  // Rewordings a model makes of what is already saved.
  ['User prefers pnpm over npm for Node projects', 'The user prefers using pnpm instead of npm for Node projects', 'near_duplicate'],
  ['User prefers concise answers', 'User likes answers to be concise.', 'near_duplicate'],
  ["User's name is Alice", 'The user is named Alice', 'near_duplicate'],
  ['The project uses PostgreSQL 16 in Docker', 'Project database: PostgreSQL 16, run in Docker', 'near_duplicate'],
  ['User works in the Europe/Berlin timezone', "The user's timezone is Europe/Berlin", 'near_duplicate'],
  ['User prefers TypeScript strict mode in all projects', 'User prefers strict mode TypeScript for all of their projects', 'near_duplicate'],
  ['用户喜欢简洁的回答', '用户喜欢简洁的回答方式', 'near_duplicate'],
  ['用户喜欢用pnpm管理Node项目', '用户喜欢使用pnpm来管理Node项目', 'near_duplicate'],
  // The same frame with another object, or the same fact negated.
  ['User prefers pnpm for Node projects', 'User prefers npm for Node projects', 'contradiction'],
  ['User prefers npm', 'User prefers pnpm', 'contradiction'],
  ['User prefers tabs for indentation', 'User prefers spaces for indentation', 'contradiction'],
  ['User lives in Berlin', 'User lives in Lisbon', 'contradiction'],
  ["User's editor is VS Code", "User's editor is Neovim", 'contradiction'],
  ['User prefers dark mode in VS Code', 'User prefers light mode in VS Code', 'contradiction'],
  ['User prefers a dark theme in VS Code and iTerm on every machine', 'User prefers a light theme in VS Code and iTerm on every machine', 'contradiction'],
  ['User likes emoji in commit messages', 'User does not like emoji in commit messages', 'contradiction'],
  ['The project uses Python 3.11', 'The project uses Python 3.12', 'contradiction'],
  ['用户喜欢用pnpm管理Node项目', '用户喜欢用npm管理Node项目', 'contradiction'],
  ['The user prefers using pnpm instead of npm for Node projects', 'User prefers yarn over npm for Node projects', 'contradiction'],
  ['User prefers concise answers without emoji', 'User now prefers concise answers with emoji', 'contradiction'],
  ['User prefers pnpm over npm', 'User prefers pnpm, not npm', 'near_duplicate'],
  // Many things are preferred or used for one context at once.
  ['User prefers pnpm for Node projects', 'User prefers TypeScript for Node projects', null],
  ['User uses VS Code for Python', 'User uses pytest for Python', null],
  // Different facts that share words: these must never be taken for one another.
  ['User prefers pnpm for Node projects', "User's Node projects live in ~/code", null],
  ['User prefers dark mode', 'User prefers concise answers', null],
  ['User has a cat named Tom', 'User has a dog named Rex', null],
  ['User is a backend developer', 'User is vegetarian', null],
  ['User works at Acme', 'User works on Android apps', null],
  ["User's Node projects live in ~/code", "User's Python projects live in ~/code", null],
  ['User prefers Python for data analysis', 'User prefers Rust for systems programming', null],
  ['User uses macOS', 'User uses macOS Sonoma on an M2 laptop', null],
  ['User prefers pnpm', 'User prefers pnpm workspaces for monorepos', null],
  ['The deploy script needs AWS_PROFILE=staging', 'The test script needs NODE_ENV=test', null],
  ["User's name is Alice", "User's manager is Alice", null],
  ['用户喜欢简洁的回答', '用户住在上海', null],
  // A number only one side holds is another fact (a port, a project, an id), however alike the rest.
  ['Project 7 deploys with tabs over spaces', 'Project 7 deploys with tabs over spaces in repo 12', null],
  ['writer 0 entry 10: prefers tabs over spaces in project 10', 'writer 0 entry 11: prefers tabs over spaces in project 11', null]
]

describe('similar memory entries', () => {
  it.each(pairs)('%s | %s → %s', (existing, added, expected) => {
    expect(compareEntries(existing, added)).toBe(expected)
  })

  it('finds the entry a new text repeats among others, and reports where it stands', () => {
    const entries = ['User lives in Berlin', 'User prefers pnpm over npm for Node projects', 'User prefers concise answers']
    expect(findSimilarEntry(entries, 'The user prefers using pnpm instead of npm for Node projects')).toEqual({
      kind: 'near_duplicate',
      index: 1,
      entry: entries[1]
    })
    expect(findSimilarEntry(entries, 'User lives in Lisbon')).toMatchObject({ kind: 'contradiction', index: 0 })
    expect(findSimilarEntry(entries, 'User prefers tabs')).toBeNull()
  })

  it('leaves an exact repeat to the caller (a no-op, not a refusal)', () => {
    expect(findSimilarEntry(['User prefers concise answers'], '  User prefers concise answers ')).toBeNull()
  })
})
