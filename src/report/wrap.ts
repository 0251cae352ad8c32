// Words wrapped to a width, for the long texts of the reports and of `explain`. A command
// written in backticks is never split: it stands on a line of its own, without the
// backticks, so that it can be copied whole.

/** Columns of the report: the terminal's, else COLUMNS, else `otherwise` (100; the help takes commander's 80). */
export function reportWidth(columns: number | undefined, env: NodeJS.ProcessEnv, otherwise = 100): number {
  if (columns !== undefined && columns > 0) return columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : otherwise;
}

/** Prose and commands: `a b \`cmd x\` c` → words a, b; command "cmd x"; word c. */
function tokens(text: string): { word: string; command: boolean }[] {
  const out: { word: string; command: boolean }[] = [];
  const parts = text.split('`');
  parts.forEach((part, i) => {
    // Odd parts stand between backticks; an unclosed backtick leaves prose as it is.
    if (i % 2 === 1 && i < parts.length - 1) {
      if (part !== '') out.push({ word: part, command: true });
    } else {
      const prose = i % 2 === 1 ? `\`${part}` : part;
      for (const word of prose.split(' ')) if (word !== '') out.push({ word, command: false });
    }
  });
  return out;
}

/**
 * `text` wrapped at spaces so that no line is longer than `width` where it can be
 * helped. The first line starts with `first`, the others with `indent`; both count.
 * Commands in backticks go on lines of their own, indented two more.
 */
export function wrap(text: string, width: number, indent: string, first = ''): string {
  const out: string[] = [];
  let line = first;
  let words = false;
  const flush = () => {
    if (words) out.push(line);
    line = indent;
    words = false;
  };
  for (const t of tokens(text)) {
    if (t.command) {
      // A trailing punctuation word after a command (`cmd`.) would look like part of it.
      flush();
      out.push(`${indent}  ${t.word}`);
      continue;
    }
    if (words && line.length + 1 + t.word.length > width) {
      out.push(line);
      line = indent + t.word;
    } else {
      line = words ? `${line} ${t.word}` : line + t.word;
    }
    words = true;
  }
  if (words) out.push(line);
  if (out.length === 0) out.push(first);
  return out.join('\n');
}

/**
 * `term  meaning` rows, each after `indent`: the meanings aligned, and wrapped beside
 * their terms.
 */
export function termList(rows: readonly (readonly [term: string, meaning: string])[], width: number, indent = '  '): string {
  const pad = Math.max(0, ...rows.map(([term]) => term.length));
  const hang = ' '.repeat(indent.length + pad + 2);
  return rows.map(([term, meaning]) => wrap(meaning, width, hang, `${indent}${term.padEnd(pad)}  `)).join('\n');
}
