export { MemoryStore } from './memory-store'
export { memoryLimitsFrom, type MemoryStoreOptions } from './memory-store-options'
export { projectScopeFor, type ProjectScope } from './project-scope'
export {
  createMemoryTool,
  memoryToolSchema,
  runMemoryTool,
  type MemoryToolArgs,
  type MemoryToolOptions,
  type MemoryToolResult
} from './memory-tool'
export { BLOCK_RULE, renderBlock, sanitizeEntries, type MemorySnapshot } from './snapshot'
export { ENTRY_DELIMITER, charCount, hasExternalDrift, joinEntries, parseEntries, usageOf } from './memory-file'
export { usageLabel } from './messages'
export {
  isMemoryTarget,
  memoryTargets,
  type MemoryCallContext,
  type MemoryFailure,
  type MemoryLimits,
  type MemoryMutationOptions,
  type MemoryOperation,
  type MemoryReadResult,
  type MemoryResult,
  type MemorySuccess,
  type MemoryTarget,
  type MemoryUsage
} from './types'
