/**
 * The static checks (`npm run lint`, which `npm test` runs before the tests): formatting, lint,
 * unused code and both type checks, listed once in LANES and run in two lanes at once. Each check
 * is mostly one core's work: on two cores the lanes took 78 s in a fresh clone's CI where the same
 * checks one after the other took 104 s. A lane stops at its first failure (as `&&` would); the
 * other runs on, so one run reports every lane's first problem. Each check's output is printed
 * whole when it ends, never interleaved.
 */
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';

const LANES: readonly (readonly (readonly string[])[])[] = [
  [['eslint', '.'], ['knip']],
  [
    ['prettier', '--check', '.'],
    ['tsc', '--noEmit'],
    ['tsc', '--noEmit', '-p', 'web'],
  ],
];

const root = join(import.meta.dirname, '../..');
const env = { ...process.env, PATH: [join(root, 'node_modules/.bin'), process.env['PATH']].join(delimiter) };

function run(command: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command[0]!, command.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => output.push(d));
    child.stderr.on('data', (d: Buffer) => output.push(d));
    let reported = false;
    // A command that cannot start emits 'error' and then 'close': it is reported once.
    const done = (ok: boolean, why = '') => {
      if (reported) return;
      reported = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n$ ${command.join(' ')}  (${ok ? 'ok' : 'FAILED'}${why}, ${seconds} s)\n${Buffer.concat(output).toString()}`);
      resolve(ok);
    };
    child.on('error', (e) => done(false, `: ${e.message}`));
    child.on('close', (code, signal) => done(code === 0, code === 0 ? '' : `: ${signal ?? `exit ${code}`}`));
  });
}

async function lane(commands: readonly (readonly string[])[]): Promise<boolean> {
  for (const command of commands) if (!(await run(command))) return false;
  return true;
}

const results = await Promise.all(LANES.map(lane));
if (results.includes(false)) {
  process.stdout.write('\nStatic checks failed (above); the tests did not run.\n');
  process.exit(1);
}
