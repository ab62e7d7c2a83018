import { fuzzSuite } from './fuzz.js';

// Half of the games draft their sealed orders in private, as the terminal client does.
fuzzSuite('B', 100, 200, 25, { drafts: true });
