// The reference implementations that limits-size-strings.test.ts and content-type.test.ts
// compare against (body-parser's own dependencies, present through the body-parser
// devDependency, without published types).
declare module 'bytes' {
  const bytes: { parse(value: string | number): number | null };
  export default bytes;
}

declare module 'type-is' {
  import type { IncomingMessage } from 'node:http';

  function typeis(req: IncomingMessage, types: string[]): string | false | null;
  export default typeis;
}
