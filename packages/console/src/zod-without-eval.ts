import { config } from 'zod';

// The contract's schemas run in the browser too (through the client). Zod would probe `new Function` to compile
// faster parsers; under the console's CSP (no 'unsafe-eval') that probe logs a violation, so it is switched off.
config({ jitless: true });
