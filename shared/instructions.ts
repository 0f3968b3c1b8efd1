/**
 * Longest custom instructions, global (config `agent.instructions`) and per conversation: they ride in
 * every request's system prompt. Its own module, free of zod, so the renderer can count against it.
 */
export const MAX_INSTRUCTIONS_CHARS = 4000
