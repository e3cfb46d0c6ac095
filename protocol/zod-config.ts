// zod compiles object parsers with `new Function` when it may. Neither runtime that loads this contract
// allows eval: the page's CSP (client/public/_headers) has no 'unsafe-eval', and workerd refuses it.
// Even zod's probe for eval is reported as a CSP violation in the browser, so it is told not to try.
import { z } from "zod";

z.config({ jitless: true });
