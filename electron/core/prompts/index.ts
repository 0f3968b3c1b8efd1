export { PromptError, PromptStore, PROMPTS_DIR, promptNameOfPath, type PromptList, type SavePromptOptions } from './prompt-store'
export { formatPromptFile, parsePromptFile } from './prompt-file'
