import { useId, useRef } from 'react'
import type { LearningMode } from '../../../../shared/config'
import type { MessageKey } from '../../../../shared/i18n'
import { useApp, useSettings, useT } from '../../app/context'

const modeWords: Record<LearningMode, { label: MessageKey; hint: MessageKey }> = {
  auto: { label: 'settings.learning.mode.auto', hint: 'settings.learning.mode.autoHint' },
  ask: { label: 'settings.learning.mode.ask', hint: 'settings.learning.mode.askHint' },
  off: { label: 'settings.learning.mode.off', hint: 'settings.learning.mode.offHint' }
}

/** In the order shown; the record above makes a new mode fail to compile until it is worded. */
const learningModes = Object.keys(modeWords) as LearningMode[]

/** Where an arrow key (or Home / End) moves in a radio group of `count`, wrapping like a native one; null for other keys. */
function radioStep(key: string, at: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (at + 1) % count
    case 'ArrowLeft':
    case 'ArrowUp':
      return (at - 1 + count) % count
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return null
  }
}

/**
 * Auto / Ask / Off, each with what it means, saved at once through `learning.setMode`. It behaves like
 * a native radio group: one tab stop (the chosen mode), and the arrows move to and choose the next one.
 */
export function LearningModeField({ mode }: { mode: LearningMode }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const { settings } = useApp()
  const saving = useSettings((s) => s.saving)
  const buttons = useRef<Array<HTMLButtonElement | null>>([])
  const choose = (choice: LearningMode): void => {
    if (!saving && choice !== mode) void settings.getState().setLearningMode(choice)
  }
  const onKeyDown = (event: React.KeyboardEvent, at: number): void => {
    const next = radioStep(event.key, at, learningModes.length)
    if (next === null) return
    event.preventDefault()
    // While a choice saves, the focus stays put: it and the checked mode move together.
    if (saving) return
    buttons.current[next]?.focus()
    choose(learningModes[next])
  }
  return (
    <div className="field" data-setting="settings.learning.mode">
      <span className="field-label" id={id}>
        {t('settings.learning.mode')}
      </span>
      <div className="mode-choices" role="radiogroup" aria-labelledby={id} aria-busy={saving || undefined}>
        {learningModes.map((choice, at) => (
          <button
            key={choice}
            ref={(element) => {
              buttons.current[at] = element
            }}
            type="button"
            role="radio"
            aria-checked={choice === mode}
            // aria-disabled, not disabled: a disabled button drops the keyboard's focus while the choice saves.
            aria-disabled={saving || undefined}
            tabIndex={choice === mode ? 0 : -1}
            className={choice === mode ? 'mode-choice active' : 'mode-choice'}
            onClick={() => choose(choice)}
            onKeyDown={(event) => onKeyDown(event, at)}
          >
            <span className="mode-choice-dot" aria-hidden="true" />
            <span className="mode-choice-text">
              <span className="mode-choice-label">{t(modeWords[choice].label)}</span>
              <span className="mode-choice-hint">{t(modeWords[choice].hint)}</span>
            </span>
          </button>
        ))}
      </div>
    </div>
  )
}
