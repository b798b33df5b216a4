// Hooks given to each route as it is added (an `onRoute` hook), instead of app-wide hooks that ask
// every request which route it is on: the per-route work is done once, at start-up.
import type { RouteOptions } from 'fastify'

type HookName = 'preValidation' | 'preHandler' | 'onSend' | 'onResponse'

const asList = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h])

/** Adds `hook` to a route's own hooks of that name, before or after the ones it has. */
export function addRouteHook(route: RouteOptions, name: HookName, hook: unknown, at: 'first' | 'last'): void {
  const own = asList(route[name] as unknown)
  ;(route as unknown as Record<HookName, unknown[]>)[name] = at === 'first' ? [hook, ...own] : [...own, hook]
}
