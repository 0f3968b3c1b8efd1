import { withoutEmoji } from '../lib/summary'

/**
 * Shows `text` without emoji glyphs (no emoji font → empty boxes) while screen readers, and the
 * accessible name of a surrounding button, still get the whole text.
 */
export function GlyphFreeText({ text }: { text: string }): React.JSX.Element {
  const shown = withoutEmoji(text)
  if (shown === text.trim()) return <>{text}</>
  return (
    <>
      <span className="visually-hidden">{text}</span>
      <span aria-hidden="true">{shown}</span>
    </>
  )
}
