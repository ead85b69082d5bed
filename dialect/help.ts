/**
 * Help text generated from the registry — the one description of the vocabulary that `help()`,
 * the REPL, the MCP tool description and the reference document all read.
 */
import type { Registry, RegisteredFunction } from './registry.js';

/** `help()`: every function with its signature and a one-line description, grouped by category. */
export function helpOverview<Host>(registry: Registry<Host>): string {
  const groups = new Map<string, RegisteredFunction<Host>[]>();
  for (const fn of registry.functions) {
    const key = fn.category ?? 'general';
    groups.set(key, [...(groups.get(key) ?? []), fn]);
  }
  const lines: string[] = ['Dialect functions (call help("name") for details):'];
  for (const [category, fns] of groups) {
    lines.push('', `${category}:`);
    for (const fn of fns) lines.push(`  ${registry.signature(fn)}`, `      ${firstSentence(fn.description)}`);
  }
  return lines.join('\n');
}

/** `help("name")`: one function with its parameters, types, aliases and examples. */
export function helpFor<Host>(registry: Registry<Host>, fn: RegisteredFunction<Host>): string {
  const lines = [registry.signature(fn), '', fn.description];
  if ((fn.aliases ?? []).length > 0) lines.push('', `Also callable as: ${(fn.aliases ?? []).join(', ')}`);
  if (fn.parameters.length > 0) {
    lines.push('', 'Parameters:');
    for (const p of fn.parameters) {
      const flags = [p.optional === true ? 'optional' : p.rest !== undefined ? `rest (${p.rest})` : 'required', ...(p.default !== undefined ? [`default ${JSON.stringify(p.default)}`] : [])];
      const aka = (p.aliases ?? []).length > 0 ? ` [also: ${(p.aliases ?? []).join(', ')}]` : '';
      lines.push(`  ${p.name}: ${p.type} (${flags.join(', ')}) — ${p.description}${aka}`);
    }
  }
  lines.push('', `Returns: ${fn.returns}`, '', 'Examples:');
  for (const e of fn.examples) lines.push(`  ${e.program}${e.description !== undefined ? `    // ${e.description}` : ''}`);
  return lines.join('\n');
}

/** A Markdown reference of the language and every function (for documentation resources). */
export function referenceMarkdown<Host>(registry: Registry<Host>, intro: string): string {
  const out = [intro.trim(), '', '## Functions', ''];
  for (const fn of registry.functions) {
    out.push(`### \`${registry.signature(fn)}\``, '', fn.description, '');
    if ((fn.aliases ?? []).length > 0) out.push(`Aliases: ${(fn.aliases ?? []).map((a) => `\`${a}\``).join(', ')}`, '');
    if (fn.parameters.length > 0) {
      out.push('| parameter | type | | description |', '| --- | --- | --- | --- |');
      for (const p of fn.parameters) {
        out.push(`| \`${p.name}\` | \`${p.type.replace(/\|/g, '\\|')}\` | ${p.optional === true ? 'optional' : p.rest !== undefined ? 'rest' : 'required'} | ${p.description.replace(/\|/g, '\\|')} |`);
      }
      out.push('');
    }
    out.push(`Returns \`${fn.returns.replace(/\|/g, '\\|')}\`.`, '', '```dialect', ...fn.examples.map((e) => e.program), '```', '');
  }
  if (registry.conversions.length > 0) {
    out.push('## Automatic conversions', '', 'When an argument has the wrong type, the shortest chain of these conversions is applied:', '');
    for (const c of registry.conversions) out.push(`- \`${c.fromType}\` → \`${c.toType}\`: ${c.description}`);
    out.push('');
  }
  return out.join('\n');
}

/** The first sentence of a description, on one line: what `help()` and the MCP tool description show. */
export function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/s.exec(text);
  return (m?.[1] ?? text).replace(/\s+/g, ' ').trim();
}
