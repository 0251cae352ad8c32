// What the --help pages say below commander's lists, laid out to the same width:
// examples and prose (a list of terms is wrap.ts's termList). A command to copy is never
// split: a line that cannot hold it is let run long.

import { wrap } from './report/wrap.js';

/** An example: a command line, and what it is for (or nothing). */
export type Example = readonly [command: string, comment?: string];

/**
 * Examples, a command a line. The comments stand beside their commands, aligned, when the
 * width holds every one of them so; else each goes on the line below its command.
 */
export function exampleList(examples: readonly Example[], width: number): string {
  const column = Math.max(0, ...examples.filter(([, c]) => c !== undefined).map(([command]) => command.length));
  const beside = examples.every(([, comment]) => comment === undefined || 2 + column + 3 + comment.length + 2 <= width);
  return examples
    .map(([command, comment]) => {
      if (comment === undefined) return `  ${command}`;
      if (beside) return `  ${command.padEnd(column)}   (${comment})`;
      return `  ${command}\n${wrap(`(${comment})`, width, '      ', '      ')}`;
    })
    .join('\n');
}

/** A titled section: `\nTitle:\n` and its text. */
export function section(title: string, text: string): string {
  return `\n${title}:\n${text}`;
}

/** Prose wrapped to the width. */
export function paragraph(text: string, width: number): string {
  return wrap(text, width, '');
}
