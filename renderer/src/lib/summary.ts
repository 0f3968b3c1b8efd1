const PICTOGRAPHS = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F\u200D]+\s*/gu

/**
 * Text without its emoji. Review summaries start with one (`💾 Memory updated · …`); without an
 * emoji font it paints as an empty box, and the UI marks learned things with its own sparkle icon.
 */
export function withoutEmoji(text: string): string {
  return text.replace(PICTOGRAPHS, '').trim()
}
