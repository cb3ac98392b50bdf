// Text from outside (Slack, email, the command line, a fixture folder) is cleaned once, where it
// comes in: PostgreSQL stores no NUL in text and no \u0000 in jsonb, and control characters
// have no place in a name, a reply or a command. Tab, line feed and carriage return stay; a lone
// UTF-16 surrogate becomes U+FFFD.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Either of the above, or any surrogate: most text has none, and one scan says so (an import cleans millions of cells). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const MAYBE_DIRTY = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]/;

export function cleanText(text: string): string {
  if (!MAYBE_DIRTY.test(text)) return text;
  return text.replace(CONTROL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * Cleans every string (keys too) of a parsed JSON or form value in place, so that whatever already points
 * into it (Bolt's `command`, `action` and `view` are parts of its body) sees the cleaned text.
 */
export function cleanStringsIn<T>(value: T): T {
  if (typeof value === "string") return cleanText(value) as T;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = cleanStringsIn(value[i]);
  } else if (value && typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const record = value as Record<string, unknown>;
    for (const [key, inner] of Object.entries(record)) {
      const cleanKey = cleanText(key);
      if (cleanKey !== key) delete record[key];
      record[cleanKey] = cleanStringsIn(inner);
    }
  }
  return value;
}
