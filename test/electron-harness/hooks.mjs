// Node module hooks (module.register, loader thread): `electron`, imported by the built main
// bundle, resolves to the harness's stand-in (electron.mjs) instead of the npm package (which
// only names a binary that does not exist here). Nothing else is touched.
let target;
export function initialize(data) {
  target = data.target;
}
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: target, shortCircuit: true, format: 'module' };
  return next(specifier, context);
}
