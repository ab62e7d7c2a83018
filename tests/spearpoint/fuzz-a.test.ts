import { fuzzSuite } from './fuzz.js';

fuzzSuite('A', 0, 100);
