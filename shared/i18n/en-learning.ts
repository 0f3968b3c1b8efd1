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
  'settings.learning.baseURLHint': 'Its own OpenAI-compatible address; empty uses the chat provider. Its key is saved separately.',
  // Why a review did not finish (shared/review-failures.ts): also the English review_runs.error keeps.
  'reviewFailure.exited_before_start': 'Cairn exited before this review started.',
  'reviewFailure.closed_before_start': 'Cairn closed before this review started.',
  'reviewFailure.quit_before_run': 'Cairn quit before this review could run: reviews of the conversations open at quit get {seconds} s.',
  'reviewFailure.never_started': 'Never started: the process that queued it ended before it could run.',
  'reviewFailure.stopped': 'Stopped because Cairn was closing.',
  'reviewFailure.worker_gone': 'The review worker (pid {pid}) is gone without recording how the review ended: Cairn or the worker was stopped or killed mid-review. Nothing is retried; later conversations are reviewed as usual.',
  'reviewFailure.worker_gone.noPid': 'The review worker is gone without recording how the review ended: Cairn or the worker was stopped or killed mid-review. Nothing is retried; later conversations are reviewed as usual.',
  'reviewFailure.settings_unreadable': 'Could not read the provider settings: {detail}',
  'reviewFailure.worker_unstartable': 'Could not start the review worker: {detail}',
  'reviewFailure.invalid_job': 'The review job is invalid: {issues}',
  'reviewFailure.over_budget': 'The review took longer than its {seconds} s budget and was stopped.',
  'reviewFailure.did_not_start': 'The review worker did not start within {seconds} s.',
  'reviewFailure.lock_held': "Another review of this data home held the review lock for this review's whole {seconds} s budget, so it did not run. It is not retried; the next conversation worth learning from is reviewed as usual.",
  'reviewFailure.worker_killed': 'The review worker was killed ({signal}) before finishing.{reported}',
  'reviewFailure.worker_exited': 'The review worker exited with code {exitCode} before finishing.{reported}'
} as const
