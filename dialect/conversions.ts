/**
 * Type checking and automatic conversion of arguments. When a value does not match a parameter's
 * type, the shortest chain of registered conversions that reaches it is applied (breadth-first
 * over the conversion graph, through as many intermediate types as needed). Arrays convert
 * element-wise, a single value is lifted into a one-element list when a list is expected, and a
 * list is unwrapped where one value is expected: one element is that value, several are an
 * ambiguity (`pick(list, N)` selects one).
 */
import type { Registry, RegisteredConversion } from './registry.js';
import type { TypeExpr } from './types.js';

/** A plan for turning a value into a type: the conversions to apply, in order. */
export type Plan<Host> =
  | { readonly kind: 'direct' }
  | { readonly kind: 'path'; readonly steps: readonly RegisteredConversion<Host>[] }
  | { readonly kind: 'elements'; readonly plans: readonly Plan<Host>[] }
  | { readonly kind: 'lift'; readonly inner: Plan<Host> }
  | { readonly kind: 'unwrap'; readonly plans: readonly Plan<Host>[]; readonly objects: boolean };

/** Whether a value matches a type expression as it is. */
export function matches<Host>(registry: Registry<Host>, value: unknown, type: TypeExpr): boolean {
  switch (type.kind) {
    case 'named':
      return type.name === 'any' || (registry.type(type.name)?.is(value) ?? false);
    case 'array':
      return Array.isArray(value) && value.every((v) => matches(registry, v, type.element));
    case 'union':
      return type.members.some((m) => matches(registry, value, m));
  }
}

/** Cost of a plan: the number of conversions (and lifts) it applies; elements cost their maximum. */
export function planCost<Host>(plan: Plan<Host>): number {
  switch (plan.kind) {
    case 'direct':
      return 0;
    case 'path':
      return plan.steps.length;
    case 'elements':
      return Math.max(0, ...plan.plans.map(planCost));
    case 'lift':
      return 1 + planCost(plan.inner);
    case 'unwrap':
      // A list of records (locations, symbols) where one is expected is surely "one of these";
      // a list of strings or numbers is rather text to join (the registered array→string).
      return Math.max(0, ...plan.plans.map(planCost)) + (plan.objects ? 0.5 : 1.5);
  }
}

/** The cheapest plan that turns `value` into `type`, or undefined if none exists. */
export function planConversion<Host>(registry: Registry<Host>, value: unknown, type: TypeExpr): Plan<Host> | undefined {
  if (matches(registry, value, type)) return { kind: 'direct' };
  const options: Plan<Host>[] = [];
  const members = type.kind === 'union' ? type.members : [type];
  for (const member of members) {
    if (member.kind === 'named') {
      const path = shortestPath(registry, registry.typesOf(value), member.name);
      if (path !== undefined) options.push({ kind: 'path', steps: path });
    } else if (member.kind === 'array') {
      if (Array.isArray(value)) {
        const plans = value.map((v) => planConversion(registry, v, member.element));
        if (plans.every((p) => p !== undefined)) options.push({ kind: 'elements', plans });
      } else {
        const inner = planConversion(registry, value, member.element);
        if (inner !== undefined) options.push({ kind: 'lift', inner });
      }
    } else {
      const nested = planConversion(registry, value, member);
      if (nested !== undefined) options.push(nested);
    }
  }
  if (Array.isArray(value) && value.length > 0 && !members.some((m) => m.kind === 'array')) {
    const plans = value.map((v) => planConversion(registry, v, type));
    if (plans.every((p) => p !== undefined)) options.push({ kind: 'unwrap', plans, objects: value.every((v) => typeof v === 'object' && v !== null) });
  }
  let best: Plan<Host> | undefined;
  for (const p of options) if (best === undefined || planCost(p) < planCost(best)) best = p;
  return best;
}

/** Breadth-first search over registered conversions from any of `fromTypes` to `toType`. */
function shortestPath<Host>(registry: Registry<Host>, fromTypes: readonly string[], toType: string): RegisteredConversion<Host>[] | undefined {
  if (toType === 'any') return undefined;
  const previous = new Map<string, { from: string; via: RegisteredConversion<Host> } | null>();
  const queue: string[] = [];
  for (const t of fromTypes) {
    previous.set(t, null);
    queue.push(t);
  }
  while (queue.length > 0) {
    const current = queue.shift() as string;
    if (current === toType) {
      const steps: RegisteredConversion<Host>[] = [];
      for (let at = current; ; ) {
        const edge = previous.get(at);
        if (edge === null || edge === undefined) break;
        steps.unshift(edge.via);
        at = edge.from;
      }
      return steps;
    }
    for (const c of registry.conversions) {
      if (c.fromType === current && !previous.has(c.toType)) {
        previous.set(c.toType, { from: current, via: c });
        queue.push(c.toType);
      }
    }
  }
  return undefined;
}
