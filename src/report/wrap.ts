// Words wrapped to a width, for the long texts of the reports and of `explain`.

/**
 * `text` wrapped at spaces so that no line is longer than `width` where it can be
 * helped. The first line starts with `first`, the others with `indent`; both count.
 */
export function wrap(text: string, width: number, indent: string, first = ''): string {
  const out: string[] = [];
  let line = first;
  let words = false;
  for (const word of text.split(' ')) {
    if (words && line.length + 1 + word.length > width) {
      out.push(line);
      line = indent + word;
    } else {
      line = words ? `${line} ${word}` : line + word;
    }
    words = true;
  }
  if (words) out.push(line);
  return out.join('\n');
}
