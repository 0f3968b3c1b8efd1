/**
 * Imported conversations go on with the user's model (issue 29, part D). Imports before this stored
 * the other app's model (ChatGPT's `o3`) as the conversation's, so going on with one asked the user's
 * provider for a model it lacks. Each imported message is marked with the app it came from
 * (`meta.importedFrom`: the messages up to the end of its batch, as `importedThrough` counts them),
 * each imported answer keeps the model that wrote it (`meta.model`), and the conversation's model is
 * cleared unless the user already went on with it on that model (then it is theirs).
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const importedModelMigration: { version: number; sql: string } = {
  version: 23,
  sql: /* sql */ `
    UPDATE messages
    SET meta = json_set(CASE WHEN json_valid(meta) THEN meta ELSE '{}' END, '$.importedFrom', substr(s.source, 8))
    FROM sessions s LEFT JOIN imports i ON i.id = s.import_id
    WHERE messages.session_id = s.id AND s.source LIKE 'import:%'
      AND (i.finished_at IS NULL OR messages.created_at <= i.finished_at);

    UPDATE messages
    SET meta = json_set(meta, '$.model', s.model)
    FROM sessions s
    WHERE messages.session_id = s.id AND messages.role = 'assistant' AND s.source LIKE 'import:%'
      AND s.model IS NOT NULL AND s.model <> ''
      AND json_valid(messages.meta) AND json_type(messages.meta, '$.importedFrom') IS NOT NULL
      AND json_type(messages.meta, '$.model') IS NULL;

    UPDATE sessions SET model = NULL
    WHERE source LIKE 'import:%' AND model IS NOT NULL
      AND NOT EXISTS (
        SELECT 1 FROM messages m
        WHERE m.session_id = sessions.id AND m.role = 'assistant' AND json_valid(m.meta)
          AND json_type(m.meta, '$.importedFrom') IS NULL AND json_extract(m.meta, '$.model') = sessions.model
      );
  `
}
