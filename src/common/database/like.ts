/** A `LIKE '%…%' ESCAPE '\'` pattern that matches `text` literally, `%` and `_` included. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
