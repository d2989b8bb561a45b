import * as z from 'zod';

/**
 * The fields of a contract request schema that the model fills in, each with a description for the model. Limits,
 * enums and defaults stay the contract's; `scope` is never one of them, since the app fixes it.
 *
 * Built from the route's shape rather than with `.pick()` because zod refuses `.pick()` on a schema with an
 * object-level refinement (edit, bulk forget). Such a refinement stays with the server, whose validation error the
 * tool returns for the model to read.
 */
export function routeFields<Shape extends Readonly<Record<string, z.ZodType>>, const Key extends keyof Shape & string>(
  route: z.ZodObject<Shape, z.core.$strict>,
  descriptions: { readonly [Field in Key]: string },
): z.ZodObject<{ [Field in Key]: Shape[Field] }, z.core.$strict> {
  const shape: Partial<Record<Key, z.ZodType>> = {};
  for (const field of Object.keys(descriptions) as Key[]) {
    const schema = route.shape[field];
    if (schema === undefined) throw new TypeError(`routeFields: the route has no field '${field}'`);
    shape[field] = schema.describe(descriptions[field]);
  }
  // Like the contract's request schemas, strict: an unknown field (a `scope` the model made up) is an error.
  return z.strictObject(shape) as unknown as z.ZodObject<{ [Field in Key]: Shape[Field] }, z.core.$strict>;
}
