/**
 * English words for what reviews learned, entry by entry, and why a conversation was reviewed when
 * it ended. Part of the English dictionary (`en.ts`); the describe helpers in `describe-learning.ts` use them.
 */
export const enLearning = {
  'learned.remembered': 'Remembered: {text}',
  'learned.forgotten': 'Forgot: {text}',
  'learned.skillCreated': 'New skill {name}: {description}',
  'learned.skillCreatedPlain': 'New skill {name}',
  'learned.skillChanged': 'Skill {name}: {change}',
  'learned.skillChangedRemoved': 'Skill {name}: removed "{change}"',
  'learned.skillUpdated': 'Skill {name} updated',
  'learned.skillDeleted': 'Skill {name} deleted',
  'learned.nothing': 'Nothing worth keeping.',
  'learned.heading': 'Learned from this conversation',
  'learned.usage': '{model}: {prompt} prompt + {completion} completion tokens',

  'reason.session_end.idle': 'the conversation went quiet ({turns} {turns|turn|turns} not reviewed yet)',
  'reason.session_end.new_conversation': 'a new conversation started ({turns} {turns|turn|turns} not reviewed yet)',
  'reason.session_end.quit': 'Cairn is quitting ({turns} {turns|turn|turns} not reviewed yet)',
  'reason.session_end.exit': 'the chat ended ({turns} {turns|turn|turns} not reviewed yet)',

  'settings.learning.model': 'Model for learning',
  'settings.learning.modelHint': 'Reviews run on this model; empty uses the chat model. A smaller, cheaper model usually does.',
  'settings.learning.baseURL': 'Endpoint for learning',
  'settings.learning.baseURLHint': 'Its own OpenAI-compatible address; empty uses the chat provider. Its key is saved separately.'
} as const
