// A setup file of the mutation run (vitest.mutation.config.ts): every fast-check property runs on one fixed seed,
// so the same inputs are tried for every mutant and a kill can be reproduced.
import fc from "fast-check";

fc.configureGlobal({ seed: 20261123 });
