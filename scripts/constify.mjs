// Gives a bundle's top-level declarations back their `const`. esbuild writes every
// top-level const, let and class of a bundle as `var` (on purpose, with no option to keep
// them: its FAQ, "top-level var"). To V8 (Node 20) a module's `const` is a slot that never
// changes, which its optimising compiler reads once, as the value itself; a `var` is read
// from the module's context at every use, and a number there is checked and converted
// each time: the interner's hash loop loaded and converted FNV_PRIME on every byte
// (`perf annotate`). 1 GB by default, six to eight interleaved runs each, the same JSON:
// *short* 3.105 -> 2.730 s (CPU 5.77 -> 5.07), *busy* 2.380 -> 2.045, *few* 2.060 -> 1.800;
// --jobs 1 within the noise (docs/speed.md).
//
// A declaration becomes `const` only when each of its names is given a value there and is
// never written anywhere in the file (any binding of the same name counts: shadowing is
// not worked out, so a doubtful name stays `var`). The program's sources declare these
// with const, and the bundle keeps their order, so no name is read before it is set.

import ts from 'typescript';

/** Names written anywhere in the file: assigned, updated, or the target of a destructuring or a for-in/of. */
function writtenNames(file) {
  const written = new Set();
  /** Every identifier an assignment target binds, through destructuring patterns. */
  const targets = (node) => {
    if (ts.isIdentifier(node)) written.add(node.text);
    else if (ts.isParenthesizedExpression(node)) targets(node.expression);
    else if (ts.isArrayLiteralExpression(node)) node.elements.forEach(targets);
    else if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        if (ts.isShorthandPropertyAssignment(p)) written.add(p.name.text);
        else if (ts.isPropertyAssignment(p)) targets(p.initializer);
        else if (ts.isSpreadAssignment(p)) targets(p.expression);
      }
    } else if (ts.isSpreadElement(node)) targets(node.expression);
    else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) targets(node.left);
  };
  const visit = (node) => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) targets(node.left);
    else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) targets(node.operand);
    else if ((ts.isForInStatement(node) || ts.isForOfStatement(node)) && !ts.isVariableDeclarationList(node.initializer)) targets(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return written;
}

/** Names a declaration binds, through destructuring. */
function boundNames(name, into = []) {
  if (ts.isIdentifier(name)) into.push(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) boundNames(element.name, into);
  return into;
}

/** `text` (one bundle file) with its top-level `var` declarations that are never written made `const`; and how many. */
export function constify(text) {
  const file = ts.createSourceFile('bundle.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const written = writtenNames(file);
  const starts = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    if ((list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== 0) continue;
    const settled = list.declarations.every((d) => d.initializer !== undefined && boundNames(d.name).every((n) => !written.has(n)));
    if (settled) starts.push(list.getStart(file));
  }
  let out = text;
  for (const at of starts.reverse()) {
    if (out.slice(at, at + 3) !== 'var') throw new Error(`constify: no "var" at ${at}`);
    out = `${out.slice(0, at)}const${out.slice(at + 3)}`;
  }
  return { text: out, count: starts.length };
}
