import { fuzzSuite } from './fuzz.js';

fuzzSuite('B', 100, 200);
