/** The text of an `explain()` answer: the outcome, then each step with its requests, candidates and completeness. */
import type { Explanation } from './trace.js';

/** An {@link Explanation} as text. */
export function explanationText(e: Explanation): string {
  const out = [`explain ${e.explained}  (${e.ms} ms)`, `  → ${e.outcome}`];
  e.steps.forEach((step, i) => {
    out.push(`${i + 1}. ${step.kind === 'conversion' ? 'convert ' : ''}${step.label}  (${step.ms} ms) → ${step.result}`);
    for (const part of step.parts) out.push(`     ${part.label}: ${part.ms} ms`);
    for (const r of step.requests) out.push(`     request ${r.method} ${r.target} → ${r.server}, ${r.ms} ms${r.error !== undefined ? ` (failed: ${r.error})` : ''}`);
    for (const k of step.kept) out.push(`     kept ${k.candidate}${k.how !== '' ? ` — ${k.how}` : ''}`);
    for (const d of step.dropped) out.push(`     dropped ${d.candidate}${d.why !== '' ? ` — ${d.why}` : ''}`);
    if (step.completeness !== undefined) out.push(`     ${step.completeness}`);
  });
  if (e.steps.length === 0) out.push('  (no function ran: the program is a value, or it did not parse)');
  return out.join('\n');
}
