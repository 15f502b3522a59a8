/**
 * One endpoint's path, for both sides: the server registers `pattern` (Fastify's `:name`
 * parameters), the app calls the route with the parameters' values and gets the path to request.
 * A route is written once, so the two cannot drift apart.
 */

/** The names of a pattern's `:name` parameters, in order. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...ParamNames<`/${Rest}`>]
  : P extends `${string}:${infer Name}`
    ? [Name]
    : [];

type ValuesOf<T extends unknown[]> = { [K in keyof T]: string | number };
/** One value per parameter, in the pattern's order. */
export type RouteArgs<P extends string> = ValuesOf<ParamNames<P>>;

export type Route<P extends string = string> = ((...values: RouteArgs<P>) => string) & {
  /** The path with its `:name` parameters, as the server registers it. */
  readonly pattern: P;
};

/** A route of `pattern`; each value is URL-encoded into its parameter's place. */
export function route<const P extends string>(pattern: P): Route<P> {
  const build = (...values: (string | number)[]) => {
    let i = 0;
    return pattern.replace(/:[A-Za-z_]\w*/g, () => encodeURIComponent(String(values[i++])));
  };
  return Object.assign(build as (...values: RouteArgs<P>) => string, { pattern });
}

/** A route the app calls with one query parameter: the server registers the bare path, the app adds `?name=value`. */
export function routeWithQuery<const P extends string>(pattern: P, name: string): ((value: string | number) => string) & { readonly pattern: P } {
  return Object.assign((value: string | number) => `${pattern}?${name}=${encodeURIComponent(String(value))}`, { pattern });
}
