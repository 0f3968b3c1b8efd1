/**
 * Scripted OpenAI-compatible provider for tests and manual runs: the one fake component in Cairn's
 * tests. Start it with `startScriptedServer()` and point the real `openai` SDK at `server.url`.
 * See README.md in this folder.
 */
export { startScriptedServer, isChatRequest, chatCompletionsPath } from './server'
export {
  ReplyScript,
  ScriptError,
  conversationEndsWith,
  echoReply,
  lastUserText,
  loadScriptFile,
  parseScript,
  validateReply
} from './script'
export { DEFAULT_EMBEDDING_DIMENSIONS, embeddingsPath, hashedEmbedding } from './embeddings'
export { commonPrefixLength, estimateTokens, serialisePrompt } from './usage'
export { invalidJson, splitEvenly, splitWords } from './completion'
export type * from './types'
